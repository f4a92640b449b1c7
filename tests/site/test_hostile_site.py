"""Escaping by default (`evaluation/site/html.py`): a `str` is text and only `Markup` is HTML, so
a site built from inputs whose every user-supplied text is a script payload (`hostile_inputs.py`:
entries, Tetris, NARCADE, Sudoku, chess ladder and arena runs) runs no payload. Every page of it,
and of the default site, is opened in headless Chromium: no page may set `window.__xss`, hold a
payload element, an injected script, a `javascript:` URL or a JSON block a payload broke."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from evaluation.site.build import SiteBuild, inline_json, site_path
from evaluation.site.cli import build_site
from evaluation.site.html import Markup, cell, definition_list, esc, join, link, safe_href, table
from tests.site import hostile_inputs
from tests.site.conftest import file_url
from tests.site.hostile_inputs import PAYLOAD

UNESCAPED = ("<img src=x", "<svg onload", "<script>window", 'onerror="window')
"""Pieces of the payload that may appear in a page's bytes only escaped."""
OWN_MARKUP_AS_TEXT = (
    "&lt;p&gt;",
    "&lt;h2&gt;",
    "&lt;h3&gt;",
    "&lt;/ul&gt;",
    "&lt;li&gt;",
    "&lt;a ",
)
"""The site's own tags shown as text: a builder that escaped its markup (a `str` it forgot to
make `Markup`)."""
CHECK_PAGE = """
const done = arguments[arguments.length - 1];
const seek = document.getElementById('seek');
if (seek) {
  for (let i = 0; i <= Number(seek.max); i++) {
    seek.value = String(i);
    seek.dispatchEvent(new Event('input'));
  }
}
setTimeout(function () {
  const bad = [];
  if (window.__xss) bad.push('window.__xss is set');
  for (const el of document.querySelectorAll('img[src="x"], svg[onload], [onerror], [onload]')) {
    bad.push('payload element ' + el.outerHTML.slice(0, 80));
  }
  for (const s of document.scripts) {
    if (s.type === 'application/json') {
      try { JSON.parse(s.textContent); } catch (e) { bad.push('broken JSON block ' + s.id); }
    } else if (s.src) {
      if (!s.src.includes('/assets/')) bad.push('foreign script ' + s.src);
    } else if (s.textContent.includes('__xss')) {
      bad.push('injected script ' + s.textContent.slice(0, 80));
    }
  }
  for (const el of document.querySelectorAll('[href], [src], [action], [formaction]')) {
    for (const name of ['href', 'src', 'action', 'formaction']) {
      const value = el.getAttribute(name);
      if (value && /^\\s*javascript:/i.test(value)) bad.push('javascript: URL in ' + name);
    }
  }
  done(bad);
}, 100);
"""
"""Step a replay through every frame (so the viewer draws every recorded text), wait for
image errors to fire, and list what a payload managed to do."""


# -- html.py --------------------------------------------------------------------------------------


def test_a_plain_string_is_escaped_everywhere_and_markup_passes() -> None:
    hostile = '<img src=x onerror="alert(1)">'
    assert cell(hostile) == "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;"
    assert cell(Markup("<b>ours</b>")) == "<b>ours</b>"
    out = table([hostile], [[hostile, Markup("<i>ok</i>")]], caption=hostile)
    assert "<img" not in out and out.count("&lt;img") == 3 and "<i>ok</i>" in out
    facts = definition_list([(hostile, hostile), ("ours", Markup("<code>x</code>"))])
    assert "<img" not in facts and "<dd><code>x</code></dd>" in facts
    assert join([hostile, Markup("<br>")]) == esc(hostile) + Markup("<br>")
    assert esc(Markup("<b>")) == "<b>" and isinstance(esc(hostile), Markup)
    assert isinstance(table(["a"], []), Markup) and isinstance(link("a.html", "a"), Markup)


def test_links_refuse_script_urls_however_they_are_spelt() -> None:
    for href in ("javascript:alert(1)", " JavaScript:x", "java\tscript:x", "data:text/html,x"):
        assert not safe_href(href)
        assert link(href, "<t>") == "&lt;t&gt;"
    for href in ("a/b.html", "../x.html#frag", "#top", "https://example.org/x", "b/c:d.html"):
        assert safe_href(href)


def test_page_bodies_and_summaries_are_text_unless_markup(tmp_path: Path) -> None:
    site = SiteBuild(tmp_path / "out", version="t")
    site.section("demo", "Demo", "<b>plain</b>")
    site.page("demo/index.html", "<i>title</i>", f"<p>{PAYLOAD}</p>")
    site.page("demo/ours.html", "Ours", Markup("<p id=ours>ours</p>"))
    site.finish()
    page = (tmp_path / "out" / "demo" / "index.html").read_text()
    assert "&lt;p&gt;" in page and not any(piece in page for piece in UNESCAPED)
    assert "<title>&lt;i&gt;title&lt;/i&gt;" in page
    assert "&lt;b&gt;plain&lt;/b&gt;" in (tmp_path / "out" / "index.html").read_text()
    assert "<p id=ours>ours</p>" in (tmp_path / "out" / "demo" / "ours.html").read_text()


def test_inline_json_escapes_every_angle_bracket_and_ampersand() -> None:
    text = inline_json({"a": "</script><!--<b>&amp;"})
    assert not any(c in text for c in "<>&")
    assert "\\u003c/script\\u003e\\u003c!--" in text


def test_a_long_safe_name_is_a_valid_page_name() -> None:
    from evaluation.core.rundir import safe_name

    name = safe_name("<x>" * 100)  # cut to the limit, with a hash
    assert site_path(f"demo/{name}.html") == f"demo/{name}.html"
    with pytest.raises(ValueError):
        site_path(f"demo/{name}x.html")


# -- built sites ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built from every hostile input at once."""
    root = tmp_path_factory.mktemp("hostile")
    (root / "narcade").mkdir()
    (root / "entries").mkdir()
    inputs = [
        hostile_inputs.tetris_run(root / "tetris"),
        hostile_inputs.narcade_results(root / "narcade"),
        hostile_inputs.sudoku_run(root / "sudoku"),
        hostile_inputs.ladder_run(root / "ladder"),
        hostile_inputs.arena_entries(root / "entries"),
        hostile_inputs.arena_run(root / "arena"),
    ]
    output = root / "dist"
    build_site(output, inputs)
    return output


@pytest.fixture(scope="module")
def default_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site of the shipped results (`arcade-eval site` with no input)."""
    output = tmp_path_factory.mktemp("default") / "dist"
    build_site(output, None)
    return output


def _pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def test_the_hostile_site_has_a_page_for_every_input(hostile_site: Path) -> None:
    folders = {p.relative_to(hostile_site).parts[0] for p in _pages(hostile_site)}
    assert folders >= {"tetris", "narcade", "sudoku", "chess-ladder", "arena"}
    replays = [p for p in _pages(hostile_site) if "replays" in p.parts or "runs" in p.parts]
    assert len(replays) > 40
    text = "".join(p.read_text(encoding="utf-8") for p in _pages(hostile_site))
    shown = esc(PAYLOAD)
    assert text.count(shown) > 100  # the payload is on the pages, as text


@pytest.mark.parametrize(
    "which", ["hostile_site", pytest.param("default_site", marks=pytest.mark.slow)]
)
def test_no_page_holds_a_payload_unescaped_or_its_own_markup_as_text(
    which: str, request: pytest.FixtureRequest
) -> None:
    site: Path = request.getfixturevalue(which)
    for page in _pages(site):
        text = page.read_text(encoding="utf-8")
        name = page.relative_to(site)
        assert not [piece for piece in UNESCAPED if piece in text], name
        assert not [piece for piece in OWN_MARKUP_AS_TEXT if piece in text], name


@pytest.mark.parametrize(
    "which", ["hostile_site", pytest.param("default_site", marks=pytest.mark.slow)]
)
def test_no_payload_runs_on_any_page_in_chromium(
    which: str, request: pytest.FixtureRequest, browser: Any
) -> None:
    site: Path = request.getfixturevalue(which)
    browser.set_script_timeout(30)
    problems = {}
    for page in _pages(site):
        browser.get(file_url(page))
        found = browser.execute_async_script(CHECK_PAGE)
        if found:
            problems[str(page.relative_to(site))] = found
    assert not problems, problems

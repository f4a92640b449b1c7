"""The generic site builder: layout, inline data, output refusal, inputs, determinism, and the
refusal of a replay whose log does not verify."""

from __future__ import annotations

import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from evaluation import cli
from evaluation.core.replay_compact import ENCODING, expand_replay
from evaluation.core.replay_export import export_replay
from evaluation.site import build as site_build
from evaluation.site import cli as site_cli
from evaluation.site.build import MARKER, SiteBuild, SiteError, inline_json, relative, site_path
from evaluation.site.cli import build_site
from evaluation.site.html import Markup, definition_list, esc, link, table
from tests.site.tamper import flip_one_answer


class _Collect(HTMLParser):
    """Links, script sources and the text of `<script type="application/json">` elements."""

    def __init__(self) -> None:
        super().__init__()
        self.refs: list[str] = []
        self.json: dict[str, str] = {}
        self._in: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        for key in ("href", "src"):
            if a.get(key) and not str(a[key]).startswith(("data:", "#")):
                self.refs.append(str(a[key]))
        if tag == "script" and a.get("type") == "application/json":
            self._in = str(a.get("id"))
            self.json[self._in] = ""

    def handle_data(self, data: str) -> None:
        if self._in is not None:
            self.json[self._in] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in = None


def _parse(path: Path) -> _Collect:
    parser = _Collect()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def _small_site(output: Path, data: object = None) -> SiteBuild:
    site = SiteBuild(output, inputs=["runs/x"], version="9.9")
    site.section("demo", "Demo", Markup("<p>a demo</p>"))
    site.page("demo/index.html", "Demo index", Markup("<p>top</p>"))
    site.page("demo/a/b/deep.html", "Deep", link("../../index.html", "up"), data=data)
    site.page(
        "demo/a/replay-ish.html",
        "With script",
        Markup("<div id=board></div>"),
        scripts=["replay.js"],
    )
    site.json("demo/numbers.json", {"x": 1.5, "nan": float("nan")})
    site.finish()
    return site


def test_every_link_of_every_page_resolves_from_any_depth(tmp_path: Path) -> None:
    _small_site(tmp_path / "out")
    pages = sorted((tmp_path / "out").rglob("*.html"))
    assert {p.relative_to(tmp_path / "out").as_posix() for p in pages} == {
        "index.html",
        "demo/index.html",
        "demo/a/b/deep.html",
        "demo/a/replay-ish.html",
    }
    for page in pages:
        refs = _parse(page).refs
        assert any(r.endswith("assets/site.css") for r in refs)
        for ref in refs:
            assert not ref.startswith(("/", "http:", "https:")), ref
            assert (page.parent / ref).resolve().is_file(), f"{page}: {ref}"


def test_layout_has_nav_of_sections_footer_with_version_and_inputs_and_no_time(
    tmp_path: Path,
) -> None:
    _small_site(tmp_path / "out")
    deep = (tmp_path / "out" / "demo/a/b/deep.html").read_text()
    assert '<a href="../../../demo/index.html" aria-current="true">Demo</a>' in deep
    assert "arcade-gym 9.9" in deep and "<code>runs/x</code>" in deep
    assert not re.search(r"20\d\d-\d\d-\d\d", deep)
    home = (tmp_path / "out" / "index.html").read_text()
    assert 'class="card"' in home and "a demo" in home


def test_inline_data_cannot_close_its_script_element(tmp_path: Path) -> None:
    nasty = {"name": "</script><script>alert(1)</script>", "note": "<!-- x", "n": [1, 2.5]}
    _small_site(tmp_path / "out", data=nasty)
    text = (tmp_path / "out" / "demo/a/b/deep.html").read_text()
    assert "alert(1)</script>" not in text
    parsed = _parse(tmp_path / "out" / "demo/a/b/deep.html")
    assert json.loads(parsed.json["page-data"]) == nasty
    assert "\\u003c/script\\u003e" in inline_json(nasty)


def test_json_files_hold_plain_json_without_nan(tmp_path: Path) -> None:
    _small_site(tmp_path / "out")
    data = json.loads((tmp_path / "out" / "demo/numbers.json").read_text())
    assert data == {"x": 1.5, "nan": None}


def test_a_non_empty_directory_that_is_no_site_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "thesis.tex").write_text("keep me")
    with pytest.raises(SiteError, match="not empty"):
        SiteBuild(out)
    (tmp_path / "file").write_text("x")
    with pytest.raises(SiteError, match="not a directory"):
        SiteBuild(tmp_path / "file")
    assert (out / "thesis.tex").read_text() == "keep me"


def test_a_previous_site_is_replaced_and_its_stale_pages_removed(tmp_path: Path) -> None:
    out = tmp_path / "out"
    _small_site(out)
    assert (out / MARKER).is_file()
    site = SiteBuild(out, version="9.9")
    site.section("other", "Other", Markup("<p>o</p>"))
    site.page("other/index.html", "Other", Markup("<p>o</p>"))
    site.finish()
    assert not (out / "demo").exists()
    assert (out / "other/index.html").is_file()


def test_unsafe_paths_and_double_writes_are_refused(tmp_path: Path) -> None:
    for bad in ("../x.html", "/abs.html", "a b.html", ".hidden.html", "a/../b.html"):
        with pytest.raises(ValueError):
            site_path(bad)
    site = SiteBuild(tmp_path / "out")
    site.section("demo", "Demo", "")
    site.page("demo/x.html", "x", "")
    with pytest.raises(ValueError, match="twice"):
        site.page("demo/x.html", "x", "")
    with pytest.raises(ValueError, match="reserved"):
        site.page("index.html", "x", "")
    with pytest.raises(ValueError, match="unknown section"):
        site.page("demo/y.html", "y", "", section="nope")
    site.page("demo/z.html", "z", "", scripts=["viewers/no-such-viewer.js"])
    with pytest.raises(SiteError, match="no-such-viewer"):
        site.finish()


def test_a_section_without_an_index_gets_one_listing_its_pages(tmp_path: Path) -> None:
    site = SiteBuild(tmp_path / "out")
    site.section("demo", "Demo", Markup("<p>s</p>"))
    site.page("demo/one.html", "One <b>", "")
    site.finish()
    index = (tmp_path / "out/demo/index.html").read_text()
    assert '<a href="one.html">One &lt;b&gt;</a>' in index


def test_html_helpers_escape_plain_values_and_keep_given_html() -> None:
    assert esc('<a href="x">') == "&lt;a href=&quot;x&quot;&gt;"
    assert link("a b.html", "<x>") == '<a href="a b.html">&lt;x&gt;</a>'
    out = table([Markup("<i>h</i>"), "n"], [[Markup("<b>safe</b>"), 1234567], [None, 2.5]])
    assert '<th scope="col"><i>h</i></th>' in out and "<b>safe</b>" in out
    assert '<td class="num">1,234,567</td>' in out and "<td>\u2014</td>" in out
    assert "<dd>" not in definition_list([("absent", None)])
    assert relative("a/b/c.html", "a/x.html") == "../x.html"


def test_an_input_no_benchmark_claims_is_one_clear_error(tmp_path: Path) -> None:
    stray = tmp_path / "holiday-photos"
    stray.mkdir()
    with pytest.raises(SiteError, match=r"no benchmark builds pages from .*holiday-photos"):
        build_site(tmp_path / "out", [stray])
    with pytest.raises(SiteError, match="does not exist"):
        build_site(tmp_path / "out", [tmp_path / "missing"])
    assert not (tmp_path / "out").exists()


def test_without_shipped_results_the_command_says_to_pass_run_directories(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(site_cli, "RESULTS", tmp_path / "docs" / "results")
    assert cli.main(["site", "--output", str(tmp_path / "out")]) == 2
    assert "pass run directories" in capsys.readouterr().err


def test_the_command_builds_and_says_how_to_open_it(
    tetris_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "dist"
    assert cli.main(["site", "--output", str(out), str(tetris_run)]) == 0
    said = capsys.readouterr().out
    assert f"open {out / 'index.html'}" in said and "http.server" in said
    assert (out / "tetris" / "index.html").is_file()


def test_the_same_inputs_give_a_byte_identical_site(tetris_run: Path, tmp_path: Path) -> None:
    def files(root: Path) -> dict[str, bytes]:
        return {
            p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()
        }

    build_site(tmp_path / "a", [tetris_run])
    build_site(tmp_path / "b", [tetris_run])
    first, second = files(tmp_path / "a"), files(tmp_path / "b")
    assert first.keys() == second.keys() and len(first) > 10
    assert [k for k in first if first[k] != second[k]] == []
    build_site(tmp_path / "a", [tetris_run])  # rebuilt in place over the earlier site
    assert files(tmp_path / "a") == first


def test_a_replay_whose_log_does_not_verify_is_refused(tetris_run: Path, tmp_path: Path) -> None:
    copy = tmp_path / "run"
    shutil.copytree(tetris_run, copy)
    log = copy / "logs" / "heuristic" / "IQ" / "seed-01.jsonl"
    flip_one_answer(log)
    with pytest.raises(SiteError, match=r"cannot replay .*seed-01\.jsonl.*does not verify"):
        build_site(tmp_path / "out", [copy])
    assert not (tmp_path / "out").exists()


def test_a_replay_page_loads_the_kit_before_its_viewer_and_inlines_its_data(
    tetris_run: Path, tmp_path: Path
) -> None:
    site = SiteBuild(tmp_path / "site")
    site.section("demo", "Demo", Markup("<p>demo</p>"))
    log = tetris_run / "logs" / "heuristic" / "IQ" / "seed-01.jsonl"
    page = site.replay("demo/r.html", "R", log, "tetris", data={"note": "</script>"})
    text = site.files()[page].decode("utf-8")
    scripts = re.findall(r'<script src="\.\./assets/([^"]+)"', text)
    assert scripts == ["inflate.js", "replay.js", "viewer-kit.js", "viewers/tetris.js"]
    data = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', text)
    assert data is not None and json.loads(data[1]) == {"note": "</script>"}
    replay = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', text)
    assert replay is not None
    compact = json.loads(replay[1])
    assert compact["frameEncoding"] == ENCODING and isinstance(compact["frames"], str)
    exported = export_replay(log).to_json()
    frames = expand_replay(compact)["frames"]
    assert frames == [{k: v for k, v in f.items() if k != "answer"} for f in exported["frames"]]
    bare = site.replay("demo/s.html", "S", log, "tetris")
    assert "page-data" not in site.files()[bare].decode("utf-8")


def test_a_built_file_that_is_a_link_is_replaced_not_written_through(tmp_path: Path) -> None:
    from evaluation.site.build import SiteBuild

    outside = tmp_path / "outside.html"
    outside.write_text("keep")
    site = tmp_path / "site"
    build = SiteBuild(site)
    build.page("demo/a.html", "A", "hello")
    build.finish()
    (site / "demo" / "a.html").unlink()
    (site / "demo" / "a.html").symlink_to(outside)
    build = SiteBuild(site)
    build.page("demo/a.html", "A", "again")
    build.finish()
    assert outside.read_text() == "keep"
    assert (
        not (site / "demo" / "a.html").is_symlink()
        and "again" in (site / "demo" / "a.html").read_text()
    )


def test_a_build_replaying_games_says_how_many_it_has_done(
    tetris_run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(site_build, "PROGRESS_EVERY_S", 0.0)
    said: list[str] = []
    build_site(tmp_path / "out", [tetris_run], progress=said.append)
    counts = [line for line in said if line.startswith("site: games replayed and checked")]
    assert counts and counts[0] == "site: games replayed and checked so far: 1"
    assert len(counts) == len(list((tetris_run / "logs").rglob("*.jsonl")))


def test_plain_json_takes_every_kind_of_value_to_plain_json() -> None:
    import enum

    import numpy as np

    class Colour(enum.IntEnum):
        RED = 3

    class Name(str):
        pass

    value = {
        "floats": [1.5, float("nan"), float("inf"), -0.0, np.float32(0.5)],
        "ints": [True, 7, np.int64(9), Colour.RED, np.bool_(True)],
        "texts": [Name("n"), "é", None],
        "tuple": (1, (2, 3)),
        "set": {3, 1},
        "path": Path("a/b"),
        "array": np.array([[1, 2]]),
        4: {"nested": [{"x": 1}]},
    }
    assert site_build.plain_json(value) == {
        "floats": [1.5, None, None, -0.0, 0.5],
        "ints": [True, 7, 9, 3, True],
        "texts": ["n", "é", None],
        "tuple": [1, [2, 3]],
        "set": [1, 3],
        "path": "a/b",
        "array": [[1, 2]],
        "4": {"nested": [{"x": 1}]},
    }
    out = site_build.plain_json(value)
    assert type(out["ints"][0]) is bool and type(out["ints"][3]) is int
    assert type(out["ints"][4]) is bool and type(out["texts"][0]) is Name

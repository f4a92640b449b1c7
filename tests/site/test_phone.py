"""Every page of the site on a 390 px phone and on a 1280 px desktop, in headless Chromium.

The site is the one `arcade-eval site` builds from the shipped results (every benchmark, every
page type) plus the small Tetris Bench run the other site tests build. On each page: nothing is
wider than the screen (`scrollWidth`), every plot's text (title, labels, ticks) lies inside its
SVG and is drawn at least `MIN_FONT_PX` tall, a plot is never drawn larger than its own size, and
a table that scrolls sideways has its scroll cue (the edge shadows) and a sticky first column.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from evaluation.site.plots import MIN_FONT_PX
from tests.site.conftest import file_url

pytestmark = pytest.mark.slow

CHECKS = """
const width = document.documentElement.clientWidth;
const out = {scrollWidth: document.documentElement.scrollWidth, width: width, problems: []};
const say = (text) => out.problems.push(text);
for (const svg of document.querySelectorAll('.plot-box > svg.plot')) {
  const box = svg.getBoundingClientRect();
  if (box.width === 0) continue;  // the drawing for the other screen size
  const scale = box.width / svg.viewBox.baseVal.width;
  if (scale > 1.0001 && !svg.classList.contains('plot-narrow')) {
    say('wide plot enlarged x' + scale.toFixed(2) + ': ' + svg.getAttribute('aria-label'));
  }
  if (!svg.querySelector('text.plot-title')) say('plot without a title text');
  for (const text of svg.querySelectorAll('text')) {
    const r = text.getBoundingClientRect();
    const px = parseFloat(getComputedStyle(text).fontSize) * scale;
    const name = JSON.stringify(text.textContent.slice(0, 60));
    if (r.left < box.left - 0.5 || r.right > box.right + 0.5
        || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5) {
      say('text outside its plot: ' + name);
    }
    if (px < MIN_FONT - 0.01) say('text ' + px.toFixed(1) + ' px: ' + name);
  }
}
for (const wrap of document.querySelectorAll('.table-wrap')) {
  if (wrap.scrollWidth <= wrap.clientWidth + 1) continue;
  if (!getComputedStyle(wrap).backgroundImage.includes('gradient')) say('table scrolls, no cue');
  const first = wrap.querySelector('tr > :first-child');
  if (first && getComputedStyle(first).position !== 'sticky') say('first column not sticky');
}
return out;
""".replace("MIN_FONT", str(MIN_FONT_PX))


@pytest.fixture(scope="module")
def every_page(tetris_site: Path, shipped_site: Path) -> list[Path]:
    """Every page of the shipped site and of the small Tetris run's site."""
    pages = sorted(shipped_site.rglob("*.html")) + sorted(tetris_site.rglob("*.html"))
    assert len(pages) > 100
    return pages


@pytest.fixture
def screen(browser: Any) -> Iterator[Any]:
    """The browser, its screen emulated by `screen.size(width)` and restored afterwards."""

    def size(width: int) -> None:
        browser.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": 844, "deviceScaleFactor": 1, "mobile": width < 800},
        )

    browser.size = size
    try:
        yield browser
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


@pytest.mark.parametrize("width", [390, 1280])
def test_no_page_is_wider_than_the_screen_and_no_plot_text_is_clipped_or_tiny(
    screen: Any, every_page: list[Path], width: int, screenshot: Any
) -> None:
    screen.size(width)
    failures = []
    for page in every_page:
        screen.get(file_url(page))
        result = screen.execute_script(CHECKS)
        shown = result["width"]  # the screen less a desktop's vertical scroll bar
        assert width - 20 <= shown <= width
        problems = list(result["problems"])
        if result["scrollWidth"] > shown:
            problems.append(f"page is {result['scrollWidth']} px wide in {shown} px")
        if problems:
            failures.append(f"{page.name} ({page.parent}): " + "; ".join(problems[:5]))
            if len(failures) == 1:
                screenshot(screen, f"phone-{width}-{page.stem}")
    assert not failures, f"{len(failures)} page(s) at {width} px:\n" + "\n".join(failures[:20])


def test_a_wide_table_scrolls_in_its_wrapper_with_the_first_column_kept(
    screen: Any, tetris_site: Path
) -> None:
    """The leaderboard is wider than a phone: it scrolls sideways inside its wrapper (not the
    page), and the first column stays where it was."""
    screen.size(390)
    screen.get(file_url(tetris_site / "tetris" / "index.html"))
    moved = screen.execute_script(
        """
        const wrap = document.querySelector('.table-wrap');
        const first = wrap.querySelector('tbody tr > :first-child');
        const second = wrap.querySelector('tbody tr > :nth-child(2)');
        const before = [first.getBoundingClientRect().left, second.getBoundingClientRect().left];
        wrap.scrollLeft = 200;
        const after = [first.getBoundingClientRect().left, second.getBoundingClientRect().left];
        return {scrolls: wrap.scrollWidth > wrap.clientWidth, before: before, after: after,
                page: document.documentElement.scrollWidth};
        """
    )
    assert moved["scrolls"] and moved["page"] <= 390
    assert moved["after"][0] == pytest.approx(moved["before"][0], abs=0.5)
    assert moved["after"][1] < moved["before"][1] - 50

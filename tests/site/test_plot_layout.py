"""The plots' two drawings: the wide one at its own size, the narrow one with type that stays at
least `MIN_FONT_PX` on a 390 px phone; titles wrap and long labels shorten instead of clipping.
(The browser check of every built page is `test_phone.py`.)"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from evaluation.site.plot_text import fit, text_width, wrap
from evaluation.site.plots import (
    MIN_FONT_PX,
    NARROW_WIDTH,
    calibration_plot,
    interval_plot,
    line_plot,
    strip_plot,
)

NS = "{http://www.w3.org/2000/svg}"
PHONE_PLOT_PX = 358
"""How wide a plot is shown on a 390 px screen (the page's padding is 1rem a side)."""

LONG_TITLE = "Reference run: random and heuristic, lockstep, every game of the suite per seed"
LONG_NAME = "Beam search with back-to-back tetris bonus and a long description (search-b2b)"


def drawings(markup: str) -> tuple[ET.Element, ET.Element]:
    wide, narrow = list(ET.fromstring(markup))
    return wide, narrow


def view_width(svg: ET.Element) -> float:
    return float(svg.get("viewBox", "0 0 0 0").split()[2])


def test_the_wide_drawing_has_its_own_size_and_the_narrow_one_phone_sized_type() -> None:
    for markup in (
        strip_plot({"a": [1.0, 2.0], LONG_NAME: [3.0]}, title=LONG_TITLE),
        interval_plot([("a", 1.0, 2.0, 3.0)], title=LONG_TITLE),
        calibration_plot([(0.2, 0.1, 5)], title=LONG_TITLE, width=420),
        line_plot({"a": [(0, 1), (5, 2)], "b": [(0, 3)]}, title=LONG_TITLE),
    ):
        wide, narrow = drawings(markup)
        assert wide.get("width") == str(int(view_width(wide)))
        assert narrow.get("width") is None and view_width(narrow) <= NARROW_WIDTH
        scale = PHONE_PLOT_PX / view_width(narrow)
        sizes = [float(t.get("font-size", "0")) for t in narrow.iter(f"{NS}text")]
        assert sizes and min(sizes) * scale >= MIN_FONT_PX
        assert min(float(t.get("font-size", "0")) for t in wide.iter(f"{NS}text")) >= MIN_FONT_PX


def test_a_long_title_wraps_to_lines_that_fit_and_the_plot_grows_for_them() -> None:
    _, short = drawings(strip_plot({"a": [1.0]}, title="Short"))
    _, narrow = drawings(strip_plot({"a": [1.0]}, title=LONG_TITLE))
    title = next(t for t in narrow.iter(f"{NS}text") if t.get("class") == "plot-title")
    lines = [span.text or "" for span in title.iter(f"{NS}tspan")]
    assert len(lines) >= 2 and " ".join(lines) == LONG_TITLE
    size = float(title.get("font-size", "0"))
    assert all(text_width(line, size, bold=True) <= NARROW_WIDTH - 16 for line in lines)
    ys = [float(span.get("y", "0")) for span in title.iter(f"{NS}tspan")]
    assert ys == sorted(ys) and len(set(ys)) == len(ys)
    grown = float(narrow.get("viewBox", "").split()[3]) - float(short.get("viewBox", "").split()[3])
    assert grown == ys[-1] - ys[0]


def test_a_long_row_label_is_shortened_and_keeps_its_full_name_as_a_tooltip() -> None:
    _, narrow = drawings(strip_plot({LONG_NAME: [1.0], "b": [2.0]}))
    shown = [t for t in narrow.iter(f"{NS}text") if t.find(f"{NS}title") is not None]
    assert len(shown) == 1
    assert shown[0].findtext(f"{NS}title") == LONG_NAME
    text = "".join(shown[0].itertext()).removeprefix(LONG_NAME)
    assert text.endswith("\u2026") and LONG_NAME.startswith(text[:-1])
    labels = [t.text for t in narrow.iter(f"{NS}text") if t.text == "b"]
    assert labels == ["b"]  # a short label is left as it is, without a tooltip


def test_fit_and_wrap_keep_text_that_fits_and_shorten_what_does_not() -> None:
    assert fit("abc", 12, 100) == "abc"
    assert fit("a" * 50, 12, 100).endswith("\u2026")
    assert text_width(fit("a" * 50, 12, 100), 12) <= 100
    assert wrap("one two three", 12, 1000) == ["one two three"]
    assert len(wrap("word " * 40, 12, 100, lines=3)) == 3

"""SVG plots: well-formed XML, titled and labelled, deterministic, robust to odd data."""

from __future__ import annotations

import itertools
import math
import xml.etree.ElementTree as ET

import pytest

from evaluation.site.plots import (
    calibration_bins,
    calibration_plot,
    interval_plot,
    line_plot,
    nice_ticks,
    strip_plot,
)

NS = "{http://www.w3.org/2000/svg}"

PLOTS = {
    "strip": lambda: strip_plot(
        {"heuristic": [280_000, 275_500.5, 290_001], "random <&>": [408, 512]},
        title="Score per seed",
        point_labels={"heuristic": ["seed-01", "seed-02", "seed-03"]},
    ),
    "interval": lambda: interval_plot(
        [("a", 1400.0, 1500.0, 1600.0), ("b", 1300.0, 1350.0, 1420.0)], title="Elo"
    ),
    "calibration": lambda: calibration_plot([(0.1, 0.05, 40), (0.5, 0.6, 10), (0.9, 0.85, 3)]),
    "line": lambda: line_plot(
        {"score": [(0, 0), (1, 10), (2, 35)], "level": [(0, 1), (2, 2)]},
        title="Over time",
        x_label="decision",
        y_label="value",
    ),
}


@pytest.mark.parametrize("name", sorted(PLOTS))
def test_each_plot_is_valid_svg_with_a_title_and_axis_labels(name: str) -> None:
    box = ET.fromstring(PLOTS[name]())
    assert box.tag == "div" and box.get("class") == "plot-box"
    drawings = list(box)
    assert [d.get("class") for d in drawings] == ["plot", "plot plot-narrow"]
    for root in drawings:
        assert root.tag == f"{NS}svg" and root.get("role") == "img"
        assert root.findtext(f"{NS}title")
        labels = [t.text for t in root.iter(f"{NS}text") if t.get("class") == "axis-label"]
        assert labels and all(labels)
        marks = [e for e in root.iter() if e.tag in (f"{NS}circle", f"{NS}polyline")]
        assert marks and all(m.find(f"{NS}title") is not None for m in marks)


@pytest.mark.parametrize("name", sorted(PLOTS))
def test_each_plot_is_deterministic(name: str) -> None:
    assert PLOTS[name]() == PLOTS[name]()


def test_labels_are_escaped_and_values_shown_exactly() -> None:
    svg = PLOTS["strip"]()
    root = ET.fromstring(svg)
    assert "random <&>" in [t.text for t in root.iter(f"{NS}text")]
    tips = [t.text for c in root.iter(f"{NS}circle") for t in c.iter(f"{NS}title")]
    assert "heuristic seed-02: 275,500" in tips or "heuristic seed-02: 275,501" in tips


def test_strip_plot_places_each_group_on_its_own_row_in_order() -> None:
    root = ET.fromstring(strip_plot({"first": [1.0], "second": [2.0]}))
    by_group: dict[str, float] = {}
    for circle in root.iter(f"{NS}circle"):
        name = circle.findtext(f"{NS}title", "").split()[0]
        by_group[name] = float(circle.get("cy", "nan"))
    assert by_group["first"] < by_group["second"]


def test_empty_and_non_finite_data_give_a_no_data_plot_not_an_error() -> None:
    for svg in (
        strip_plot({}),
        strip_plot({"a": [math.nan]}),
        interval_plot([]),
        calibration_plot([]),
        line_plot({"a": []}),
    ):
        root = ET.fromstring(svg)
        assert "no data" in [t.text for t in root.iter(f"{NS}text")]
    svg = interval_plot([("a", math.nan, 1.0, math.inf), ("b", 0.0, 2.0, 3.0)])
    assert "nan" not in svg.lower() and "inf" not in svg.lower()
    ET.fromstring(svg)


def test_nice_ticks_cover_the_range_with_round_steps() -> None:
    ticks = nice_ticks(0, 287_946)
    assert ticks[0] <= 0 and ticks[-1] >= 287_946
    steps = {round(b - a, 6) for a, b in itertools.pairwise(ticks)}
    assert len(steps) == 1 and steps.pop() in (50_000, 100_000)
    assert nice_ticks(5, 5)[0] <= 5 <= nice_ticks(5, 5)[-1]
    assert nice_ticks(0.0, 1.0) == [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]


def test_calibration_bins_average_each_tenth_and_clamp_out_of_range_reports() -> None:
    reports = [(0.05, False), (0.15, True), (0.12, False), (1.0, True), (1.7, True), (-0.2, False)]
    assert calibration_bins(reports) == [
        (0.025, 0.0, 2),  # 0.05 and -0.2 clamped to 0
        (0.135, 0.5, 2),
        (1.0, 1.0, 2),  # 1.0 falls in the last bin, 1.7 clamped to it
    ]
    assert calibration_bins([]) == []

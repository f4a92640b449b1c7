"""Plots as hand-written SVG markup: no chart library, no script, the same bytes for the same data.

Every plot has a `<title>` (read by screen readers and shown as a tooltip), labelled axes, and a
`<title>` on each mark giving its exact value. A scaled SVG scales its text too, so one drawing
cannot be right on a desktop and a phone: each plot is drawn twice in one `div.plot-box`, at the
caller's width (shown at its own size, never enlarged) and at `NARROW_WIDTH` with larger type
and fewer ticks (shown below 48rem, `assets/site.css`), so no text is drawn under `MIN_FONT_PX`
on a 390 px screen. Text is measured with a generous glyph width (`plot_text.text_width`) and
wrapped or shortened to its room (a shortened label keeps its full text as a tooltip), so titles
and labels are never clipped.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from evaluation.site.html import Markup, esc
from evaluation.site.plot_text import fit, text_width, wrap

PALETTE = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#f0e442", "#000000")
"""Okabe-Ito colours: distinguishable with the common colour-vision deficiencies."""

MIN_FONT_PX = 11
"""The smallest text a plot draws, in CSS pixels, on a 390 px wide screen."""
NARROW_WIDTH = 340
"""The phone drawing's width: shown about 358 px wide on a 390 px screen (scale >= 1)."""

_MARGIN_LEFT = 64
_MARGIN_RIGHT = 36
_MARGIN_TOP = 34
_MARGIN_BOTTOM = 46


@dataclass(frozen=True)
class _Layout:
    """One drawing's width, font sizes (viewBox units) and tick density."""

    width: int
    tick: int
    text: int
    title: int
    ticks: int
    label_cap: int
    narrow: bool


def _layouts(width: int) -> tuple[_Layout, _Layout]:
    wide = _Layout(width, MIN_FONT_PX, 12, 14, 5, 220, False)
    small = min(width, NARROW_WIDTH)
    return wide, _Layout(small, 12, 13, 15, 3, int(small * 0.38), True)


def _box(width: int, draw: Callable[[_Layout], Markup]) -> Markup:
    """The wide and the narrow drawing of one plot, in the box the style sheet switches."""
    wide, narrow = _layouts(width)
    return Markup(f'<div class="plot-box">{draw(wide)}{draw(narrow)}</div>')


def num(value: float) -> str:
    """A coordinate or label without float noise (at most 2 decimals, no trailing zeros)."""
    if not math.isfinite(value):
        return "0"
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def label(value: float) -> str:
    """An axis tick label: thousands separators for large values, up to 3 significant decimals;
    a dash for a missing (non-finite) value."""
    if not math.isfinite(value):
        return "\u2014"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    if value == int(value):
        return str(int(value))
    return f"{value:.3g}"


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values covering [low, high] (about `count` of them)."""
    if not (math.isfinite(low) and math.isfinite(high)):
        return [0.0, 1.0]
    if high <= low:
        high = low + (abs(low) or 1.0)
    raw = (high - low) / max(count, 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    start = math.floor(low / step) * step
    ticks = []
    value = start
    while value < high + step * 0.999:
        ticks.append(round(value, 10))
        value += step
    return ticks


def _svg(layout: _Layout, height: int, title: str, body: list[str]) -> Markup:
    """The plot's SVG element; every text in `body` went through `esc`. The wide drawing has
    its own size (so it is never enlarged); the narrow one fills the phone's width."""
    width = layout.width
    if layout.narrow:
        head = 'class="plot plot-narrow"'
    else:
        head = f'class="plot" width="{width}" height="{height}"'
    return Markup(
        f'<svg xmlns="http://www.w3.org/2000/svg" {head} viewBox="0 0 {width} {height}" '
        f'role="img" aria-label="{esc(title)}"><title>{esc(title)}</title>'
        f'<rect class="plot-bg" x="0" y="0" width="{width}" height="{height}" fill="#fff"/>'
        + "".join(body)
        + "</svg>"
    )


def _empty(layout: _Layout, height: int, title: str) -> Markup:
    heading, _ = _heading(title, layout)
    return _svg(
        layout,
        height,
        title,
        [
            heading,
            f'<text x="{layout.width // 2}" y="{height // 2}" text-anchor="middle" '
            f'font-size="14" fill="#555">no data</text>',
        ],
    )


class _Axis:
    """A linear map from data values to pixels, with its ticks."""

    def __init__(self, low: float, high: float, start: float, end: float, count: int = 5) -> None:
        self.ticks = nice_ticks(low, high, count)
        self.low, self.high = self.ticks[0], self.ticks[-1]
        self.start, self.end = start, end

    def __call__(self, value: float) -> float:
        span = self.high - self.low or 1.0
        return self.start + (value - self.low) / span * (self.end - self.start)


def _right_margin(low: float, high: float, layout: _Layout) -> float:
    """Room right of the axis for half the last tick label (centred on its tick)."""
    last = label(nice_ticks(low, high, layout.ticks)[-1])
    return max(_MARGIN_RIGHT, text_width(last, layout.tick) / 2 + 4)


def _x_axis(axis: _Axis, y: float, top: float, text: str, layout: _Layout) -> list[str]:
    parts = [
        f'<line class="axis" x1="{num(axis.start)}" y1="{num(y)}" x2="{num(axis.end)}" '
        f'y2="{num(y)}" stroke="#333"/>'
    ]
    for tick in axis.ticks:
        x = num(axis(tick))
        parts.append(
            f'<line class="grid" x1="{x}" y1="{num(top)}" x2="{x}" y2="{num(y)}" stroke="#e3e3e3"/>'
        )
        parts.append(
            f'<text x="{x}" y="{num(y + layout.tick + 5)}" text-anchor="middle" '
            f'font-size="{layout.tick}" fill="#333">{esc(label(tick))}</text>'
        )
    parts.append(
        f'<text class="axis-label" x="{num(layout.width / 2)}" '
        f'y="{num(y + 36)}" text-anchor="middle" font-size="{layout.text}" fill="#111">'
        f"{esc(fit(text, layout.text, layout.width - 16))}</text>"
    )
    return parts


def _y_margin(axis: _Axis, layout: _Layout) -> float:
    """Room left of the y axis: the widest tick label, a gap and the rotated axis label."""
    widest = max(text_width(label(t), layout.tick) for t in axis.ticks)
    return max(_MARGIN_LEFT, widest + 8 + layout.text + 10)


def _y_axis(axis: _Axis, x: float, right: float, text: str, layout: _Layout) -> list[str]:
    parts = [
        f'<line class="axis" x1="{num(x)}" y1="{num(axis.start)}" x2="{num(x)}" '
        f'y2="{num(axis.end)}" stroke="#333"/>'
    ]
    for tick in axis.ticks:
        y = num(axis(tick))
        parts.append(
            f'<line class="grid" x1="{num(x)}" y1="{y}" x2="{num(right)}" y2="{y}" '
            f'stroke="#e3e3e3"/>'
        )
        parts.append(
            f'<text x="{num(x - 6)}" y="{y}" dy="{num(layout.tick * 0.35)}" text-anchor="end" '
            f'font-size="{layout.tick}" fill="#333">{esc(label(tick))}</text>'
        )
    middle = num((axis.start + axis.end) / 2)
    room = abs(axis.start - axis.end) + 20
    at = num(layout.text + 2)
    parts.append(
        f'<text class="axis-label" x="{at}" y="{middle}" text-anchor="middle" '
        f'font-size="{layout.text}" fill="#111" transform="rotate(-90 {at} {middle})">'
        f"{esc(fit(text, layout.text, room))}</text>"
    )
    return parts


def _heading(title: str, layout: _Layout) -> tuple[str, int]:
    """The title, wrapped to the plot's width; and how much taller than one line it is."""
    lines = wrap(title, layout.title, layout.width - 16, bold=True)
    step = round(layout.title * 1.3)
    spans = "".join(
        f'<tspan x="{layout.width // 2}" y="{20 + step * index}">{esc(line)}</tspan>'
        for index, line in enumerate(lines)
    )
    text = (
        f'<text class="plot-title" text-anchor="middle" font-size="{layout.title}" '
        f'font-weight="600" fill="#111">{spans}</text>'
    )
    return text, step * (len(lines) - 1)


def _label_margin(labels: Sequence[str], layout: _Layout) -> int:
    """A left margin wide enough for the row labels, at most the layout's cap."""
    longest = max((text_width(text, layout.text) for text in labels), default=0.0)
    return math.ceil(max(_MARGIN_LEFT, min(layout.label_cap, 16 + longest)))


def _row_label(name: str, x: float, y: str, layout: _Layout) -> str:
    """A row's label right-aligned at `x`, shortened to its room; the full name as a tooltip."""
    shown = fit(name, layout.text, x - 4)
    tip = f"<title>{esc(name)}</title>" if shown != name else ""
    return (
        f'<text x="{num(x)}" y="{y}" dy="4" text-anchor="end" font-size="{layout.text}" '
        f'fill="#111">{tip}{esc(shown)}</text>'
    )


def strip_plot(
    groups: Mapping[str, Sequence[float]],
    *,
    title: str = "Score per seed",
    x_label: str = "score",
    point_labels: Mapping[str, Sequence[str]] | None = None,
    width: int = 720,
) -> Markup:
    """One row per group, one dot per value (e.g. each seed's score) and a bar at the mean.
    Dots are spread vertically by a fixed pattern (not random), so the SVG is deterministic."""
    return _box(width, lambda layout: _strip(layout, groups, title, x_label, point_labels))


def _strip(
    layout: _Layout,
    groups: Mapping[str, Sequence[float]],
    title: str,
    x_label: str,
    point_labels: Mapping[str, Sequence[str]] | None,
) -> Markup:
    values = [v for vs in groups.values() for v in vs if math.isfinite(v)]
    heading, extra = _heading(title, layout)
    top = _MARGIN_TOP + extra
    band = 34
    height = top + _MARGIN_BOTTOM + band * max(len(groups), 1)
    if not values:
        return _empty(layout, height, title)
    left = _label_margin(list(groups), layout)
    low, high = min(min(values), 0.0), max(values)
    right = layout.width - _right_margin(low, high, layout)
    axis = _Axis(low, high, left, right, layout.ticks)
    bottom = height - _MARGIN_BOTTOM
    body = [heading, *_x_axis(axis, bottom, top, x_label, layout)]
    for row, (name, scores) in enumerate(groups.items()):
        centre = top + band * row + band / 2
        colour = PALETTE[row % len(PALETTE)]
        body.append(_row_label(name, left - 8, num(centre), layout))
        names = list((point_labels or {}).get(name, ()))
        finite = [s for s in scores if math.isfinite(s)]
        for index, score in enumerate(scores):
            if not math.isfinite(score):
                continue
            offset = ((index * 0.618034) % 1.0 - 0.5) * (band - 12)
            tip = f"{names[index]}: {label(score)}" if index < len(names) else label(score)
            body.append(
                f'<circle cx="{num(axis(score))}" cy="{num(centre + offset)}" r="3.5" '
                f'fill="{colour}" fill-opacity="0.7"><title>{esc(name)} '
                f"{esc(tip)}</title></circle>"
            )
        if finite:
            mean = sum(finite) / len(finite)
            x = num(axis(mean))
            body.append(
                f'<line class="mean" x1="{x}" y1="{num(centre - band / 2 + 3)}" x2="{x}" '
                f'y2="{num(centre + band / 2 - 3)}" stroke="#111" stroke-width="2">'
                f"<title>{esc(name)} mean {esc(label(mean))}</title></line>"
            )
    return _svg(layout, height, title, body)


def interval_plot(
    rows: Sequence[tuple[str, float, float, float]],
    *,
    title: str = "Intervals",
    x_label: str = "value",
    width: int = 720,
) -> Markup:
    """One row per (label, low, mid, high): a line from low to high with a dot at mid, e.g. a
    score with its confidence interval or a rating with its interval."""
    return _box(width, lambda layout: _interval(layout, rows, title, x_label))


def _interval(
    layout: _Layout, rows: Sequence[tuple[str, float, float, float]], title: str, x_label: str
) -> Markup:
    finite = [v for _, lo, mid, hi in rows for v in (lo, mid, hi) if math.isfinite(v)]
    heading, extra = _heading(title, layout)
    top = _MARGIN_TOP + extra
    band = 28
    height = top + _MARGIN_BOTTOM + band * max(len(rows), 1)
    if not finite:
        return _empty(layout, height, title)
    left = _label_margin([r[0] for r in rows], layout)
    right = layout.width - _right_margin(min(finite), max(finite), layout)
    axis = _Axis(min(finite), max(finite), left, right, layout.ticks)
    bottom = height - _MARGIN_BOTTOM
    body = [heading, *_x_axis(axis, bottom, top, x_label, layout)]
    for index, (name, low, mid, high) in enumerate(rows):
        centre = num(top + band * index + band / 2)
        colour = PALETTE[index % len(PALETTE)]
        tip = f"{name}: {label(mid)} [{label(low)}, {label(high)}]"
        body.append(_row_label(name, left - 8, centre, layout))
        body.append(f'<g class="interval"><title>{esc(tip)}</title>')
        if math.isfinite(low) and math.isfinite(high):
            body.append(
                f'<line x1="{num(axis(low))}" y1="{centre}" x2="{num(axis(high))}" '
                f'y2="{centre}" stroke="{colour}" stroke-width="3"/>'
            )
        if math.isfinite(mid):
            body.append(
                f'<circle cx="{num(axis(mid))}" cy="{centre}" r="5" fill="{colour}">'
                f"<title>{esc(tip)}</title></circle>"
            )
        body.append("</g>")
    return _svg(layout, height, title, body)


def calibration_bins(
    reports: Iterable[tuple[float, bool]], bins: int = 10
) -> list[tuple[float, float, int]]:
    """Reported probabilities binned in `bins` equal slices of [0, 1]: (mean probability, share
    that happened, reports) per non-empty bin, the points of `calibration_plot`."""
    grouped: dict[int, list[tuple[float, bool]]] = {}
    for probability, happened in reports:
        p = min(max(float(probability), 0.0), 1.0)
        grouped.setdefault(min(int(p * bins), bins - 1), []).append((p, bool(happened)))
    return [
        (sum(p for p, _ in items) / len(items), sum(h for _, h in items) / len(items), len(items))
        for _, items in sorted(grouped.items())
    ]


def calibration_plot(
    points: Sequence[tuple[float, float, int]],
    *,
    title: str = "Calibration",
    x_label: str = "predicted probability",
    y_label: str = "observed frequency",
    width: int = 420,
) -> Markup:
    """Reliability diagram: one dot per bin at (predicted, observed), area growing with the bin's
    count n, against the diagonal of perfect calibration."""
    return _box(width, lambda layout: _calibration(layout, points, title, x_label, y_label))


def _calibration(
    layout: _Layout,
    points: Sequence[tuple[float, float, int]],
    title: str,
    x_label: str,
    y_label: str,
) -> Markup:
    heading, extra = _heading(title, layout)
    top = _MARGIN_TOP + extra
    width = layout.width
    height = width + extra
    if not points:
        return _empty(layout, height, title)
    y_axis = _Axis(0.0, 1.0, height - _MARGIN_BOTTOM, top, layout.ticks)
    left = _y_margin(y_axis, layout)
    x_axis = _Axis(0.0, 1.0, left, width - _MARGIN_RIGHT, layout.ticks)
    body = [
        heading,
        *_x_axis(x_axis, height - _MARGIN_BOTTOM, top, x_label, layout),
        *_y_axis(y_axis, left, width - _MARGIN_RIGHT, y_label, layout),
        f'<line class="diagonal" x1="{num(x_axis(0))}" y1="{num(y_axis(0))}" '
        f'x2="{num(x_axis(1))}" y2="{num(y_axis(1))}" stroke="#888" stroke-dasharray="4 4"/>',
    ]
    biggest = max((n for _, _, n in points), default=1) or 1
    for predicted, observed, count in points:
        radius = 3 + 9 * math.sqrt(max(count, 0) / biggest)
        tip = f"predicted {predicted:.2f}, observed {observed:.2f}, n = {count}"
        body.append(
            f'<circle cx="{num(x_axis(predicted))}" cy="{num(y_axis(observed))}" '
            f'r="{num(radius)}" fill="{PALETTE[0]}" fill-opacity="0.6" stroke="#003a5c">'
            f"<title>{esc(tip)}</title></circle>"
        )
    return _svg(layout, height, title, body)


def line_plot(
    series: Mapping[str, Sequence[tuple[float, float]]],
    *,
    title: str = "Line plot",
    x_label: str = "x",
    y_label: str = "y",
    width: int = 720,
    height: int = 300,
) -> Markup:
    """One polyline per named series, with a legend when there is more than one."""
    return _box(width, lambda layout: _line(layout, series, title, x_label, y_label, height))


def _legend(
    names: Sequence[str], left: float, top: float, layout: _Layout
) -> tuple[list[str], int]:
    """Legend entries flowed into rows from `top`; and the height the rows take."""
    parts: list[str] = []
    x, row = left, 0
    for index, name in enumerate(names):
        shown = fit(name, layout.text, layout.width - left - 28)
        size = 20 + text_width(shown, layout.text) + 14
        if x > left and x + size > layout.width - 8:
            x, row = left, row + 1
        y = top + 18 * row
        parts.append(
            f'<rect x="{num(x)}" y="{num(y - 2)}" width="14" height="4" '
            f'fill="{PALETTE[index % len(PALETTE)]}"/><text x="{num(x + 20)}" y="{num(y + 3)}" '
            f'font-size="{layout.text}" fill="#111">{esc(shown)}</text>'
        )
        x += size
    return parts, 18 * (row + 1) + 4


def _line(
    layout: _Layout,
    series: Mapping[str, Sequence[tuple[float, float]]],
    title: str,
    x_label: str,
    y_label: str,
    height: int,
) -> Markup:
    xs = [x for pts in series.values() for x, _ in pts if math.isfinite(x)]
    ys = [y for pts in series.values() for _, y in pts if math.isfinite(y)]
    heading, extra = _heading(title, layout)
    top = _MARGIN_TOP + extra
    height += extra
    if not xs or not ys:
        return _empty(layout, height, title)
    width = layout.width
    probe = _Axis(min(min(ys), 0.0), max(ys), 0, 1, layout.ticks)
    left = _y_margin(probe, layout)
    legend: list[str] = []
    legend_height = 0
    if len(series) > 1:
        legend, legend_height = _legend(list(series), left, top, layout)
        height += legend_height
    right = width - _right_margin(min(xs), max(xs), layout)
    x_axis = _Axis(min(xs), max(xs), left, right, layout.ticks)
    bottom = height - _MARGIN_BOTTOM
    y_axis = _Axis(probe.low, probe.high, bottom, top + legend_height, layout.ticks)
    body = [
        heading,
        *_x_axis(x_axis, bottom, top + legend_height, x_label, layout),
        *_y_axis(y_axis, left, right, y_label, layout),
        *legend,
    ]
    for index, (name, points) in enumerate(series.items()):
        colour = PALETTE[index % len(PALETTE)]
        coords = " ".join(
            f"{num(x_axis(x))},{num(y_axis(y))}"
            for x, y in points
            if math.isfinite(x) and math.isfinite(y)
        )
        body.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{coords}">'
            f"<title>{esc(name)}</title></polyline>"
        )
    return _svg(layout, height, title, body)

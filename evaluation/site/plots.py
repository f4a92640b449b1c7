"""Plots as hand-written SVG markup: no chart library, no script, the same bytes for the same data.

Every plot has a `<title>` (read by screen readers and shown as a tooltip), labelled axes, and a
`<title>` on each mark giving its exact value. Sizes are a viewBox, so plots scale with the page.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

from evaluation.site.html import Markup, esc

PALETTE = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#f0e442", "#000000")
"""Okabe-Ito colours: distinguishable with the common colour-vision deficiencies."""

_MARGIN_LEFT = 64
_MARGIN_RIGHT = 36
_MARGIN_TOP = 34
_MARGIN_BOTTOM = 46


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


def _svg(width: int, height: int, title: str, body: list[str]) -> Markup:
    """The plot's SVG element; every text in `body` went through `esc`."""
    return Markup(
        f'<svg xmlns="http://www.w3.org/2000/svg" class="plot" viewBox="0 0 {width} {height}" '
        f'role="img" aria-label="{esc(title)}"><title>{esc(title)}</title>'
        f'<rect class="plot-bg" x="0" y="0" width="{width}" height="{height}" fill="#fff"/>'
        + "".join(body)
        + "</svg>"
    )


def _empty(width: int, height: int, title: str) -> Markup:
    return _svg(
        width,
        height,
        title,
        [
            f'<text x="{width // 2}" y="{height // 2}" text-anchor="middle" '
            f'font-size="14" fill="#555">no data</text>'
        ],
    )


class _Axis:
    """A linear map from data values to pixels, with its ticks."""

    def __init__(self, low: float, high: float, start: float, end: float) -> None:
        self.ticks = nice_ticks(low, high)
        self.low, self.high = self.ticks[0], self.ticks[-1]
        self.start, self.end = start, end

    def __call__(self, value: float) -> float:
        span = self.high - self.low or 1.0
        return self.start + (value - self.low) / span * (self.end - self.start)


def _x_axis(axis: _Axis, y: float, top: float, text: str) -> list[str]:
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
            f'<text x="{x}" y="{num(y + 16)}" text-anchor="middle" font-size="11" '
            f'fill="#333">{esc(label(tick))}</text>'
        )
    parts.append(
        f'<text class="axis-label" x="{num((axis.start + axis.end) / 2)}" '
        f'y="{num(y + 36)}" text-anchor="middle" font-size="12" fill="#111">'
        f"{esc(text)}</text>"
    )
    return parts


def _y_axis(axis: _Axis, x: float, right: float, text: str) -> list[str]:
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
            f'<text x="{num(x - 6)}" y="{y}" dy="4" text-anchor="end" font-size="11" '
            f'fill="#333">{esc(label(tick))}</text>'
        )
    middle = num((axis.start + axis.end) / 2)
    parts.append(
        f'<text class="axis-label" x="14" y="{middle}" text-anchor="middle" '
        f'font-size="12" fill="#111" transform="rotate(-90 14 {middle})">'
        f"{esc(text)}</text>"
    )
    return parts


def _heading(title: str, width: int) -> str:
    return (
        f'<text class="plot-title" x="{width // 2}" y="20" text-anchor="middle" '
        f'font-size="14" font-weight="600" fill="#111">{esc(title)}</text>'
    )


def _label_margin(labels: Sequence[str], left: int) -> int:
    """A left margin wide enough for the row labels (about 7 px a character, at most 220)."""
    longest = max((len(text) for text in labels), default=0)
    return max(left, min(220, 12 + 7 * longest))


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
    values = [v for vs in groups.values() for v in vs if math.isfinite(v)]
    band = 34
    height = _MARGIN_TOP + _MARGIN_BOTTOM + band * max(len(groups), 1)
    if not values:
        return _empty(width, height, title)
    left = _label_margin(list(groups), _MARGIN_LEFT)
    axis = _Axis(min(min(values), 0.0), max(values), left, width - _MARGIN_RIGHT)
    bottom = height - _MARGIN_BOTTOM
    body = [_heading(title, width), *_x_axis(axis, bottom, _MARGIN_TOP, x_label)]
    for row, (name, scores) in enumerate(groups.items()):
        centre = _MARGIN_TOP + band * row + band / 2
        colour = PALETTE[row % len(PALETTE)]
        body.append(
            f'<text x="{left - 8}" y="{num(centre)}" dy="4" text-anchor="end" '
            f'font-size="12" fill="#111">{esc(name)}</text>'
        )
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
    return _svg(width, height, title, body)


def interval_plot(
    rows: Sequence[tuple[str, float, float, float]],
    *,
    title: str = "Intervals",
    x_label: str = "value",
    width: int = 720,
) -> Markup:
    """One row per (label, low, mid, high): a line from low to high with a dot at mid, e.g. a
    score with its confidence interval or a rating with its interval."""
    finite = [v for _, lo, mid, hi in rows for v in (lo, mid, hi) if math.isfinite(v)]
    band = 28
    height = _MARGIN_TOP + _MARGIN_BOTTOM + band * max(len(rows), 1)
    if not finite:
        return _empty(width, height, title)
    left = _label_margin([r[0] for r in rows], _MARGIN_LEFT)
    axis = _Axis(min(finite), max(finite), left, width - _MARGIN_RIGHT)
    bottom = height - _MARGIN_BOTTOM
    body = [_heading(title, width), *_x_axis(axis, bottom, _MARGIN_TOP, x_label)]
    for index, (name, low, mid, high) in enumerate(rows):
        centre = num(_MARGIN_TOP + band * index + band / 2)
        colour = PALETTE[index % len(PALETTE)]
        tip = f"{name}: {label(mid)} [{label(low)}, {label(high)}]"
        body.append(
            f'<text x="{left - 8}" y="{centre}" dy="4" text-anchor="end" font-size="12" '
            f'fill="#111">{esc(name)}</text>'
        )
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
    return _svg(width, height, title, body)


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
    height = width
    if not points:
        return _empty(width, height, title)
    x_axis = _Axis(0.0, 1.0, _MARGIN_LEFT, width - _MARGIN_RIGHT)
    y_axis = _Axis(0.0, 1.0, height - _MARGIN_BOTTOM, _MARGIN_TOP)
    body = [
        _heading(title, width),
        *_x_axis(x_axis, height - _MARGIN_BOTTOM, _MARGIN_TOP, x_label),
        *_y_axis(y_axis, _MARGIN_LEFT, width - _MARGIN_RIGHT, y_label),
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
    return _svg(width, height, title, body)


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
    xs = [x for pts in series.values() for x, _ in pts if math.isfinite(x)]
    ys = [y for pts in series.values() for _, y in pts if math.isfinite(y)]
    if not xs or not ys:
        return _empty(width, height, title)
    legend = 22 if len(series) > 1 else 0
    x_axis = _Axis(min(xs), max(xs), _MARGIN_LEFT, width - _MARGIN_RIGHT)
    y_axis = _Axis(min(min(ys), 0.0), max(ys), height - _MARGIN_BOTTOM, _MARGIN_TOP + legend)
    body = [
        _heading(title, width),
        *_x_axis(x_axis, height - _MARGIN_BOTTOM, _MARGIN_TOP + legend, x_label),
        *_y_axis(y_axis, _MARGIN_LEFT, width - _MARGIN_RIGHT, y_label),
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
        if legend:
            x = _MARGIN_LEFT + 140 * index
            body.append(
                f'<rect x="{x}" y="{_MARGIN_TOP - 2}" width="14" height="4" '
                f'fill="{colour}"/><text x="{x + 20}" y="{_MARGIN_TOP + 3}" font-size="12" '
                f'fill="#111">{esc(name)}</text>'
            )
    return _svg(width, height, title, body)

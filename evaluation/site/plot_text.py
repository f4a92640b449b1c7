"""Text measuring for the SVG plots: Python has no font metrics, so a width is estimated from
the character count with a glyph width above the usual sans fonts', and text is wrapped or
shortened to its room by that estimate. Over-estimating only costs a little room; under-estimating
would clip a title, which `tests/site/test_phone.py` checks in a browser."""

from __future__ import annotations

__all__ = ["fit", "text_width", "wrap"]

_GLYPH_EM = 0.62
"""Average glyph width in em, above the common sans fonts' (DejaVu Sans, the widest, ~0.6)."""


def text_width(text: str, size: float, *, bold: bool = False) -> float:
    """An upper estimate of how wide `text` is drawn at font size `size` (no font metrics in
    Python; over-estimating only costs a little room)."""
    return len(text) * size * (_GLYPH_EM + (0.06 if bold else 0.0))


def fit(text: str, size: float, room: float, *, bold: bool = False) -> str:
    """`text`, shortened with an ellipsis to fit `room` at font size `size`."""
    if text_width(text, size, bold=bold) <= room:
        return text
    keep = max(int(room / text_width("x", size, bold=bold)) - 1, 1)
    return text[:keep].rstrip() + "\u2026"


def wrap(text: str, size: float, room: float, *, bold: bool = False, lines: int = 3) -> list[str]:
    """`text` in at most `lines` lines that fit `room` (words kept whole where they fit)."""
    out: list[str] = []
    for word in text.split():
        if out and text_width(f"{out[-1]} {word}", size, bold=bold) <= room:
            out[-1] = f"{out[-1]} {word}"
        else:
            out.append(word)
    if len(out) > lines:
        out = [*out[: lines - 1], " ".join(out[lines - 1 :])]
    return [fit(line, size, room, bold=bold) for line in out] or [""]

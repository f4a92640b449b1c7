"""Pictures of a Minesweeper board: the question's rows of characters, terminal text and RGB frames.

Pure functions over numpy arrays so the env, the harness and a replay viewer share them. `view` is
the visible board, int8 (rows, cols): -2 hidden, -1 flagged, 0..8 revealed counts. The optional
`field` (same shape, 9 = mine) is the hidden truth: pass it once a game is over to show the mines,
with `exploded` the (row, col) of the mine that ended it. The JSON frame the site's viewer draws is
`frame.py`'s.
"""

from __future__ import annotations

import numpy as np

from arcade_gym.minesweeper.rules import FLAG_CHAR, HIDDEN, HIDDEN_CHAR, MINE

MINE_CHAR, EXPLODED_CHAR = "*", "X"

_CHARS = np.array([HIDDEN_CHAR, FLAG_CHAR, *"012345678"])
"""Index `value + 2` -> the character of a visible cell."""


def _check_view(view: np.ndarray) -> np.ndarray:
    """Boards come from many callers; fail loudly on a shape or value that would draw nonsense."""
    view = np.asarray(view)
    if view.ndim != 2:
        raise ValueError(f"view must be 2-D (rows, cols), got shape {view.shape}")
    if view.size and (view.min() < HIDDEN or view.max() > 8):
        raise ValueError("view cells must be in -2..8 (-2 hidden, -1 flagged, 0..8 counts)")
    return view


_CODES = np.frombuffer("".join(_CHARS).encode("ascii"), np.uint8)


def board_rows(view: np.ndarray) -> list[str]:
    """One string per row: `#` hidden, `F` flagged, `0`-`8` revealed (the question's board)."""
    view = _check_view(view)
    cols = view.shape[1]
    text = _CODES[view.astype(np.intp) + 2].tobytes().decode("ascii")
    return [text[i : i + cols] for i in range(0, len(text), cols)] if cols else [""] * len(view)


def board_view(rows: list[str]) -> np.ndarray:
    """The int8 board (-2 hidden, -1 flagged, 0..8 revealed) that `board_rows` wrote as text: the
    question holds the board once, as text, and numeric readers decode it here."""
    lookup = {str(ch): value for value, ch in enumerate(_CHARS, start=-2)}
    try:
        return np.array([[lookup[ch] for ch in row] for row in rows], np.int8).reshape(
            len(rows), len(rows[0]) if rows else 0
        )
    except (KeyError, ValueError):
        raise ValueError(f"not a Minesweeper board: {rows!r}") from None


def _chars(
    view: np.ndarray, field: np.ndarray | None, exploded: tuple[int, int] | None
) -> np.ndarray:
    """Characters per cell, with the mines drawn in when the hidden field is given."""
    chars = _CHARS[view.astype(np.intp) + 2]
    if field is not None:
        field = np.asarray(field)
        if field.shape != view.shape:
            raise ValueError(f"field shape {field.shape} differs from view shape {view.shape}")
        chars[(field == MINE) & (view == HIDDEN)] = MINE_CHAR
    if exploded is not None:
        chars[exploded] = EXPLODED_CHAR
    return chars


def render_ansi(
    view: np.ndarray,
    field: np.ndarray | None = None,
    exploded: tuple[int, int] | None = None,
    *,
    header: str = "",
) -> str:
    """The board as text: numbered rows, a two-line column ruler (tens, units); mines as `*` and
    the exploded one as `X` when `field` / `exploded` are given."""
    view = _check_view(view)
    chars = _chars(view, field, exploded)
    cols = view.shape[1]
    lines = header.splitlines() if header else []
    if cols > 10:
        lines.append("   " + "".join(str(c // 10) if c % 10 == 0 else " " for c in range(cols)))
    lines.append("   " + "".join(str(c % 10) for c in range(cols)))
    lines += [f"{r:2d} {''.join(row)}" for r, row in enumerate(chars)]
    return "\n".join(lines)


# --- RGB --------------------------------------------------------------------------------------
HIDDEN_COLOUR = np.array((150, 152, 164), np.uint8)
OPEN_COLOUR = np.array((214, 214, 214), np.uint8)
EXPLODED_COLOUR = np.array((230, 60, 50), np.uint8)
GRID_LINE = np.array((96, 96, 108), np.uint8)
# Classic digit colours 1..8, then the flag and the mine glyphs.
INK = np.array(
    [
        (0, 0, 0),
        (0, 0, 230),
        (0, 128, 0),
        (220, 0, 0),
        (0, 0, 128),
        (128, 0, 0),
        (0, 128, 128),
        (0, 0, 0),
        (110, 110, 110),
    ],
    np.uint8,
)
FLAG_INK = np.array((220, 0, 0), np.uint8)
MINE_INK = np.array((0, 0, 0), np.uint8)

_FONT = {
    "1": ".#.|##.|.#.|.#.|###",
    "2": "##.|..#|.#.|#..|###",
    "3": "##.|..#|.#.|..#|##.",
    "4": "#.#|#.#|###|..#|..#",
    "5": "###|#..|##.|..#|##.",
    "6": ".##|#..|###|#.#|###",
    "7": "###|..#|.#.|.#.|.#.",
    "8": "###|#.#|###|#.#|###",
    "F": "##.|###|##.|#..|#..",
    "*": "#.#|.#.|###|.#.|#.#",
}
_GLYPHS = {
    k: np.array([[ch == "#" for ch in row] for row in v.split("|")]) for k, v in _FONT.items()
}


def _stamp(image: np.ndarray, r: int, c: int, glyph: str, ink: np.ndarray, cell_px: int) -> None:
    """Draw a 3x5 glyph, scaled to the cell, centred in cell (r, c)."""
    scale = (cell_px - 2) // 5
    if scale < 1:
        return
    bitmap = np.repeat(np.repeat(_GLYPHS[glyph], scale, axis=0), scale, axis=1)
    h, w = bitmap.shape
    top = r * cell_px + (cell_px - h + 1) // 2
    left = c * cell_px + (cell_px - w + 1) // 2
    region = image[top : top + h, left : left + w]
    region[bitmap] = ink


def render_rgb(
    view: np.ndarray,
    field: np.ndarray | None = None,
    exploded: tuple[int, int] | None = None,
    *,
    cell_px: int = 16,
) -> np.ndarray:
    """An RGB frame, uint8 (rows * cell_px, cols * cell_px, 3): raised grey hidden cells, light
    revealed ones with classic digit colours, red flags; mines (and a red exploded cell) when
    `field` is given."""
    view = _check_view(view)
    if cell_px < 1:
        raise ValueError(f"cell_px must be >= 1, got {cell_px}")
    rows, cols = view.shape
    chars = _chars(view, field, exploded)
    base = np.where((view >= 0)[..., None], OPEN_COLOUR, HIDDEN_COLOUR).astype(np.uint8)
    if exploded is not None:
        base[exploded] = EXPLODED_COLOUR
    image = np.repeat(np.repeat(base, cell_px, axis=0), cell_px, axis=1)
    if cell_px > 1:  # at 1 px per cell a grid line would erase the cell
        image[::cell_px, :] = GRID_LINE
        image[:, ::cell_px] = GRID_LINE
    for r in range(rows):
        for c in range(cols):
            ch = str(chars[r, c])
            if ch in "12345678":
                _stamp(image, r, c, ch, INK[int(ch)], cell_px)
            elif ch == FLAG_CHAR:
                _stamp(image, r, c, ch, FLAG_INK, cell_px)
            elif ch in (MINE_CHAR, EXPLODED_CHAR):
                _stamp(image, r, c, "*", MINE_INK, cell_px)
    return image

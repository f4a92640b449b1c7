"""Pictures of a Sudoku board: terminal text and RGB frames (givens dark, placed digits blue, a
placed digit that differs from the solution red); the JSON frame the site's viewer draws is
`frame.py`'s."""

from __future__ import annotations

import numpy as np

_FONT = {
    "1": ".#.|##.|.#.|.#.|###",
    "2": "##.|..#|.#.|#..|###",
    "3": "##.|..#|.#.|..#|##.",
    "4": "#.#|#.#|###|..#|..#",
    "5": "###|#..|##.|..#|##.",
    "6": ".##|#..|###|#.#|###",
    "7": "###|..#|.#.|.#.|.#.",
    "8": "###|#.#|###|#.#|###",
    "9": "###|#.#|###|..#|##.",
}
_GLYPHS = [np.zeros((5, 3), bool)] + [
    np.array([[ch == "#" for ch in row] for row in _FONT[str(d)].split("|")]) for d in range(1, 10)
]
PAPER = np.array((250, 250, 245), np.uint8)
GIVEN_INK = np.array((20, 20, 20), np.uint8)
PLACED_INK = np.array((30, 80, 200), np.uint8)
WRONG_INK = np.array((210, 40, 40), np.uint8)
LINE = np.array((60, 60, 60), np.uint8)


def render_ansi(board: np.ndarray, puzzle: np.ndarray, *, header: str = "") -> str:
    """Nine rows with box separators, `.` for blanks, then a line counting givens and placed
    digits."""
    b = np.asarray(board).reshape(9, 9)
    lines = header.splitlines() if header else []
    for r in range(9):
        if r and r % 3 == 0:
            lines.append("------+-------+------")
        cells = [str(int(d)) if d else "." for d in b[r]]
        lines.append(" | ".join(" ".join(cells[k : k + 3]) for k in (0, 3, 6)))
    placed = int(np.count_nonzero(b)) - int(np.count_nonzero(puzzle))
    lines.append(f"givens {int(np.count_nonzero(puzzle))}  placed {placed}")
    return "\n".join(lines)


def render_rgb(
    board: np.ndarray, puzzle: np.ndarray, solution: np.ndarray | None = None, cell_px: int = 24
) -> np.ndarray:
    """An (9 * cell_px + 4, same, 3) uint8 picture; thick lines between boxes."""
    b = np.asarray(board).reshape(9, 9)
    p = np.asarray(puzzle).reshape(9, 9)
    s = None if solution is None else np.asarray(solution).reshape(9, 9)
    size = 9 * cell_px + 4
    image = np.empty((size, size, 3), np.uint8)
    image[:] = PAPER
    for k in range(10):
        width = 2 if k % 3 == 0 else 1
        at = min(k * cell_px + (k // 3), size - width)
        image[at : at + width, :] = LINE
        image[:, at : at + width] = LINE
    scale = max(1, (cell_px - 6) // 5)
    for r in range(9):
        for c in range(9):
            d = int(b[r, c])
            if not d:
                continue
            ink = GIVEN_INK if p[r, c] else PLACED_INK
            if s is not None and not p[r, c] and d != s[r, c]:
                ink = WRONG_INK
            bitmap = np.repeat(np.repeat(_GLYPHS[d], scale, axis=0), scale, axis=1)
            h, w = bitmap.shape
            top = r * cell_px + r // 3 + 1 + (cell_px - h) // 2
            left = c * cell_px + c // 3 + 1 + (cell_px - w) // 2
            image[top : top + h, left : left + w][bitmap] = ink
    return image

"""Pictures of a k-in-a-row board: text for terminals and prompts, RGB frames for `rgb_array`.

Pure functions of an (n, n) int8 board (0 empty, 1 X, 2 O), shared by both envs and the arena;
the JSON frame the site's viewer draws is `frame.py`'s.
"""

from __future__ import annotations

import numpy as np

from arcade_gym.tictactoe.rules import MARKS, X

BACKGROUND = np.array((245, 240, 225), dtype=np.uint8)
GRID_LINE = np.array((60, 60, 60), dtype=np.uint8)
X_COLOUR = np.array((200, 40, 40), dtype=np.uint8)
O_COLOUR = np.array((40, 80, 200), dtype=np.uint8)


def render_ansi(board: np.ndarray, *, header: str = "") -> str:
    """The board as rows of `X` / `O` / `.` with row numbers and a column ruler."""
    board = np.asarray(board)
    n = board.shape[0]
    lines = header.splitlines() if header else []
    lines.append("   " + " ".join(str(c % 10) for c in range(n)))
    for r in range(n):
        lines.append(f"{r:2d} " + " ".join(MARKS[int(v)] for v in board[r]))
    return "\n".join(lines)


def _glyphs(cell_px: int) -> tuple[np.ndarray, np.ndarray]:
    """Boolean masks of a cross and a ring inside one cell (a margin of a sixth of a cell)."""
    y, x = np.mgrid[0:cell_px, 0:cell_px].astype(np.float64) + 0.5
    centre = cell_px / 2.0
    margin = cell_px / 6.0
    width = max(1.0, cell_px / 12.0)
    inside = (x > margin) & (x < cell_px - margin) & (y > margin) & (y < cell_px - margin)
    cross = inside & ((np.abs(x - y) < width) | (np.abs(x + y - cell_px) < width))
    radius = np.hypot(x - centre, y - centre)
    ring = np.abs(radius - (centre - margin)) < width
    return cross, ring


def render_rgb(board: np.ndarray, *, cell_px: int = 32) -> np.ndarray:
    """An RGB frame, uint8 (n * cell_px, n * cell_px, 3): red crosses, blue rings, grid lines."""
    board = np.asarray(board)
    if cell_px < 4:
        raise ValueError(f"cell_px must be >= 4, got {cell_px}")
    n = board.shape[0]
    image = np.empty((n * cell_px, n * cell_px, 3), np.uint8)
    image[:] = BACKGROUND
    cross, ring = _glyphs(cell_px)
    for r in range(n):
        for c in range(n):
            v = int(board[r, c])
            if v == 0:
                continue
            glyph, colour = (cross, X_COLOUR) if v == X else (ring, O_COLOUR)
            view = image[r * cell_px : (r + 1) * cell_px, c * cell_px : (c + 1) * cell_px]
            view[glyph] = colour
    image[::cell_px, :] = GRID_LINE
    image[:, ::cell_px] = GRID_LINE
    image[-1, :] = GRID_LINE
    image[:, -1] = GRID_LINE
    return image

"""Pictures of a Snake board: text for terminals and LLM prompts, RGB frames for `rgb_array`.

Pure functions of the board size, the snake (cells head first, `(row, col)`, row 0 at the top)
and the food, so the env, the harness and a replay viewer share them without a game object;
the JSON frame the site's viewer draws is `frame.py`'s.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

EMPTY_CHAR, BODY_CHAR, HEAD_CHAR, FOOD_CHAR = ".", "o", "@", "*"

BACKGROUND = np.array((18, 18, 24), dtype=np.uint8)
GRID_LINE = np.array((44, 44, 56), dtype=np.uint8)
BODY_COLOUR = np.array((40, 170, 70), dtype=np.uint8)
TAIL_COLOUR = np.array((25, 110, 45), dtype=np.uint8)
HEAD_COLOUR = np.array((170, 240, 120), dtype=np.uint8)
FOOD_COLOUR = np.array((230, 50, 50), dtype=np.uint8)

CellTuple = tuple[int, int]


def _check(rows: int, cols: int, snake: Sequence[CellTuple], food: CellTuple | None) -> None:
    """Fail loudly on a cell off the board rather than draw nonsense."""
    if rows < 1 or cols < 1:
        raise ValueError(f"board must be at least 1x1, got {rows}x{cols}")
    for row, col in [*snake, *([food] if food is not None else [])]:
        if not (0 <= row < rows and 0 <= col < cols):
            raise ValueError(f"cell ({row}, {col}) is off the {rows}x{cols} board")


def render_ansi(
    rows: int,
    cols: int,
    snake: Sequence[CellTuple],
    food: CellTuple | None,
    *,
    header: str = "",
) -> str:
    """The board as text: numbered rows, `@` head, `o` body, `*` food, `.` empty, a ruler."""
    _check(rows, cols, snake, food)
    chars = np.full((rows, cols), EMPTY_CHAR, dtype="<U1")
    for row, col in snake[1:]:
        chars[row, col] = BODY_CHAR
    if snake:
        chars[snake[0]] = HEAD_CHAR
    if food is not None:
        chars[food] = FOOD_CHAR
    lines = header.splitlines() if header else []
    lines += [f"{r:2d} {''.join(row)}" for r, row in enumerate(chars)]
    lines.append("   " + "".join(str(c % 10) for c in range(cols)))
    return "\n".join(lines)


def render_rgb(
    rows: int,
    cols: int,
    snake: Sequence[CellTuple],
    food: CellTuple | None,
    *,
    cell_px: int = 16,
) -> np.ndarray:
    """An RGB frame, uint8 (rows * cell_px, cols * cell_px, 3): a green snake with a light head
    and a dark tail, red food, on a dark background with 1 px grid lines."""
    _check(rows, cols, snake, food)
    if cell_px < 1:
        raise ValueError(f"cell_px must be >= 1, got {cell_px}")
    small = np.empty((rows, cols, 3), np.uint8)
    small[:, :] = BACKGROUND
    for row, col in snake:
        small[row, col] = BODY_COLOUR
    if snake:
        small[snake[-1]] = TAIL_COLOUR
        small[snake[0]] = HEAD_COLOUR
    if food is not None:
        small[food] = FOOD_COLOUR
    image = np.repeat(np.repeat(small, cell_px, axis=0), cell_px, axis=1)
    if cell_px > 1:  # at 1 px per cell a grid line would erase the cell
        image[::cell_px, :] = GRID_LINE
        image[:, ::cell_px] = GRID_LINE
    return image

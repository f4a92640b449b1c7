"""Constants of k-in-a-row tic-tac-toe (`docs/rules/tictactoe.md`) and the board geometry.

Boards are numpy int8 arrays, `board[row, col]`, row 0 at the top: 0 empty, 1 X, 2 O. The kernels
work on the flat view (`cell = row * size + col`, which is also the RL action index). A line is won
by `k` or more stones in a row, horizontally, vertically or diagonally; every such line contains a
full length-`k` *window*, so the kernels only ever look at windows.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

RULESET_ID = "k-in-a-row@1"
"""Bumped by any change of behaviour (board sizes, line lengths, move order)."""

SIZES = (3, 5, 10)
K_FOR_SIZE = {3: 3, 5: 4, 10: 5}
"""Board size -> stones in a row that win."""

EMPTY, X, O = 0, 1, 2  # noqa: E741  (the marks are called that)
MARKS = ".XO"
"""Cell value -> character of the engine contract."""

# Outcomes of a move (engine.apply_move).
ILLEGAL, ONGOING, WIN, DRAW = -1, 0, 1, 2

LINE_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
"""(row, col) steps of the four lines through a cell: the windows and the engine's walk."""


def line_length(size: int) -> int:
    """Stones in a row needed on a `size` board (3 -> 3, 5 -> 4, 10 -> 5)."""
    try:
        return K_FOR_SIZE[size]
    except KeyError:
        raise ValueError(f"board size must be one of {SIZES}, got {size!r}") from None


def other(side: int) -> int:
    """The opponent of X (1) is O (2) and vice versa."""
    return 3 - side


def mark_value(mark: str) -> int:
    """`"X"` -> 1, `"O"` -> 2."""
    if mark == "X":
        return X
    if mark == "O":
        return O
    raise ValueError(f"mark must be 'X' or 'O', got {mark!r}")


@dataclass(frozen=True)
class Geometry:
    """Every length-`k` window of an `n` x `n` board, and the windows through each cell.

    `windows[w]` lists the `k` cells of window w; `cell_windows[c]` the windows through cell c,
    padded with -1 (`cell_degree[c]` says how many). Arrays are read-only and shared.
    """

    n: int
    k: int
    windows: np.ndarray  # int64 (W, k)
    cell_windows: np.ndarray  # int64 (n*n, D)
    cell_degree: np.ndarray  # int64 (n*n,)


@cache
def geometry(size: int) -> Geometry:
    """The geometry of a board size (3, 5 or 10); built once per process."""
    k = line_length(size)
    windows: list[list[int]] = []
    for r in range(size):
        for c in range(size):
            for dr, dc in LINE_DIRECTIONS:
                end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
                if 0 <= end_r < size and 0 <= end_c < size:
                    windows.append([(r + dr * j) * size + c + dc * j for j in range(k)])
    win = np.array(windows, dtype=np.int64)
    through: list[list[int]] = [[] for _ in range(size * size)]
    for w, cells in enumerate(windows):
        for cell in cells:
            through[cell].append(w)
    depth = max(len(t) for t in through)
    cell_windows = np.full((size * size, depth), -1, dtype=np.int64)
    for cell, ws in enumerate(through):
        cell_windows[cell, : len(ws)] = ws
    degree = np.array([len(t) for t in through], dtype=np.int64)
    for array in (win, cell_windows, degree):
        array.setflags(write=False)
    return Geometry(size, k, win, cell_windows, degree)

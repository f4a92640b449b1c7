"""What each empty square would do if played, read off the rules: the auxiliary targets a
learner may predict beside its policy (`examples/ppo_presets.py`, preset `tictactoe-selfplay-all`),
as KataGo predicts ownership beside its moves. One numba call for a batch of boards.

Facts, per empty square, for the side to move (P) and the other side (Q):

0. P completes a line there;
1. Q would complete a line there;
2. P playing there leaves P two or more squares that complete a line (a double threat);
3. Q playing there would leave Q two or more.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from arcade_gym.tictactoe import engine as E
from arcade_gym.tictactoe.rules import K_FOR_SIZE

FACTS = 4
_K = np.zeros(max(K_FOR_SIZE) + 1, np.int64)
for _size, _k in K_FOR_SIZE.items():
    _K[_size] = _k


@njit(cache=True)
def _wins_after(flat: np.ndarray, n: int, k: int, side: int, cell: int) -> int:
    """Squares that complete a line for `side` once `side` stands on `cell` (at most 2)."""
    flat[cell] = side
    count = 0
    for d in range(n * n):
        if flat[d] != 0:
            continue
        flat[d] = side
        if E.line_through(flat, n, k, d):
            count += 1
        flat[d] = 0
        if count >= 2:
            break
    flat[cell] = 0
    return count


@njit(cache=True)
def square_facts(boards: np.ndarray, sizes: np.ndarray, lines: np.ndarray, out: np.ndarray) -> None:
    """`boards` (B, S, S, 2) planes (0: the mover's stones, 1: the other side's), each board
    n = `sizes[i]` in the top-left corner; `lines[n]` its k. Writes `out` (B, S * S, FACTS)
    (canvas squares; 0 on stones and off the board)."""
    canvas = boards.shape[1]
    out[:] = 0.0
    for i in range(boards.shape[0]):
        n = sizes[i]
        k = lines[n]
        flat = np.zeros(n * n, np.int8)
        for r in range(n):
            for c in range(n):
                flat[r * n + c] = boards[i, r, c, 0] + 2 * boards[i, r, c, 1]
        for cell in range(n * n):
            if flat[cell] != 0:
                continue
            square = (cell // n) * canvas + cell % n
            for side in (1, 2):
                flat[cell] = side
                completes = E.line_through(flat, n, k, cell)
                flat[cell] = 0
                if completes:
                    out[i, square, side - 1] = 1.0
                elif _wins_after(flat, n, k, side, cell) >= 2:
                    out[i, square, side + 1] = 1.0


def facts_of(boards: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """`square_facts` of a batch: (B, S * S, FACTS) float32."""
    boards = np.ascontiguousarray(boards, dtype=np.int8)
    out = np.zeros((boards.shape[0], boards.shape[1] * boards.shape[2], FACTS), np.float32)
    square_facts(boards, np.ascontiguousarray(sizes, dtype=np.int64), _K, out)
    return out

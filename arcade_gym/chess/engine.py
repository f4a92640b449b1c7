"""The numba kernel that draws the observation planes of PettingZoo's `chess_v6` from bitboards.

A board of the history is one row of ten uint64 words (white's view, python-chess square numbering
a1 = 0): pawns, knights, bishops, rooks, queens, kings, white pieces, black pieces, the en-passant
square (64 for none) and 1 when the position has occurred before. Plane row r, column c shows
square (7 - r) * 8 + c to the white agent and square r * 8 + c, colours swapped, to the black one.
"""

from __future__ import annotations

import time

import numpy as np
from numba import int64, njit

from arcade_gym.chess.rules import AUX_PLANES, HISTORY, OBS_PLANES, PLANES_PER_BOARD

HIST_WORDS = 10
"""Words per history row (see the module docstring)."""
NO_EP = 64


@njit(cache=True)
def _cell(square: int, player: int) -> tuple[int, int]:
    """(row, column) of a square in the planes `player` sees."""
    return (square // 8 if player == 1 else 7 - square // 8), square % 8


@njit(cache=True, locals={"sq": int64})
def fill_observation(
    hist: np.ndarray,
    newest: int,
    filled: int,
    castling: int,
    player: int,
    halfmove: int,
    out: np.ndarray,
) -> None:
    """Write the 8x8x111 observation of `player` (0 white, 1 black) into `out` (bool).

    `hist` is the (8, 10) uint64 ring of boards, `newest` the slot of the latest and `filled` how
    many slots hold a board; `castling` has bits 1 our kingside, 2 our queenside, 4 their
    kingside, 8 their queenside (the observer's view); `halfmove` the fifty-move clock.
    """
    out[:, :, :] = False
    for k in range(4):
        if castling & (1 << k):
            out[:, :, k] = True
    if player == 1:
        out[:, :, 4] = True
    n = min(halfmove // 2, 63)
    out[n // 8 if player == 1 else 7 - n // 8, n % 8, 5] = True
    out[:, :, 6] = True
    for k in range(min(filled, HISTORY)):
        row = hist[(newest - k) % HISTORY]
        base = AUX_PLANES + k * PLANES_PER_BOARD
        occupied = row[6] | row[7]
        sq = 0  # an int64 local: a literal 0 would compile `_cell` twice
        while occupied:
            if occupied & np.uint64(1):
                bit = np.uint64(1) << np.uint64(sq)
                piece = 0
                while not row[piece] & bit:
                    piece += 1
                is_white = (row[6] & bit) != np.uint64(0)
                plane = piece if is_white == (player == 0) else piece + 6
                r, c = _cell(sq, player)
                out[r, c, base + plane] = True
            occupied >>= np.uint64(1)
            sq += 1
        ep = int(row[8])
        if ep != NO_EP:
            # The pawn that just advanced two squares is drawn on its own back rank instead.
            is_white = ep < 32
            pawn_sq = ep + 8 if is_white else ep - 8
            back_sq = ep % 8 if is_white else 56 + ep % 8
            plane = 0 if is_white == (player == 0) else 6
            r, c = _cell(pawn_sq, player)
            out[r, c, base + plane] = False
            r, c = _cell(back_sq, player)
            out[r, c, base + plane] = True
        if row[9]:
            out[:, :, base + 12] = True


def warmup() -> float:
    """Compile (or load from numba's cache) the kernel once per process; seconds taken."""
    t0 = time.perf_counter()
    hist = np.zeros((HISTORY, HIST_WORDS), np.uint64)
    hist[:, 8] = NO_EP
    fill_observation(hist, 0, 1, 15, 1, 3, np.zeros((8, 8, OBS_PLANES), np.bool_))
    return time.perf_counter() - t0

"""What the chess rules read off a position, in numba: draws by material, the material count
and capture values of the weak rungs, and the observation's castling bits.

The batched env (`arcade_gym/chess/vector.py`) decides these without python-chess, on the
position words of `arcade_gym/chess/movegen.py`; each function names the python-chess or
`arcade_gym/chess` function it equals (`tests/chess/test_board_kernels.py` compares them).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from arcade_gym.chess.board_kernels import RANK, W_BLACK, W_WHITE, bit, msb, popcount
from arcade_gym.chess.movegen import POS_CASTLING, POS_CHESS960, POS_EP, POS_TURN

_ZERO = np.uint64(0)
_DARK = np.uint64(0xAA55AA55AA55AA55)
_LIGHT = np.uint64(0x55AA55AA55AA55AA)
_VALUE = np.array([1, 3, 3, 5, 9, 0], np.int64)
"""Material of a piece word (pawn .. king), as `arcade_gym/chess/opponents.py` counts it."""


@njit(cache=True)
def _side_insufficient(pos: np.ndarray, own: np.uint64, other: np.uint64) -> bool:
    if own & (pos[0] | pos[3] | pos[4]):
        return False
    if own & pos[1]:
        return popcount(own) <= 2 and not (other & ~pos[5] & ~pos[4])
    if own & pos[2]:
        same_colour = not (pos[2] & _DARK) or not (pos[2] & _LIGHT)
        return same_colour and not pos[0] and not pos[1]
    return True


@njit(cache=True)
def insufficient_material(pos: np.ndarray) -> bool:
    """`Board.is_insufficient_material()`: neither side can ever mate."""
    white, black = pos[W_WHITE], pos[W_BLACK]
    return _side_insufficient(pos, white, black) and _side_insufficient(pos, black, white)


@njit(cache=True)
def material(pos: np.ndarray, white: bool) -> int:
    """Material of `white` (True) or black minus the other side's (pawn 1 .. queen 9)."""
    total = 0
    for w in range(5):
        total += _VALUE[w] * (popcount(pos[w] & pos[W_WHITE]) - popcount(pos[w] & pos[W_BLACK]))
    return total if white else -total


@njit(cache=True)
def captured_value(pos: np.ndarray, move: int) -> int:
    """`opponents.captured_value`: the material a move takes (a pawn for en passant)."""
    f = move & 63
    t = (move >> 6) & 63
    tb = bit(t)
    white = pos[POS_TURN] != _ZERO
    other = pos[W_BLACK] if white else pos[W_WHITE]
    if other & tb:
        for w in range(6):
            if pos[w] & tb:
                return int(_VALUE[w])
    diff = t - f
    if (
        t == int(pos[POS_EP])
        and pos[0] & bit(f)
        and (diff == 7 or diff == 9 or diff == -7 or diff == -9)
    ):
        return 1
    return 0


@njit(cache=True)
def observation_castling(pos: np.ndarray, player: int) -> int:
    """`ChessGame._castling`: bits 1 our kingside, 2 our queenside, 4 theirs, 8 theirs."""
    rights = pos[POS_CASTLING]
    if not rights:
        return 0
    bits = 0
    for i in range(2):
        white = (i == 0) == (player == 0)
        own = pos[W_WHITE] if white else pos[W_BLACK]
        if pos[POS_CHESS960]:
            rooks = rights & (RANK[0] | RANK[7]) & own
            kings = pos[5] & own
            if not kings:
                continue
            king = msb(kings)
            while rooks:
                r = msb(rooks)
                rooks ^= bit(r)
                if r // 8 == king // 8:
                    bits |= (1 if r > king else 2) << (2 * i)
        else:
            base = 0 if white else 56
            if rights & bit(base + 7):
                bits |= 1 << (2 * i)
            if rights & bit(base):
                bits |= 2 << (2 * i)
    return bits

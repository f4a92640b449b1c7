"""FEN strings and UCI move names of the batched chess games, written without python-chess.

`write_fens` writes `Board.fen()` (python-chess's defaults: X-FEN castling letters, the
en-passant square only when a legal capture exists) of every game as ASCII bytes, so the
batched env's `info["fen"]` costs one kernel call a step; `uci_names()` is the table the env
names moves from (`info["opponent_move"]`).
"""

from __future__ import annotations

from functools import cache

import chess
import numpy as np
from numba import njit

from arcade_gym.chess.board_kernels import W_BLACK, W_WHITE, bit, msb
from arcade_gym.chess.movegen import POS_CASTLING, POS_EP, POS_TURN
from arcade_gym.chess.vector_kernels import S_FULL, S_HALF, S_LEGAL_EP

FEN_BYTES = 104
"""Room for any FEN the env reaches: 71 board characters, 26 for the rest when the start's
clocks are below a million (`arcade_gym/chess/vector.py` checks that)."""
NAMES = 1 << 15
"""`uci_names()` has one name per `from | to << 6 | promotion << 12`, then None."""

_SYMBOLS = np.frombuffer(b"PNBRQKpnbrqk", np.uint8).copy()
_RANK_1 = np.uint64(0xFF)
_RANK_8 = np.uint64(0xFF) << np.uint64(56)


@njit(cache=True)
def _number(value: int, out: np.ndarray, k: int) -> int:
    digits = 1
    rest = value // 10
    while rest:
        digits += 1
        rest //= 10
    for d in range(digits - 1, -1, -1):
        out[k + d] = 48 + value % 10
        value //= 10
    return k + digits


@njit(cache=True)
def _castling(p: np.ndarray, out: np.ndarray, k: int) -> int:
    """`Board.castling_xfen()`."""
    start = k
    for colour in range(2):
        own = p[W_WHITE] if colour == 0 else p[W_BLACK]
        kings = p[5] & own
        if not kings:
            continue
        king_file = msb(kings) % 8
        backrank = _RANK_1 if colour == 0 else _RANK_8
        rights = p[POS_CASTLING] & backrank
        while rights:
            r = msb(rights)
            rights ^= bit(r)
            rook_file = r % 8
            a_side = rook_file < king_file
            others = own & p[3] & backrank & ~bit(r)
            by_file = False
            while others:
                o = msb(others)
                others ^= bit(o)
                if (o % 8 < rook_file) == a_side:
                    by_file = True
            ch = 97 + rook_file if by_file else (113 if a_side else 107)  # file, q, k
            out[k] = ch - 32 if colour == 0 else ch
            k += 1
    if k == start:
        out[k] = 45  # -
        k += 1
    return k


@njit(cache=True)
def _fen(p: np.ndarray, g: np.ndarray, out: np.ndarray) -> None:
    k = 0
    for rank in range(7, -1, -1):
        empty = 0
        for file in range(8):
            b = bit(rank * 8 + file)
            if (p[W_WHITE] | p[W_BLACK]) & b:
                if empty:
                    out[k] = 48 + empty
                    k += 1
                    empty = 0
                w = 0
                while not p[w] & b:
                    w += 1
                out[k] = _SYMBOLS[w if p[W_WHITE] & b else w + 6]
                k += 1
            else:
                empty += 1
        if empty:
            out[k] = 48 + empty
            k += 1
        if rank:
            out[k] = 47  # /
            k += 1
    out[k] = 32
    out[k + 1] = 119 if p[POS_TURN] else 98  # w, b
    out[k + 2] = 32
    k = _castling(p, out, k + 3)
    out[k] = 32
    k += 1
    if g[S_LEGAL_EP]:
        ep = int(p[POS_EP])
        out[k] = 97 + ep % 8
        out[k + 1] = 49 + ep // 8
        k += 2
    else:
        out[k] = 45
        k += 1
    out[k] = 32
    k = _number(g[S_HALF], out, k + 1)
    out[k] = 32
    k = _number(g[S_FULL], out, k + 1)
    out[k:] = 0


@njit(cache=True, nogil=True)
def write_fens(pos: np.ndarray, st: np.ndarray, out: np.ndarray) -> None:
    """Row i of `out` (uint8, (N, FEN_BYTES)) becomes game i's FEN, zero-padded."""
    for i in range(pos.shape[0]):
        _fen(pos[i], st[i], out[i])


@cache
def uci_names() -> np.ndarray:
    """Object array: the UCI name of every packed move (`NAMES` entries), then None."""
    names: list[str | None] = []
    for packed in range(NAMES):
        f, t, promotion = packed & 63, (packed >> 6) & 63, (packed >> 12) & 7
        suffix = chess.piece_symbol(promotion) if 2 <= promotion <= 5 else ""
        names.append(chess.square_name(f) + chess.square_name(t) + suffix)
    names.append(None)
    table = np.empty(NAMES + 1, object)
    table[:] = names
    return table

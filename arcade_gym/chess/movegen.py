"""Legal move generation in numba, straight to action indices (the envs' hot path).

One kernel, `legal_moves`, reads a position as 12 uint64 words (`POS_*` below: the six piece
bitboards, white and black pieces, the en-passant square or 64, the castling-rook squares, the side
to move, the Chess960 flag), writes the action mask, the move behind each legal action (packed
`from | to << 6 | promotion << 12`, python-chess piece numbers) and the list of legal actions,
and says whether the side to move is in check. Legality is decided by playing each pseudo-legal
move on the bitboards and testing whether the king is attacked; castling follows python-chess's
rule (`Board.generate_castling_moves`) in standard chess and Chess960 alike. python-chess stays the
reference: `tests/chess/test_movegen.py` compares every position of many random games.

The same kernel copies the position into the observation history (`engine.py`), so one call per
ply does all the array work.
"""

from __future__ import annotations

import time

import numpy as np
from numba import int64, njit

from arcade_gym.chess import encoding
from arcade_gym.chess.rules import ACTION_SIZE

POS_WORDS = 12
POS_EP, POS_CASTLING, POS_TURN, POS_CHESS960 = 8, 9, 10, 11
MAX_MOVES = 256
"""More than any position's legal moves (218 at most)."""

PLAIN = np.array([encoding._PLAIN_W, encoding._PLAIN_B], np.int64)
UNDER = np.array([encoding._UNDER_W, encoding._UNDER_B], np.int64)


def _leaper(steps: list[tuple[int, int]]) -> np.ndarray:
    table = np.zeros(64, np.uint64)
    for sq in range(64):
        f, r = sq % 8, sq // 8
        for df, dr in steps:
            if 0 <= f + df < 8 and 0 <= r + dr < 8:
                table[sq] |= np.uint64(1) << np.uint64((r + dr) * 8 + f + df)
    return table


KNIGHT = _leaper([(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)])
KING = _leaper([(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)])
PAWN_ATTACKS = np.stack([_leaper([(-1, 1), (1, 1)]), _leaper([(-1, -1), (1, -1)])])
"""[0] squares a white pawn attacks, [1] a black pawn."""
DIRECTIONS = np.array(
    [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)], np.int64
)
"""Rook directions first (0..3), then bishop directions (4..7)."""


def _between() -> np.ndarray:
    table = np.zeros((64, 64), np.uint64)
    for a in range(64):
        for d in DIRECTIONS:
            f, r = a % 8 + d[0], a // 8 + d[1]
            seen = np.uint64(0)
            while 0 <= f < 8 and 0 <= r < 8:
                b = r * 8 + f
                table[a, b] = seen
                seen |= np.uint64(1) << np.uint64(b)
                f, r = f + d[0], r + d[1]
    return table


BETWEEN = _between()
"""Squares strictly between two squares on a line (0 when not on one)."""

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@njit(cache=True)
def _bit(sq: int) -> np.uint64:
    return np.uint64(1) << np.uint64(sq)


@njit(cache=True)
def _slider_hits(sq: int, occ: np.uint64, targets: np.uint64, first: int, last: int) -> bool:
    """Whether a ray from `sq` in directions first..last-1 meets a `targets` square first."""
    for d in range(first, last):
        df = DIRECTIONS[d, 0]
        dr = DIRECTIONS[d, 1]
        f = sq % 8 + df
        r = sq // 8 + dr
        while 0 <= f < 8 and 0 <= r < 8:
            b = np.uint64(1) << np.uint64(r * 8 + f)
            if occ & b:
                if targets & b:
                    return True
                break
            f += df
            r += dr
    return False


@njit(cache=True, locals={"rook_first": int64, "bishop_first": int64, "bishop_last": int64})
def _attacked(
    sq: int,
    occ: np.uint64,
    pawns: np.uint64,
    knights: np.uint64,
    diagonal: np.uint64,
    straight: np.uint64,
    king: np.uint64,
    attacker_white: bool,
) -> bool:
    """Whether the attacker's pieces (the given bitboards) attack `sq` with occupancy `occ`."""
    if KNIGHT[sq] & knights:
        return True
    if KING[sq] & king:
        return True
    if PAWN_ATTACKS[1 if attacker_white else 0, sq] & pawns:
        return True
    # Typed locals, not literal constants: `_slider_hits` compiles once, not once per pair.
    rook_first, bishop_first, bishop_last = 0, 4, 8
    if straight and _slider_hits(sq, occ, straight, rook_first, bishop_first):
        return True
    return bool(diagonal) and _slider_hits(sq, occ, diagonal, bishop_first, bishop_last)


@njit(cache=True)
def legal_moves(
    pos: np.ndarray,
    hist: np.ndarray,
    slot: int,
    repeated: int,
    mask: np.ndarray,
    packed: np.ndarray,
    actions: np.ndarray,
) -> tuple[int, bool]:
    """Fill `mask` (int8, 4672), `packed` (int32, 4672) and `actions` (int64, >= 256) with the
    legal moves of `pos`; (number of legal moves, side to move in check). When `slot` >= 0 the
    position is also written to row `slot` of the history `hist` (`repeated`: seen before)."""
    if slot >= 0:
        for w in range(9):
            hist[slot, w] = pos[w]
        hist[slot, 9] = np.uint64(repeated)
    mask[:] = 0
    white = pos[POS_TURN] != _ZERO
    side = 0 if white else 1
    us = pos[6] if white else pos[7]
    them = pos[7] if white else pos[6]
    occ = us | them
    pawns, knights, bishops, rooks, queens, kings = pos[0], pos[1], pos[2], pos[3], pos[4], pos[5]
    t_pawns = pawns & them
    t_knights = knights & them
    t_diag = (bishops | queens) & them
    t_straight = (rooks | queens) & them
    t_king = kings & them
    our_king = kings & us
    ksq = 0
    while ksq < 64 and not (our_king & (_ONE << np.uint64(ksq))):
        ksq += 1
    in_check = _attacked(ksq, occ, t_pawns, t_knights, t_diag, t_straight, t_king, not white)
    ep = int(pos[POS_EP])
    n = 0
    forward = 8 if white else -8
    start_rank = 1 if white else 6
    last_rank = 7 if white else 0
    for sq in range(64):
        b = _ONE << np.uint64(sq)
        if not (us & b):
            continue
        # Destinations (and the en-passant victim) of this piece, then the legality filter.
        targets = np.zeros(32, np.int64)
        count = 0
        is_king = False
        if pawns & b:
            one = sq + forward
            if 0 <= one < 64 and not (occ & _bit(one)):
                targets[count] = one
                count += 1
                two = one + forward
                if sq // 8 == start_rank and not (occ & _bit(two)):
                    targets[count] = two
                    count += 1
            attacks = PAWN_ATTACKS[side, sq]
            for t in range(64):
                tb = _ONE << np.uint64(t)
                if attacks & tb and (them & tb or t == ep):
                    targets[count] = t
                    count += 1
        elif knights & b:
            attacks = KNIGHT[sq] & ~us
            for t in range(64):
                if attacks & (_ONE << np.uint64(t)):
                    targets[count] = t
                    count += 1
        elif kings & b:
            is_king = True
            attacks = KING[sq] & ~us
            for t in range(64):
                if attacks & (_ONE << np.uint64(t)):
                    targets[count] = t
                    count += 1
        else:
            first = 4 if bishops & b else 0
            last = 4 if rooks & b else 8
            for d in range(first, last):
                df = DIRECTIONS[d, 0]
                dr = DIRECTIONS[d, 1]
                f = sq % 8 + df
                r = sq // 8 + dr
                while 0 <= f < 8 and 0 <= r < 8:
                    t = r * 8 + f
                    tb = _ONE << np.uint64(t)
                    if us & tb:
                        break
                    targets[count] = t
                    count += 1
                    if them & tb:
                        break
                    f += df
                    r += dr
        for i in range(count):
            t = targets[i]
            tb = _ONE << np.uint64(t)
            victim = tb
            if pawns & b and t == ep and not (them & tb):
                victim = _bit(ep - forward)
            occ2 = ((occ & ~b) | tb) & ~(victim & ~tb)
            keep = ~victim
            king_at = t if is_king else ksq
            if _attacked(
                king_at,
                occ2,
                t_pawns & keep,
                t_knights & keep,
                t_diag & keep,
                t_straight & keep,
                t_king,
                not white,
            ):
                continue
            if pawns & b and t // 8 == last_rank:
                for promotion in range(2, 6):
                    if promotion == 5:
                        a = PLAIN[side, sq * 64 + t]
                    else:
                        a = UNDER[side, (sq * 64 + t) * 3 + promotion - 2]
                    mask[a] = 1
                    packed[a] = sq | (t << 6) | (promotion << 12)
                    actions[n] = a
                    n += 1
            else:
                a = PLAIN[side, sq * 64 + t]
                mask[a] = 1
                packed[a] = sq | (t << 6)
                actions[n] = a
                n += 1
    # Castling, as python-chess's generate_castling_moves.
    back = 0 if white else 7
    castling = pos[POS_CASTLING] & rooks & us
    if ksq // 8 == back and castling:
        for r in range(back * 8, back * 8 + 8):
            rb = _ONE << np.uint64(r)
            if not (castling & rb):
                continue
            a_side = r < ksq
            king_to = back * 8 + (2 if a_side else 6)
            rook_to = back * 8 + (3 if a_side else 5)
            kb = _ONE << np.uint64(ksq)
            king_path = BETWEEN[ksq, king_to]
            rook_path = BETWEEN[r, rook_to]
            if ((occ ^ kb ^ rb) & (king_path | rook_path | _bit(king_to) | _bit(rook_to))) != _ZERO:
                continue
            path = king_path | kb
            blocked = False
            for s in range(64):
                if path & (_ONE << np.uint64(s)) and _attacked(
                    s, occ ^ kb, t_pawns, t_knights, t_diag, t_straight, t_king, not white
                ):
                    blocked = True
                    break
            if blocked:
                continue
            if _attacked(
                king_to,
                occ ^ kb ^ rb ^ _bit(rook_to),
                t_pawns,
                t_knights,
                t_diag,
                t_straight,
                t_king,
                not white,
            ):
                continue
            to = r if pos[POS_CHESS960] else king_to
            a = PLAIN[side, ksq * 64 + to]
            mask[a] = 1
            packed[a] = ksq | (to << 6)
            actions[n] = a
            n += 1
    return n, in_check


def new_buffers() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Fresh `pos`, `mask`, `packed` and `actions` arrays for one game."""
    return (
        np.zeros(POS_WORDS, np.uint64),
        np.zeros(ACTION_SIZE, np.int8),
        np.zeros(ACTION_SIZE, np.int32),
        np.zeros(MAX_MOVES, np.int64),
    )


def warmup() -> float:
    """Compile (or load from numba's cache) the kernel; seconds taken."""
    t0 = time.perf_counter()
    pos, mask, packed, actions = new_buffers()
    hist = np.zeros((8, 10), np.uint64)
    legal_moves(pos, hist, -1, 0, mask, packed, actions)
    return time.perf_counter() - t0

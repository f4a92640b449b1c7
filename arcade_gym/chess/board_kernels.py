"""Whole chess games inside numba: legal moves in python-chess's order, push, draws by material.

The batched env (`arcade_gym/chess/vector.py`) plays the agent's move and the opponent's reply
without python-chess, so what python-chess decides there is done here on the position words of
`arcade_gym/chess/movegen.py` (six piece bitboards, white's and black's pieces, en-passant
square or 64, castling rooks, side to move, Chess960 flag):

- `ordered_moves` lists the legal moves exactly in the order of `Board.generate_legal_moves`
  (the weak rungs pick `moves[rng.integers(len(moves))]`, so the order is part of the rules):
  out of check, pieces other than pawns from the highest square down (destinations from the
  highest down), castling (rooks from the highest down), pawn captures, single pushes, double
  pushes, en passant; in check, the king's moves first. Promotions come queen, rook, bishop,
  knight. A move is `from | to << 6 | promotion << 12`, python-chess piece numbers, with
  `CASTLE` and the rook's square `<< 16` for castling (the king's square in standard chess is
  its destination, the rook's in Chess960, as python-chess writes them).
- `push` is `Board.push` for those moves (castling rights, en passant, captures, promotion).
What the rules read off a position (material, draws by material) is in `position_kernels.py`;
`tests/chess/test_board_kernels.py` compares them all with python-chess along random games.
"""

from __future__ import annotations

import numpy as np
from numba import int64, njit

from arcade_gym.chess.movegen import (
    BETWEEN,
    KING,
    KNIGHT,
    PAWN_ATTACKS,
    PLAIN,
    POS_CASTLING,
    POS_CHESS960,
    POS_EP,
    POS_TURN,
    UNDER,
)

CASTLE = 1 << 15
"""Flag of a castling move (the rook's square is in bits 16..21)."""
NO_SQUARE = 64
W_WHITE, W_BLACK = 6, 7
"""Words of white's and black's pieces (0..5: pawns, knights, bishops, rooks, queens, kings)."""

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
RANK = np.array([np.uint64(0xFF) << np.uint64(8 * r) for r in range(8)], np.uint64)


def _rays() -> np.ndarray:
    """RAYS[d, sq]: the squares from `sq` to the edge in direction d (movegen's order: +1, -1,
    +8, -8, +9, -7, +7, -9), `sq` excluded."""
    steps = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
    table = np.zeros((8, 64), np.uint64)
    for d, (df, dr) in enumerate(steps):
        for sq in range(64):
            f, r = sq % 8 + df, sq // 8 + dr
            while 0 <= f < 8 and 0 <= r < 8:
                table[d, sq] |= np.uint64(1) << np.uint64(r * 8 + f)
                f, r = f + df, r + dr
    return table


RAYS = _rays()
_POSITIVE = np.array([1, 0, 1, 0, 1, 0, 1, 0], np.int64)
_STRAIGHT_EMPTY = RAYS[0] | RAYS[1] | RAYS[2] | RAYS[3]
_DIAGONAL_EMPTY = RAYS[4] | RAYS[5] | RAYS[6] | RAYS[7]


@njit(cache=True)
def bit(sq: int) -> np.uint64:
    return _ONE << np.uint64(sq)


@njit(cache=True)
def msb(x: np.uint64) -> int:
    """Index of the highest set bit (x != 0)."""
    n = 0
    if x >> np.uint64(32):
        n += 32
        x >>= np.uint64(32)
    if x >> np.uint64(16):
        n += 16
        x >>= np.uint64(16)
    if x >> np.uint64(8):
        n += 8
        x >>= np.uint64(8)
    if x >> np.uint64(4):
        n += 4
        x >>= np.uint64(4)
    if x >> np.uint64(2):
        n += 2
        x >>= np.uint64(2)
    if x >> np.uint64(1):
        n += 1
    return n


@njit(cache=True)
def lsb(x: np.uint64) -> int:
    """Index of the lowest set bit (x != 0)."""
    return msb(x & (~x + _ONE))


@njit(cache=True)
def popcount(x: np.uint64) -> int:
    n = 0
    while x:
        x &= x - _ONE
        n += 1
    return n


@njit(cache=True)
def slider_attacks(sq: int, occ: np.uint64, first: int, last: int) -> np.uint64:
    """Squares a slider on `sq` reaches in directions first..last-1 (0..3 straight, 4..7
    diagonal), the first occupied square of each ray included."""
    att = _ZERO
    for d in range(first, last):
        ray = RAYS[d, sq]
        blockers = ray & occ
        if blockers:
            ray ^= RAYS[d, lsb(blockers) if _POSITIVE[d] else msb(blockers)]
        att |= ray
    return att


@njit(cache=True, locals={"rook": int64, "bishop": int64, "last": int64})
def attacked(
    sq: int,
    occ: np.uint64,
    pawns: np.uint64,
    knights: np.uint64,
    diagonal: np.uint64,
    straight: np.uint64,
    king: np.uint64,
    attacker_white: bool,
) -> bool:
    """Whether the given attacking pieces hit `sq` with occupancy `occ`."""
    if KNIGHT[sq] & knights or KING[sq] & king:
        return True
    if PAWN_ATTACKS[1 if attacker_white else 0, sq] & pawns:
        return True
    rook, bishop, last = 0, 4, 8  # int64 locals: literals compile `slider_attacks` per pair
    if straight and slider_attacks(sq, occ, rook, bishop) & straight:
        return True
    return bool(diagonal) and bool(slider_attacks(sq, occ, bishop, last) & diagonal)


@njit(cache=True)
def in_check(pos: np.ndarray) -> bool:
    """Whether the side to move is in check."""
    white = pos[POS_TURN] != _ZERO
    us = pos[W_WHITE] if white else pos[W_BLACK]
    them = pos[W_BLACK] if white else pos[W_WHITE]
    own_king = pos[5] & us
    if not own_king:
        return False
    return attacked(
        msb(own_king),
        us | them,
        pos[0] & them,
        pos[1] & them,
        (pos[2] | pos[4]) & them,
        (pos[3] | pos[4]) & them,
        pos[5] & them,
        not white,
    )


@njit(cache=True)
def action_of(move: int, white: bool) -> int:
    """The move's action index (`arcade_gym/chess/encoding.py`) for the side that plays it."""
    side = 0 if white else 1
    key = (move & 63) * 64 + ((move >> 6) & 63)
    promotion = (move >> 12) & 7
    if promotion != 0 and promotion != 5:
        return UNDER[side, key * 3 + promotion - 2]
    return PLAIN[side, key]


@njit(cache=True, locals={"rook": int64, "bishop": int64, "last": int64, "n": int64})
def ordered_moves(pos: np.ndarray, out: np.ndarray) -> tuple[int, bool, bool]:
    """Write the legal moves of `pos` into `out` in python-chess's order (module docstring);
    (how many, side to move in check, an en-passant capture among them)."""
    white = pos[POS_TURN] != _ZERO
    side = 0 if white else 1
    us = pos[W_WHITE] if white else pos[W_BLACK]
    them = pos[W_BLACK] if white else pos[W_WHITE]
    occ = us | them
    pawns, knights, bishops, rooks, queens, kings = pos[0], pos[1], pos[2], pos[3], pos[4], pos[5]
    t_pawns = pawns & them
    t_knights = knights & them
    t_diag = (bishops | queens) & them
    t_straight = (rooks | queens) & them
    t_king = kings & them
    ksq = msb(kings & us)
    checkers = (KNIGHT[ksq] & t_knights) | (PAWN_ATTACKS[side, ksq] & t_pawns)
    rook, bishop, last = 0, 4, 8  # int64 locals, as in `attacked`
    checkers |= slider_attacks(ksq, occ, rook, bishop) & t_straight
    checkers |= slider_attacks(ksq, occ, bishop, last) & t_diag
    check = checkers != _ZERO
    # Our pieces alone between the king and an enemy slider: moving them needs the full test.
    blockers = _ZERO
    snipers = (_STRAIGHT_EMPTY[ksq] & t_straight) | (_DIAGONAL_EMPTY[ksq] & t_diag)
    while snipers:
        s = msb(snipers)
        snipers ^= bit(s)
        between = BETWEEN[ksq, s] & occ
        if between and not (between & (between - _ONE)) and between & us:
            blockers |= between
    n = 0  # an int64 local: a literal 0 would compile `_king_steps` twice
    kb = bit(ksq)
    if check:
        n = _king_steps(ksq, us, occ, t_pawns, t_knights, t_diag, t_straight, t_king, white, out, n)
    movers = us & ~pawns
    while movers:
        f = msb(movers)
        fb = bit(f)
        movers ^= fb
        if fb == kb:
            if not check:
                n = _king_steps(
                    ksq, us, occ, t_pawns, t_knights, t_diag, t_straight, t_king, white, out, n
                )
            continue
        if knights & fb:
            targets = KNIGHT[f] & ~us
        elif bishops & fb:
            targets = slider_attacks(f, occ, bishop, last) & ~us
        elif rooks & fb:
            targets = slider_attacks(f, occ, rook, bishop) & ~us
        else:
            targets = slider_attacks(f, occ, rook, last) & ~us
        safe = not check and not (blockers & fb)
        while targets:
            t = msb(targets)
            tb = bit(t)
            targets ^= tb
            if safe or _keeps_king(
                ksq, fb, tb, tb, occ, t_pawns, t_knights, t_diag, t_straight, t_king, white
            ):
                out[n] = f | (t << 6)
                n += 1
    if not check:
        n = _castlings(pos, ksq, us, occ, t_pawns, t_knights, t_diag, t_straight, t_king, out, n)
    own_pawns = pawns & us
    last = 7 if white else 0
    capturers = own_pawns
    while capturers:
        f = msb(capturers)
        fb = bit(f)
        capturers ^= fb
        targets = PAWN_ATTACKS[side, f] & them
        safe = not check and not (blockers & fb)
        while targets:
            t = msb(targets)
            tb = bit(t)
            targets ^= tb
            if safe or _keeps_king(
                ksq, fb, tb, tb, occ, t_pawns, t_knights, t_diag, t_straight, t_king, white
            ):
                n = _pawn_move(f, t, t // 8 == last, out, n)
    if white:
        singles = (own_pawns << np.uint64(8)) & ~occ
        doubles = (singles << np.uint64(8)) & ~occ & (RANK[2] | RANK[3])
    else:
        singles = (own_pawns >> np.uint64(8)) & ~occ
        doubles = (singles >> np.uint64(8)) & ~occ & (RANK[5] | RANK[4])
    back = -8 if white else 8
    for double in range(2):
        pushes = doubles if double else singles
        step = 2 * back if double else back
        while pushes:
            t = msb(pushes)
            tb = bit(t)
            pushes ^= tb
            fb = bit(t + step)
            if (not check and not (blockers & fb)) or _keeps_king(
                ksq, fb, tb, _ZERO, occ, t_pawns, t_knights, t_diag, t_straight, t_king, white
            ):
                n = _pawn_move(t + step, t, t // 8 == last, out, n)
    en_passant = False
    ep = int(pos[POS_EP])
    if ep != NO_SQUARE and ep != 0 and not (occ & bit(ep)):
        tb = bit(ep)
        victim = bit(ep + back)
        capturers = own_pawns & PAWN_ATTACKS[1 - side, ep] & RANK[4 if white else 3]
        while capturers:
            f = msb(capturers)
            fb = bit(f)
            capturers ^= fb
            if _keeps_king(
                ksq, fb, tb, victim, occ, t_pawns, t_knights, t_diag, t_straight, t_king, white
            ):
                out[n] = f | (ep << 6)
                n += 1
                en_passant = True
    return n, check, en_passant


@njit(cache=True)
def _keeps_king(
    ksq: int,
    fb: np.uint64,
    tb: np.uint64,
    victim: np.uint64,
    occ: np.uint64,
    t_pawns: np.uint64,
    t_knights: np.uint64,
    t_diag: np.uint64,
    t_straight: np.uint64,
    t_king: np.uint64,
    white: bool,
) -> bool:
    """Whether a move from `fb` to `tb` (capturing on `victim`, 0 for none) leaves our king on
    `ksq` unattacked (a non-king move)."""
    keep = ~victim
    return not attacked(
        ksq,
        ((occ & ~fb) | tb) & ~(victim & ~tb),
        t_pawns & keep,
        t_knights & keep,
        t_diag & keep,
        t_straight & keep,
        t_king,
        not white,
    )


@njit(cache=True)
def _king_steps(
    ksq: int,
    us: np.uint64,
    occ: np.uint64,
    t_pawns: np.uint64,
    t_knights: np.uint64,
    t_diag: np.uint64,
    t_straight: np.uint64,
    t_king: np.uint64,
    white: bool,
    out: np.ndarray,
    n: int,
) -> int:
    """The king's plain steps to unattacked squares, highest destination first."""
    kb = bit(ksq)
    targets = KING[ksq] & ~us
    while targets:
        t = msb(targets)
        tb = bit(t)
        targets ^= tb
        keep = ~tb
        if not attacked(
            t,
            (occ & ~kb) | tb,
            t_pawns & keep,
            t_knights & keep,
            t_diag & keep,
            t_straight & keep,
            t_king,
            not white,
        ):
            out[n] = ksq | (t << 6)
            n += 1
    return n


@njit(cache=True)
def _castlings(
    pos: np.ndarray,
    ksq: int,
    us: np.uint64,
    occ: np.uint64,
    t_pawns: np.uint64,
    t_knights: np.uint64,
    t_diag: np.uint64,
    t_straight: np.uint64,
    t_king: np.uint64,
    out: np.ndarray,
    n: int,
) -> int:
    """python-chess's `generate_castling_moves`, rooks from the highest square down."""
    white = pos[POS_TURN] != _ZERO
    back = 0 if white else 7
    rights = pos[POS_CASTLING] & pos[3] & us & RANK[back]
    if ksq // 8 != back or not rights:
        return n
    kb = bit(ksq)
    while rights:
        r = msb(rights)
        rb = bit(r)
        rights ^= rb
        a_side = r < ksq
        king_to = back * 8 + (2 if a_side else 6)
        rook_to = back * 8 + (3 if a_side else 5)
        king_path = BETWEEN[ksq, king_to]
        if (occ ^ kb ^ rb) & (king_path | BETWEEN[r, rook_to] | bit(king_to) | bit(rook_to)):
            continue
        path = king_path | kb
        blocked = False
        while path:
            s = msb(path)
            path ^= bit(s)
            if attacked(s, occ ^ kb, t_pawns, t_knights, t_diag, t_straight, t_king, not white):
                blocked = True
                break
        if blocked or attacked(
            king_to,
            occ ^ kb ^ rb ^ bit(rook_to),
            t_pawns,
            t_knights,
            t_diag,
            t_straight,
            t_king,
            not white,
        ):
            continue
        to = r if pos[POS_CHESS960] else king_to
        out[n] = ksq | (to << 6) | CASTLE | (r << 16)
        n += 1
    return n


@njit(cache=True)
def _pawn_move(f: int, t: int, promotes: bool, out: np.ndarray, n: int) -> int:
    if promotes:
        for promotion in range(5, 1, -1):  # queen, rook, bishop, knight
            out[n] = f | (t << 6) | (promotion << 12)
            n += 1
    else:
        out[n] = f | (t << 6)
        n += 1
    return n


@njit(cache=True)
def push(pos: np.ndarray, move: int) -> bool:
    """Play a legal move of `ordered_moves` on `pos` as `Board.push` does; True when it is a
    capture or a pawn move (the fifty-move clock restarts)."""
    white = pos[POS_TURN] != _ZERO
    own = W_WHITE if white else W_BLACK
    other = W_BLACK if white else W_WHITE
    f = move & 63
    t = (move >> 6) & 63
    promotion = (move >> 12) & 7
    fb, tb = bit(f), bit(t)
    piece = 0
    while not pos[piece] & fb:
        piece += 1
    old_ep = int(pos[POS_EP])
    rights = pos[POS_CASTLING]
    capture = (pos[other] & tb) != _ZERO
    pos[POS_EP] = np.uint64(NO_SQUARE)
    backrank = RANK[0] if white else RANK[7]
    if move & CASTLE:
        r = (move >> 16) & 63
        rb = bit(r)
        base = 0 if white else 56
        a_side = r % 8 < f % 8
        king_to = bit(base + (2 if a_side else 6))
        rook_to = bit(base + (3 if a_side else 5))
        pos[5] = (pos[5] & ~fb) | king_to
        pos[3] = (pos[3] & ~rb) | rook_to
        pos[own] = (pos[own] & ~fb & ~rb) | king_to | rook_to
        pos[POS_CASTLING] = rights & ~rb & ~fb & ~backrank
        pos[POS_TURN] = _ZERO if white else _ONE
        return False
    pos[piece] &= ~fb
    pos[own] &= ~fb
    if capture:
        for w in range(6):
            pos[w] &= ~tb
        pos[other] &= ~tb
    rights &= ~tb & ~fb
    if piece == 5:
        rights &= ~backrank
    if piece == 0:
        diff = t - f
        if diff == 16 and f // 8 == 1:
            pos[POS_EP] = np.uint64(f + 8)
        elif diff == -16 and f // 8 == 6:
            pos[POS_EP] = np.uint64(f - 8)
        elif t == old_ep and not capture and (diff == 7 or diff == 9 or diff == -7 or diff == -9):
            victim = bit(t - 8 if white else t + 8)
            pos[0] &= ~victim
            pos[other] &= ~victim
    placed = piece if promotion == 0 else promotion - 1
    pos[placed] |= tb
    pos[own] |= tb
    pos[POS_CASTLING] = rights
    pos[POS_TURN] = _ZERO if white else _ONE
    return piece == 0 or capture

"""Exact answers by brute-force game-tree search: the suite's expected moves, never an engine's.

P is the side to move, Q its opponent. A *threat* of a side is an empty square that would
complete a line for it. The definitions (`docs/rules/tictactoe.md`):

- **win in 1**: squares that complete a line for P.
- **block**: Q's threats (the category uses positions where Q has exactly one).
- **forced win in 3** (P to move): P has a threat, or a move after which Q has no threat and P has
  at least two (Q can block one; P completes the other).
- **fork squares**: moves, not wins, after which Q has no threat and P has >= 2 threats; this is
  exactly "create a double threat (a forced win in 3 plies)".
- **forced win in 5**: moves m such that P wins by force within 5 plies starting with m: m wins,
  or Q has no threat after m and for *every* Q reply P has a forced win in 3. Its usual shape is
  the seed's "threat, forced reply, then a double threat"; quiet first moves that force a win as
  well count too, because the search is full width.
- **fork defense**: moves after which Q has no forced win in 3 ("leave the opponent no
  unanswerable double threat"); a move that wins or fills the board counts.
- **3x3 minimax**: the full game tree, memoised over all 3^9 boards by retrograde analysis.

Kernels take the flat board, the window counts of `engine.window_counts` and the geometry arrays;
they leave board and counts as they found them. The Python functions at the bottom take an (n, n)
board and the side to move.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

import numpy as np
from numba import njit

from arcade_gym.tictactoe import engine as E
from arcade_gym.tictactoe.rules import geometry, other

# --- kernels ----------------------------------------------------------------------------------


@njit(cache=True)
def _new_threats_through(
    board: np.ndarray,
    cnt: np.ndarray,
    windows: np.ndarray,
    cell_windows: np.ndarray,
    cell: int,
    side: int,
    limit: int,
    out: np.ndarray,
    seen: np.ndarray,
) -> int:
    """Distinct threats of `side` in the windows through `cell` (just played by `side`).

    When `side` had no threat before the move, these are all its threats now.
    """
    m = 0
    for i in range(cell_windows.shape[1]):
        w = cell_windows[cell, i]
        if w < 0:
            break
        m = E.add_threat(board, cnt, windows, w, side, out, seen, m)
        if m >= limit:
            break
    for i in range(m):
        seen[out[i]] = 0
    return m


@njit(cache=True)
def forced_win3(
    board: np.ndarray, cnt: np.ndarray, windows: np.ndarray, cell_windows: np.ndarray, side: int
) -> bool:
    """Whether `side` (to move) wins by force within 3 plies (its move, a reply, its move)."""
    n2 = board.shape[0]
    opp = 3 - side
    out = np.empty(n2, np.int64)
    seen = np.zeros(n2, np.int8)
    if E.winning_squares(board, cnt, windows, side, 1, out, seen) >= 1:
        return True
    q = E.winning_squares(board, cnt, windows, opp, 2, out, seen)
    if q >= 2:
        return False
    if q == 1:  # the only candidate is the forced block
        m = out[0]
        E.place(board, cnt, cell_windows, m, side)
        ok = _new_threats_through(board, cnt, windows, cell_windows, m, side, 2, out, seen) >= 2
        E.unplace(board, cnt, cell_windows, m)
        return ok
    for m in range(n2):
        if board[m] != 0:
            continue
        E.place(board, cnt, cell_windows, m, side)
        ok = _new_threats_through(board, cnt, windows, cell_windows, m, side, 2, out, seen) >= 2
        E.unplace(board, cnt, cell_windows, m)
        if ok:
            return True
    return False


@njit(cache=True)
def fork_squares(
    board: np.ndarray,
    cnt: np.ndarray,
    windows: np.ndarray,
    cell_windows: np.ndarray,
    side: int,
    mask: np.ndarray,
) -> int:
    """Mark in `mask` (int8) the moves, not wins, leaving Q no threat and `side` >= 2 threats."""
    n2 = board.shape[0]
    opp = 3 - side
    out = np.empty(n2, np.int64)
    seen = np.zeros(n2, np.int8)
    mask[:] = 0
    is_win = np.zeros(n2, np.int8)
    pw = E.winning_squares(board, cnt, windows, side, n2, out, seen)
    for i in range(pw):
        is_win[out[i]] = 1
    q = E.winning_squares(board, cnt, windows, opp, 2, out, seen)
    if q >= 2:
        return 0
    only = out[0] if q == 1 else -1
    found = 0
    for m in range(n2):
        if board[m] != 0 or is_win[m] == 1 or (only >= 0 and m != only):
            continue
        E.place(board, cnt, cell_windows, m, side)
        if pw == 0:
            t = _new_threats_through(board, cnt, windows, cell_windows, m, side, 2, out, seen)
        else:
            t = E.winning_squares(board, cnt, windows, side, 2, out, seen)
        E.unplace(board, cnt, cell_windows, m)
        if t >= 2:
            mask[m] = 1
            found += 1
    return found


@njit(cache=True)
def _survives_every_reply(
    board: np.ndarray, cnt: np.ndarray, windows: np.ndarray, cell_windows: np.ndarray, side: int
) -> bool:
    """After a quiet move of `side` (no threat, Q has none): does every Q reply leave `side` a
    forced win in 3? Q's stone can only take chances away, so `side` needs a fork square first;
    the replies on those squares are tried first because they refute most often."""
    n2 = board.shape[0]
    opp = 3 - side
    forks = np.zeros(n2, np.int8)
    if fork_squares(board, cnt, windows, cell_windows, side, forks) == 0:
        return False
    any_reply = False
    for first in range(2):
        for r in range(n2):
            if board[r] != 0 or (forks[r] == 1) != (first == 0):
                continue
            any_reply = True
            E.place(board, cnt, cell_windows, r, opp)
            ok = forced_win3(board, cnt, windows, cell_windows, side)
            E.unplace(board, cnt, cell_windows, r)
            if not ok:
                return False
    return any_reply


@njit(cache=True)
def forced_win5_squares(
    board: np.ndarray,
    cnt: np.ndarray,
    windows: np.ndarray,
    cell_windows: np.ndarray,
    side: int,
    mask: np.ndarray,
) -> int:
    """Mark in `mask` every move after which `side` wins by force within 5 plies (wins included)."""
    n2 = board.shape[0]
    opp = 3 - side
    out = np.empty(n2, np.int64)
    seen = np.zeros(n2, np.int8)
    mask[:] = 0
    found = 0
    pw = E.winning_squares(board, cnt, windows, side, n2, out, seen)
    for i in range(pw):
        mask[out[i]] = 1
    found = pw
    q = E.winning_squares(board, cnt, windows, opp, 2, out, seen)
    if q >= 2:
        return found
    only = out[0] if q == 1 else -1
    for m in range(n2):
        if board[m] != 0 or mask[m] == 1 or (only >= 0 and m != only):
            continue
        E.place(board, cnt, cell_windows, m, side)
        t = E.winning_squares(board, cnt, windows, side, 2, out, seen)
        if t >= 2:
            ok = True
        elif t == 1:  # a single threat: the reply on it is forced, any other loses at once
            reply = out[0]
            E.place(board, cnt, cell_windows, reply, opp)
            ok = forced_win3(board, cnt, windows, cell_windows, side)
            E.unplace(board, cnt, cell_windows, reply)
        else:
            ok = _survives_every_reply(board, cnt, windows, cell_windows, side)
        E.unplace(board, cnt, cell_windows, m)
        if ok:
            mask[m] = 1
            found += 1
    return found


@njit(cache=True)
def fork_defense_squares(
    board: np.ndarray,
    cnt: np.ndarray,
    windows: np.ndarray,
    cell_windows: np.ndarray,
    side: int,
    mask: np.ndarray,
) -> int:
    """Mark in `mask` every move after which Q has no forced win in 3 (wins and the last empty
    square count)."""
    n2 = board.shape[0]
    k = windows.shape[1]
    opp = 3 - side
    mask[:] = 0
    empties = 0
    for c in range(n2):
        if board[c] == 0:
            empties += 1
    found = 0
    for m in range(n2):
        if board[m] != 0:
            continue
        wins = False
        for i in range(cell_windows.shape[1]):
            w = cell_windows[m, i]
            if w < 0:
                break
            if cnt[side, w] == k - 1 and cnt[0, w] == 1:
                wins = True
                break
        ok = True
        if not wins and empties > 1:
            E.place(board, cnt, cell_windows, m, side)
            ok = not forced_win3(board, cnt, windows, cell_windows, opp)
            E.unplace(board, cnt, cell_windows, m)
        if ok:
            mask[m] = 1
            found += 1
    return found


@njit(cache=True)
def heuristic_scores(
    board: np.ndarray, cnt: np.ndarray, windows: np.ndarray, cell_windows: np.ndarray, side: int
) -> np.ndarray:
    """The sparring partners' positional score of each empty square (-1 on stones).

    Over the windows through the square: an attacking window (no Q stone) adds 4^(P stones),
    a defending window (no P stone) adds 4^(Q stones), attack counted twice. The centre of an
    empty 3x3 board thus beats a corner, which beats an edge.
    """
    n2 = board.shape[0]
    opp = 3 - side
    scores = np.full(n2, -1, np.int64)
    for c in range(n2):
        if board[c] != 0:
            continue
        s = 0
        for i in range(cell_windows.shape[1]):
            w = cell_windows[c, i]
            if w < 0:
                break
            if cnt[opp, w] == 0:
                s += 2 * (4 ** cnt[side, w])
            if cnt[side, w] == 0:
                s += 4 ** cnt[opp, w]
        scores[c] = s
    return scores


@njit(cache=True)
def _minimax_table(lines: np.ndarray) -> np.ndarray:
    """Negamax score of every 3x3 board for the side to move (X moves when counts are equal).

    Score > 0: a win with `score - 1` empty squares left at the end (faster is larger); < 0 the
    mirror; 0 a draw. Boards with illegal counts or two winners keep 0 and are never asked.
    """
    size = 19683
    pow3 = np.ones(9, np.int64)
    for c in range(1, 9):
        pow3[c] = pow3[c - 1] * 3
    boards = np.zeros((size, 9), np.int8)
    stones = np.zeros(size, np.int64)
    for idx in range(size):
        v = idx
        for c in range(9):
            boards[idx, c] = v % 3
            v //= 3
            if boards[idx, c] != 0:
                stones[idx] += 1
    score = np.zeros(size, np.int8)
    for s in range(9, -1, -1):
        for idx in range(size):
            if stones[idx] != s:
                continue
            b = boards[idx]
            xs = 0
            for c in range(9):
                if b[c] == 1:
                    xs += 1
            os_ = s - xs
            if xs != os_ and xs != os_ + 1:
                continue
            mover = 1 if xs == os_ else 2
            prev_line = False
            mover_line = False
            for li in range(lines.shape[0]):
                a = b[lines[li, 0]]
                if a != 0 and a == b[lines[li, 1]] and a == b[lines[li, 2]]:
                    if a == mover:
                        mover_line = True
                    else:
                        prev_line = True
            if prev_line:
                score[idx] = -(9 - s + 1)
                continue
            if mover_line or s == 9:
                continue
            best = -100
            for c in range(9):
                if b[c] == 0:
                    v = -score[idx + mover * pow3[c]]
                    if v > best:
                        best = v
            score[idx] = best
    return score


# --- Python API over (n, n) boards --------------------------------------------------------------


class Position:
    """A board ((n, n) or flat) with its window counts and the side to move, ready for the
    kernels; it copies the board, so the caller's array is never touched."""

    __slots__ = ("board", "cnt", "geo", "side")

    def __init__(self, board: np.ndarray, side: int) -> None:
        board = np.asarray(board)
        n = board.shape[0] if board.ndim == 2 else round(board.size**0.5)
        self.geo = geometry(n)
        self.board = np.array(board, dtype=np.int8).reshape(-1)
        self.cnt = E.window_counts(self.board, self.geo.windows)
        self.side = int(side)

    def _mask_of(self, kernel: Callable[..., Any], side: int) -> list[int]:
        mask = np.zeros(self.board.shape[0], np.int8)
        kernel(self.board, self.cnt, self.geo.windows, self.geo.cell_windows, side, mask)
        return [int(c) for c in np.flatnonzero(mask)]

    def threats(self, side: int | None = None) -> list[int]:
        """Squares that would complete a line for `side` (default: the side to move), sorted."""
        s = self.side if side is None else side
        n2 = self.board.shape[0]
        out = np.empty(n2, np.int64)
        seen = np.zeros(n2, np.int8)
        m = E.winning_squares(self.board, self.cnt, self.geo.windows, s, n2, out, seen)
        return sorted(int(c) for c in out[:m])

    def win_in_1(self) -> list[int]:
        """The side to move's winning squares."""
        return self.threats(self.side)

    def opponent_wins(self) -> list[int]:
        """Squares where the opponent would complete a line next turn (what must be blocked)."""
        return self.threats(other(self.side))

    def fork_squares(self, side: int | None = None) -> list[int]:
        """Moves creating an unanswerable double threat (forced win in 3) for `side`."""
        return self._mask_of(fork_squares, self.side if side is None else side)

    def forced_win3(self, side: int | None = None) -> bool:
        """Whether `side` (as if to move) wins by force within 3 plies."""
        s = self.side if side is None else side
        return bool(forced_win3(self.board, self.cnt, self.geo.windows, self.geo.cell_windows, s))

    def forced_win5_squares(self) -> list[int]:
        """Moves after which the side to move wins by force within 5 plies."""
        return self._mask_of(forced_win5_squares, self.side)

    def fork_defense_squares(self) -> list[int]:
        """Moves after which the opponent has no forced win in 3."""
        return self._mask_of(fork_defense_squares, self.side)

    def heuristic_scores(self) -> np.ndarray:
        """The sparring partners' positional score per cell (-1 on stones)."""
        return heuristic_scores(
            self.board, self.cnt, self.geo.windows, self.geo.cell_windows, self.side
        )

    def empties(self) -> list[int]:
        """Empty cells in row-major order."""
        return [int(c) for c in np.flatnonzero(self.board == 0)]


@lru_cache(maxsize=1)
def minimax_table() -> np.ndarray:
    """Negamax scores of all 3^9 boards (see `_minimax_table`); computed once per process."""
    table = _minimax_table(geometry(3).windows)
    table.setflags(write=False)
    return table


_POW3 = 3 ** np.arange(9, dtype=np.int64)


def board_index(board: np.ndarray) -> int:
    """Base-3 index of a 3x3 board (cell 0 the least significant digit)."""
    return int(np.asarray(board, dtype=np.int64).reshape(-1) @ _POW3)


def minimax_move_scores(board: np.ndarray, side: int) -> dict[int, int]:
    """Empty cell -> negamax score of playing it on a 3x3 board, for the mover: > 0 wins (larger
    is faster), 0 draws, < 0 loses."""
    flat = np.asarray(board, dtype=np.int64).reshape(-1)
    if flat.shape[0] != 9:
        raise ValueError("minimax is for 3x3 boards only")
    table = minimax_table()
    idx = board_index(flat)
    return {c: -int(table[idx + side * int(_POW3[c])]) for c in range(9) if flat[c] == 0}


def minimax_value(board: np.ndarray) -> int:
    """Game value of a 3x3 board for the side to move: +1 win, 0 draw, -1 loss."""
    return int(np.sign(minimax_table()[board_index(board)]))

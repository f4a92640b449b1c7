"""numba kernels of k-in-a-row: pure functions over flat int8 boards, no Python objects.

A board is the flat view of `rules`' (n, n) array: 0 empty, 1 X, 2 O, `cell = row * n + col`.
Search kernels keep, next to the board, `cnt` (int64 (3, W)): per window of `rules.Geometry`, how
many of its cells are empty (row 0), X (row 1) and O (row 2). `place` / `unplace` update it in
O(windows through the cell), so a window that "would complete a line for a side" is one with
`k - 1` stones of that side and one empty cell, found without rescanning the board.
"""

from __future__ import annotations

import numpy as np
from numba import int64, njit

from arcade_gym.tictactoe.rules import DRAW, ILLEGAL, LINE_DIRECTIONS, ONGOING, WIN

_DR = np.array([dr for dr, _ in LINE_DIRECTIONS], dtype=np.int64)
_DC = np.array([dc for _, dc in LINE_DIRECTIONS], dtype=np.int64)


# --- moves ------------------------------------------------------------------------------------
@njit(cache=True)
def line_through(board: np.ndarray, n: int, k: int, cell: int) -> bool:
    """Whether the stone on `cell` is part of `k` or more in a row (checks only its 4 lines)."""
    side = board[cell]
    if side == 0:
        return False
    r0 = cell // n
    c0 = cell % n
    for d in range(4):
        dr = _DR[d]
        dc = _DC[d]
        run = 1
        r = r0 + dr
        c = c0 + dc
        while 0 <= r < n and 0 <= c < n and board[r * n + c] == side:
            run += 1
            r += dr
            c += dc
        r = r0 - dr
        c = c0 - dc
        while 0 <= r < n and 0 <= c < n and board[r * n + c] == side:
            run += 1
            r -= dr
            c -= dc
        if run >= k:
            return True
    return False


@njit(cache=True)
def apply_move(board: np.ndarray, n: int, k: int, cell: int, side: int, placed: int) -> int:
    """Play `side` on `cell` when it is on the board and empty; `placed` = stones before the move.

    Returns ILLEGAL (board untouched), WIN (the move completed a line), DRAW (board full) or
    ONGOING, so one compiled call does legality, the move and the incremental win check.
    """
    if cell < 0 or cell >= n * n or board[cell] != 0:
        return ILLEGAL
    board[cell] = side
    if line_through(board, n, k, cell):
        return WIN
    if placed + 1 >= n * n:
        return DRAW
    return ONGOING


@njit(cache=True)
def winner(board: np.ndarray, windows: np.ndarray) -> int:
    """The side with a complete window (1 or 2), 0 for none, 3 when both have one (invalid)."""
    found = 0
    k = windows.shape[1]
    for w in range(windows.shape[0]):
        first = board[windows[w, 0]]
        if first == 0:
            continue
        full = True
        for j in range(1, k):
            if board[windows[w, j]] != first:
                full = False
                break
        if full:
            found |= first
    return found


@njit(cache=True)
def legal_mask(board: np.ndarray, mask: np.ndarray) -> int:
    """Write 1 for every empty cell into `mask` (int8); returns how many there are."""
    m = 0
    for c in range(board.shape[0]):
        if board[c] == 0:
            mask[c] = 1
            m += 1
        else:
            mask[c] = 0
    return m


# --- window counts ----------------------------------------------------------------------------
@njit(cache=True)
def window_counts(board: np.ndarray, windows: np.ndarray) -> np.ndarray:
    """`cnt[v, w]`: cells of window w holding value v (0 empty, 1 X, 2 O)."""
    cnt = np.zeros((3, windows.shape[0]), np.int64)
    for w in range(windows.shape[0]):
        for j in range(windows.shape[1]):
            cnt[board[windows[w, j]], w] += 1
    return cnt


@njit(cache=True)
def place(
    board: np.ndarray, cnt: np.ndarray, cell_windows: np.ndarray, cell: int, side: int
) -> None:
    """Put `side` on the empty `cell` and update the window counts."""
    board[cell] = side
    for i in range(cell_windows.shape[1]):
        w = cell_windows[cell, i]
        if w < 0:
            break
        cnt[0, w] -= 1
        cnt[side, w] += 1


@njit(cache=True)
def unplace(board: np.ndarray, cnt: np.ndarray, cell_windows: np.ndarray, cell: int) -> None:
    """Take the stone off `cell` (the inverse of `place`)."""
    side = board[cell]
    board[cell] = 0
    for i in range(cell_windows.shape[1]):
        w = cell_windows[cell, i]
        if w < 0:
            break
        cnt[0, w] += 1
        cnt[side, w] -= 1


@njit(cache=True)
def add_threat(
    board: np.ndarray,
    cnt: np.ndarray,
    windows: np.ndarray,
    w: int,
    side: int,
    out: np.ndarray,
    seen: np.ndarray,
    m: int,
) -> int:
    """If window `w` is one `side` stone short of a line, append its empty square to `out[m]`
    (once: `seen` marks squares already listed). Returns the new count."""
    k = windows.shape[1]
    if cnt[side, w] == k - 1 and cnt[0, w] == 1:
        for j in range(k):
            c = windows[w, j]
            if board[c] == 0:
                if seen[c] == 0:
                    seen[c] = 1
                    out[m] = c
                    m += 1
                break
    return m


@njit(cache=True, locals={"m": int64})
def winning_squares(
    board: np.ndarray,
    cnt: np.ndarray,
    windows: np.ndarray,
    side: int,
    limit: int,
    out: np.ndarray,
    seen: np.ndarray,
) -> int:
    """The distinct empty squares that would complete a line for `side` (its *threats*).

    Writes them into `out` and returns how many, stopping early at `limit` (pass n*n for all).
    `seen` is an all-zero int8 scratch of n*n cells and is all-zero again on return.
    """
    m = 0  # an int64 local: a literal 0 would compile `add_threat` twice
    for w in range(windows.shape[0]):
        m = add_threat(board, cnt, windows, w, side, out, seen, m)
        if m >= limit:
            break
    for i in range(m):
        seen[out[i]] = 0
    return m


@njit(cache=True)
def threat_count(board: np.ndarray, windows: np.ndarray, side: int) -> int:
    """How many distinct squares would complete a line for `side` on this board."""
    n2 = board.shape[0]
    cnt = window_counts(board, windows)
    out = np.empty(n2, np.int64)
    seen = np.zeros(n2, np.int8)
    return winning_squares(board, cnt, windows, side, n2, out, seen)


# --- seeded choices ---------------------------------------------------------------------------
@njit(cache=True)
def _mix(z: np.uint64) -> np.uint64:
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def hash_start(seed: np.uint64) -> np.uint64:
    """The hash state before the first cell (`board_hash`'s chain, one link at a time)."""
    return _mix(seed + np.uint64(0x9E3779B97F4A7C15))


@njit(cache=True, inline="always")
def hash_cell(h: np.uint64, cell: int, value: int) -> np.uint64:
    """The hash state after `cell`, holding `value`, is mixed in."""
    return _mix(h ^ (np.uint64(value) + np.uint64(cell) * np.uint64(3) + np.uint64(1)))


@njit(cache=True, inline="always")
def hash_index(h: np.uint64, m: int) -> int:
    """An index in [0, m) chosen by the hash `h` (m >= 1)."""
    return int(_mix(h) % np.uint64(m))


@njit(cache=True)
def board_hash(board: np.ndarray, seed: np.uint64) -> np.uint64:
    """A 64-bit hash of (seed, board): the key of every seeded, stateless tie-break."""
    h = hash_start(seed)
    for c in range(board.shape[0]):
        h = hash_cell(h, c, board[c])
    return h


@njit(cache=True)
def seeded_pick(cells: np.ndarray, m: int, h: np.uint64) -> int:
    """One of the first `m` entries of `cells`, chosen by the hash `h` (-1 when m == 0)."""
    if m == 0:
        return -1
    return cells[hash_index(h, m)]


@njit(cache=True)
def seeded_empty(board: np.ndarray, seed: np.uint64) -> int:
    """The empty cell `seeded_pick(empty cells in row-major order, m, board_hash(board, seed))`
    would choose, in one call (the random sparring partner's hot path); -1 on a full board."""
    m = 0
    for c in range(board.shape[0]):
        if board[c] == 0:
            m += 1
    if m == 0:
        return -1
    target = hash_index(board_hash(board, seed), m)
    for c in range(board.shape[0]):
        if board[c] == 0:
            if target == 0:
                return c
            target -= 1
    return -1

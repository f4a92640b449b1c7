"""numba kernels of the Minesweeper engine: pure functions over flat numpy arrays.

A game is five preallocated arrays, so one compiled call does a whole step (or a whole reset):

- `field`: int8 (rows*cols,) hidden truth, row-major: `MINE` (9) or the count of neighbouring mines;
- `view`: int8 (rows*cols,) the visible board: `HIDDEN` (-2), `FLAGGED` (-1) or a revealed count.
  Reshaped to (rows, cols) it *is* the observation, kept up to date in place;
- `st`: int64 state vector indexed by the `S_*` constants below;
- `stack`: int32 (rows*cols,) scratch: the flood fill's explicit stack, the mine draw's cell list;
- `mask`: int8 (2*rows*cols,) the legal actions: reveal a hidden unflagged cell, toggle the flag
  of a hidden cell. All zero once the game is over.

Randomness is splitmix64 seeded with the game's 64-bit seed (see `new_board` for the draw order).
"""

from __future__ import annotations

import time

import numpy as np
from numba import int64, njit

from arcade_gym.core.seeding import FNV32_OFFSET, fnv1a32_byte, fnv1a32_word, splitmix64
from arcade_gym.minesweeper.rules import (
    CAPPED,
    FLAGGED,
    HIDDEN,
    LOST,
    MINE,
    PLAYING,
    WON,
)

# --- the state vector -------------------------------------------------------------------------
S_ROWS = 0
S_COLS = 1
S_MINES = 2
S_STATUS = 3  # rules.PLAYING / LOST / WON / CAPPED
S_REVEALED = 4  # safe cells revealed, the opening included (the score)
S_FLAGS = 5  # flags on the board now
S_DECISIONS = 6  # actions applied since the opening
S_MAX_DECISIONS = 7
S_OPENING = 8  # flat index of the opening cell
S_LAST = 9  # flat index of the last cell acted on (the exploded mine after a loss), -1 before
S_REDRAWS = 10  # mine layouts discarded because the opening alone solved them
STATE_LEN = 11

ORDER_SALT = np.uint64(0x6D696E6573776565)  # "mineswee": keeps the action order off the mine draw


# --- randomness -------------------------------------------------------------------------------
@njit(cache=True)
def _below(state: np.ndarray, bound: int) -> int:
    """A draw in [0, bound): the next output modulo `bound` (bias < 2**-54 for our boards)."""
    return int(splitmix64(state) % np.uint64(bound))


@njit(cache=True)
def action_order(seed: np.uint64, decision: int, n: int) -> np.ndarray:
    """A permutation of range(n) keyed by (game seed, decision index): the question's action order.

    The key is mixed through splitmix64 with a salt, so the order says nothing about the mines.
    """
    state = np.empty(1, np.uint64)
    state[0] = seed ^ ORDER_SALT
    state[0] = splitmix64(state) ^ np.uint64(decision)
    state[0] = splitmix64(state)
    order = np.arange(n)
    for k in range(n - 1, 0, -1):
        j = _below(state, k + 1)
        tmp = order[k]
        order[k] = order[j]
        order[j] = tmp
    return order


# --- board construction -----------------------------------------------------------------------
@njit(cache=True)
def compute_counts(field: np.ndarray, rows: int, cols: int) -> None:
    """Write each safe cell's count of neighbouring mines (mines stay `MINE`)."""
    for r in range(rows):
        for c in range(cols):
            i = r * cols + c
            if field[i] == MINE:
                continue
            k = 0
            for dr in range(-1, 2):
                rr = r + dr
                if rr < 0 or rr >= rows:
                    continue
                for dc in range(-1, 2):
                    cc = c + dc
                    if 0 <= cc < cols and field[rr * cols + cc] == MINE:
                        k += 1
            field[i] = k


@njit(cache=True)
def _draw_mines(rng: np.ndarray, field: np.ndarray, st: np.ndarray, cells: np.ndarray) -> None:
    """Place `st[S_MINES]` mines uniformly among the cells outside the opening's 3x3.

    The allowed cells are listed row-major, then a partial Fisher-Yates shuffle draws the mines:
    draw k swaps position k with k + (next output mod the cells left).
    """
    rows = st[S_ROWS]
    cols = st[S_COLS]
    orow = st[S_OPENING] // cols
    ocol = st[S_OPENING] % cols
    m = 0
    for i in range(rows * cols):
        field[i] = 0
        if abs(i // cols - orow) > 1 or abs(i % cols - ocol) > 1:
            cells[m] = i
            m += 1
    for k in range(st[S_MINES]):
        j = k + _below(rng, m - k)
        tmp = cells[k]
        cells[k] = cells[j]
        cells[j] = tmp
        field[cells[k]] = MINE
    compute_counts(field, rows, cols)


@njit(cache=True)
def _end(st: np.ndarray, mask: np.ndarray, status: int) -> None:
    st[S_STATUS] = status
    for a in range(mask.shape[0]):
        mask[a] = 0


@njit(cache=True, locals={"lost": int64, "won": int64})
def _reveal(
    field: np.ndarray,
    view: np.ndarray,
    st: np.ndarray,
    stack: np.ndarray,
    mask: np.ndarray,
    start: int,
) -> int:
    """Reveal `start` (hidden, unflagged); flood-fill through zeros with an explicit stack.

    Returns the safe cells newly revealed (0 on a mine, which ends the game). The fill opens hidden
    neighbours of every revealed zero but leaves flagged cells as they are (the player's flags are
    never changed by the game). Revealing the last safe cell wins.
    """
    st[S_LAST] = start
    lost, won = LOST, WON  # int64 locals: literal statuses would compile `_end` once per status
    if field[start] == MINE:
        _end(st, mask, lost)
        return 0
    rows = st[S_ROWS]
    cols = st[S_COLS]
    n = rows * cols
    view[start] = field[start]
    mask[start] = 0
    mask[n + start] = 0
    gained = 1
    top = 0
    if field[start] == 0:
        stack[0] = start
        top = 1
    while top > 0:
        top -= 1
        i = stack[top]
        r = i // cols
        c = i % cols
        for dr in range(-1, 2):
            rr = r + dr
            if rr < 0 or rr >= rows:
                continue
            for dc in range(-1, 2):
                cc = c + dc
                if cc < 0 or cc >= cols:
                    continue
                j = rr * cols + cc
                if view[j] != HIDDEN:
                    continue
                view[j] = field[j]  # a zero's neighbours are never mines
                mask[j] = 0
                mask[n + j] = 0
                gained += 1
                if field[j] == 0:
                    stack[top] = j
                    top += 1
    st[S_REVEALED] += gained
    if st[S_REVEALED] == n - st[S_MINES]:
        _end(st, mask, won)
    return gained


@njit(cache=True)
def open_board(
    field: np.ndarray, view: np.ndarray, st: np.ndarray, stack: np.ndarray, mask: np.ndarray
) -> int:
    """Start play on a laid `field`: everything hidden, then the opening revealed (flood fill).

    Returns the cells the opening revealed. `mask` is rebuilt.
    """
    for i in range(view.shape[0]):
        view[i] = HIDDEN
    for a in range(mask.shape[0]):
        mask[a] = 1
    st[S_STATUS] = PLAYING
    st[S_REVEALED] = 0
    st[S_FLAGS] = 0
    st[S_DECISIONS] = 0
    opened = _reveal(field, view, st, stack, mask, st[S_OPENING])
    st[S_LAST] = -1
    return opened


@njit(cache=True)
def new_board(
    seed: np.uint64,
    field: np.ndarray,
    view: np.ndarray,
    st: np.ndarray,
    stack: np.ndarray,
    mask: np.ndarray,
) -> int:
    """A whole reset in one call: opening, mines, counts, the opening revealed. Returns its size.

    Draw order from splitmix64(seed): first the opening cell (output mod rows*cols, row-major, so
    every cell is equally likely), then the mines (`_draw_mines`). A layout the opening alone
    solves would ask no question; it is discarded and the mines drawn again from the same stream
    (counted in `st[S_REDRAWS]`).
    """
    rng = np.empty(1, np.uint64)
    rng[0] = seed
    st[S_OPENING] = _below(rng, st[S_ROWS] * st[S_COLS])
    st[S_REDRAWS] = 0
    while True:
        _draw_mines(rng, field, st, stack)
        opened = open_board(field, view, st, stack, mask)
        if st[S_STATUS] != WON:
            return opened
        st[S_REDRAWS] += 1


# --- play -------------------------------------------------------------------------------------
@njit(cache=True, locals={"capped": int64})
def step(
    field: np.ndarray,
    view: np.ndarray,
    st: np.ndarray,
    stack: np.ndarray,
    mask: np.ndarray,
    action: int,
) -> int:
    """Apply one flat action (reveal `i` or toggle the flag of `i - rows*cols`).

    Returns the safe cells newly revealed (>= 0), or -1 for an action the mask forbids (nothing
    changes then). The decision cap ends a game still in play after its last decision.
    """
    n = st[S_ROWS] * st[S_COLS]
    if action < 0 or action >= 2 * n or mask[action] == 0:
        return -1
    st[S_DECISIONS] += 1
    gained = 0
    if action < n:
        gained = _reveal(field, view, st, stack, mask, action)
    else:
        i = action - n
        st[S_LAST] = i
        if view[i] == FLAGGED:
            view[i] = HIDDEN
            st[S_FLAGS] -= 1
            mask[i] = 1
        else:
            view[i] = FLAGGED
            st[S_FLAGS] += 1
            mask[i] = 0
    capped = CAPPED  # an int64 local, as in `_reveal`
    if st[S_STATUS] == PLAYING and st[S_DECISIONS] >= st[S_MAX_DECISIONS]:
        _end(st, mask, capped)
    return gained


@njit(cache=True)
def fill_mask(view: np.ndarray, st: np.ndarray, mask: np.ndarray) -> None:
    """Rebuild `mask` from `view` and the status (after the arrays were set from outside)."""
    n = view.shape[0]
    playing = st[S_STATUS] == PLAYING
    for i in range(n):
        mask[i] = 1 if playing and view[i] == HIDDEN else 0
        mask[n + i] = 1 if playing and view[i] < 0 else 0


# --- hashing ----------------------------------------------------------------------------------
@njit(cache=True)
def state_hash(view: np.ndarray, st: np.ndarray) -> np.uint32:
    """FNV-1a over what a player can see: size, mines, status, counters and the visible board.

    The hidden field and the seed are left out, so the hash discloses nothing about the mines.
    """
    h = np.uint32(FNV32_OFFSET)
    for k in range(S_DECISIONS + 1):
        h = fnv1a32_word(h, st[k])
    for i in range(view.shape[0]):
        h = fnv1a32_byte(h, int(view[i]))
    return h


def warmup() -> float:
    """Compile (or load from numba's cache) every kernel on a tiny board; returns the seconds."""
    t0 = time.perf_counter()
    n = 16
    field = np.zeros(n, np.int8)
    view = np.zeros(n, np.int8)
    st = np.zeros(STATE_LEN, np.int64)
    st[S_ROWS], st[S_COLS], st[S_MINES], st[S_MAX_DECISIONS] = 4, 4, 2, 10
    stack = np.zeros(n, np.int32)
    mask = np.zeros(2 * n, np.int8)
    new_board(np.uint64(1), field, view, st, stack, mask)
    step(field, view, st, stack, mask, int(np.flatnonzero(mask)[0]))
    fill_mask(view, st, mask)
    state_hash(view, st)
    action_order(np.uint64(1), 0, 4)
    return time.perf_counter() - t0

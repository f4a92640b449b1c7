"""numba kernels of Sudoku: the bitmask solver, the seeded full-grid and clue-removal generator,
and the env step. Pure functions over numpy arrays.

A grid is int8 (81,) row-major, 0 for blanks. Candidates are int32 bitmasks, bit d-1 for digit d.
The solver propagates naked and hidden singles to a fixed point, then branches on the unsolved
cell with the fewest candidates, counting solutions up to a limit; a *guess* is one digit tried
at a branch point (a grid that propagation alone finishes needs 0 guesses). Uniqueness is
"the count stops at 1 with limit 2".

Compile time: numba compiles a kernel once per argument types and a literal constant is a type of
its own, so constants and int8 digits handed to another kernel go through int64 locals
(`locals=`), and grids are copied in loops (a slice copy compiles numba's shape-error message).
"""

from __future__ import annotations

import time

import numpy as np
from numba import boolean as numba_bool
from numba import int64, njit

from arcade_gym.core.seeding import splitmix64
from arcade_gym.sudoku.rules import ALL_DIGITS, CELLS, PEERS, UNITS


def _tables() -> tuple[np.ndarray, np.ndarray]:
    popcount = np.array([bin(m).count("1") for m in range(512)], dtype=np.int64)
    lowest = np.array([(m & -m).bit_length() if m else 0 for m in range(512)], dtype=np.int64)
    return popcount, lowest


POPCOUNT, LOWEST_DIGIT = _tables()
"""Bits set in a 9-bit mask, and the lowest digit (1..9) in it (0 for an empty mask)."""


@njit(cache=True)
def place(g: np.ndarray, cand: np.ndarray, cell: int, digit: int) -> bool:
    """Write `digit` in `cell` and strike it from the peers; False if it was not a candidate."""
    bit = 1 << (digit - 1)
    if (cand[cell] & bit) == 0:
        return False
    g[cell] = digit
    cand[cell] = bit
    for k in range(20):
        cand[PEERS[cell, k]] &= ~bit
    return True


@njit(cache=True, locals={"d": int64})
def init_candidates(puzzle: np.ndarray, g: np.ndarray, cand: np.ndarray) -> bool:
    """Fill `g`/`cand` from the givens of `puzzle`; False if two givens clash."""
    for i in range(CELLS):
        g[i] = 0
        cand[i] = ALL_DIGITS
    for i in range(CELLS):
        d = puzzle[i]
        if d != 0 and not place(g, cand, i, d):
            return False
    return True


@njit(cache=True)
def propagate(g: np.ndarray, cand: np.ndarray) -> bool:
    """Naked and hidden singles to a fixed point; False on a contradiction."""
    changed = True
    while changed:
        changed = False
        for i in range(CELLS):
            if g[i] == 0:
                m = cand[i]
                if m == 0:
                    return False
                if (m & (m - 1)) == 0:
                    if not place(g, cand, i, LOWEST_DIGIT[m]):
                        return False
                    changed = True
        for u in range(27):
            once = 0
            twice = 0
            placed = 0
            for k in range(9):
                c = UNITS[u, k]
                if g[c] != 0:
                    placed |= 1 << (g[c] - 1)
                else:
                    m = cand[c]
                    twice |= once & m
                    once |= m
            if (once | placed) != ALL_DIGITS:
                return False
            only = once & ~twice & ~placed
            if only != 0:
                for k in range(9):
                    c = UNITS[u, k]
                    if g[c] == 0:
                        m = cand[c] & only
                        if m != 0:
                            if (m & (m - 1)) != 0:
                                return False
                            if not place(g, cand, c, LOWEST_DIGIT[m]):
                                return False
                            changed = True
    return True


@njit(cache=True)
def _branch_cell(g: np.ndarray, cand: np.ndarray) -> int:
    """The unsolved cell with the fewest candidates (first in row-major order), -1 if none."""
    best = -1
    best_n = 10
    for i in range(CELLS):
        if g[i] == 0:
            n = POPCOUNT[cand[i]]
            if n < best_n:
                best_n = n
                best = i
                if n == 2:
                    break
    return best


@njit(cache=True)
def search(
    puzzle: np.ndarray, limit: int, solutions: np.ndarray, rng: np.ndarray, randomize: bool
) -> tuple[int, int]:
    """Count the solutions of `puzzle` up to `limit`; `(count, guesses)`.

    The k-th solution found is written to `solutions[k]` (int8 (m, 81)) while k < m. With
    `randomize`, branch digits are tried in an order drawn from the splitmix64 state `rng` (the
    generator's full grids).
    """
    gs = np.zeros((CELLS + 1, CELLS), np.int8)
    cs = np.zeros((CELLS + 1, CELLS), np.int32)
    br_rest = np.zeros(CELLS + 1, np.int32)
    br_cell = np.zeros(CELLS + 1, np.int64)
    if not init_candidates(puzzle, gs[0], cs[0]) or not propagate(gs[0], cs[0]):
        return 0, 0
    count = 0
    guesses = 0
    depth = 0
    expand = True
    while depth >= 0:
        if expand:
            cell = _branch_cell(gs[depth], cs[depth])
            if cell < 0:
                count += 1
                if count <= solutions.shape[0]:
                    for i in range(CELLS):
                        solutions[count - 1, i] = gs[depth, i]
                if count >= limit:
                    break
                depth -= 1
                expand = False
                continue
            br_cell[depth] = cell
            br_rest[depth] = cs[depth, cell]
        rest = br_rest[depth]
        if rest == 0:
            depth -= 1
            expand = False
            continue
        if randomize:
            pick = int(splitmix64(rng) % np.uint64(POPCOUNT[rest]))
            bit = rest & -rest
            for _ in range(pick):
                rest &= ~bit
                bit = rest & -rest
        else:
            bit = rest & -rest
        br_rest[depth] &= ~bit
        guesses += 1
        for i in range(CELLS):
            gs[depth + 1, i] = gs[depth, i]
            cs[depth + 1, i] = cs[depth, i]
        if place(gs[depth + 1], cs[depth + 1], br_cell[depth], LOWEST_DIGIT[bit]) and propagate(
            gs[depth + 1], cs[depth + 1]
        ):
            depth += 1
            expand = True
        else:
            expand = False
    return count, guesses


@njit(cache=True, locals={"unique": int64, "in_order": numba_bool})
def dig(solution: np.ndarray, rng: np.ndarray) -> np.ndarray:
    """A minimal puzzle of `solution`: clues removed in a random order while the solution stays
    unique (every remaining clue is needed)."""
    puzzle = solution.copy()
    order = np.arange(CELLS)
    for k in range(CELLS - 1, 0, -1):
        j = int(splitmix64(rng) % np.uint64(k + 1))
        tmp = order[k]
        order[k] = order[j]
        order[j] = tmp
    scratch = np.zeros((1, CELLS), np.int8)
    unique = 2  # typed locals: `search` compiles once, for (int64, bool)
    in_order = False
    for k in range(CELLS):
        cell = order[k]
        keep = puzzle[cell]
        puzzle[cell] = 0
        count, _ = search(puzzle, unique, scratch, rng, in_order)
        if count != 1:
            puzzle[cell] = keep
    return puzzle


@njit(cache=True, locals={"first": int64, "shuffled": numba_bool})
def new_puzzle(seed: np.uint64, solution: np.ndarray) -> np.ndarray:
    """A random full grid (written to `solution`) and a minimal unique puzzle of it, both drawn
    from the splitmix64 stream of `seed`."""
    rng = np.empty(1, np.uint64)
    rng[0] = seed
    empty = np.zeros(CELLS, np.int8)
    first = 1  # typed locals, as in `dig`
    shuffled = True
    search(empty, first, solution.reshape(1, CELLS), rng, shuffled)
    return dig(solution, rng)


# --- the env ----------------------------------------------------------------------------------
@njit(cache=True)
def fill_mask(board: np.ndarray, cand: np.ndarray, mask: np.ndarray) -> int:
    """Recompute the candidate bitmasks of `board` (placed digits break no constraint; 0 for a
    filled cell) and the (81*9,) action mask; returns how many actions are legal."""
    legal = 0
    for i in range(CELLS):
        if board[i] != 0:
            cand[i] = 0
            for d in range(9):
                mask[i * 9 + d] = 0
            continue
        m = ALL_DIGITS
        for k in range(20):
            d = board[PEERS[i, k]]
            if d != 0:
                m &= ~(1 << (d - 1))
        cand[i] = m
        for d in range(9):
            on = (m >> d) & 1
            mask[i * 9 + d] = on
            legal += on
    return legal


@njit(cache=True)
def step(
    board: np.ndarray, cand: np.ndarray, mask: np.ndarray, solution: np.ndarray, action: int
) -> tuple[int, int]:
    """Play `action` = cell*9 + digit-1 (legal: the caller checked the mask) and update the
    candidates and mask incrementally; `(1 if the digit is the solution's else -1, legal left)`."""
    cell = action // 9
    digit = action % 9 + 1
    bit = 1 << (digit - 1)
    board[cell] = digit
    cand[cell] = 0
    for d in range(9):
        mask[cell * 9 + d] = 0
    for k in range(20):
        p = PEERS[cell, k]
        if cand[p] & bit:
            cand[p] &= ~bit
            mask[p * 9 + digit - 1] = 0
    legal = 0
    for i in range(CELLS * 9):
        legal += mask[i]
    return (1 if solution[cell] == digit else -1), legal


def warmup() -> float:
    """Compile (or load from numba's cache) every kernel once; returns the seconds."""
    t0 = time.perf_counter()
    solution = np.zeros(CELLS, np.int8)
    puzzle = new_puzzle(np.uint64(1), solution)
    search(puzzle, 2, np.zeros((2, CELLS), np.int8), np.zeros(1, np.uint64), False)
    cand = np.zeros(CELLS, np.int32)
    mask = np.zeros(CELLS * 9, np.int8)
    board = puzzle.copy()
    fill_mask(board, cand, mask)
    step(board, cand, mask, solution, int(np.flatnonzero(mask)[0]))
    return time.perf_counter() - t0

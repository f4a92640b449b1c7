"""The exact-probability Minesweeper solver behind `HeuristicMinesweeper` (`baselines.py`).

The solver reads only the question's number grid and mine total. Flags are not trusted (a policy
may be handed a board someone else flagged wrongly): a flagged cell is an unknown cell, and the
solver unflags it first when it wants to reveal it.

How `HeuristicMinesweeper` chooses:

1. Constraints: each revealed number n says its unknown neighbours hold n mines. The trivial rules
   (n mines left among exactly n cells: all mines; none left: all safe) are applied to a fixed
   point; a certainly-safe cell found here is revealed at once.
2. Otherwise the remaining frontier (unknown cells next to a number) splits into components that
   share no constraint. Each component is enumerated exactly by backtracking: for every count m of
   mines in it, the number of consistent assignments W[m] and, per cell, how many of those mine it.
3. The components are combined with the unconstrained interior through the global mine count: a
   frontier total t leaves `mines - t` mines for the k interior cells, in C(k, mines - t) ways. This
   gives each cell's exact probability of holding a mine.
4. A cell with probability 0 is revealed; else the lowest probability is guessed, ties going to the
   cell with the fewest unknown neighbours (corners and edges open more often), then row-major.

A component whose enumeration exceeds `node_budget` search nodes falls back to an approximation
(the mean mine density of its constraints), so a hard board never stalls.
"""

from __future__ import annotations

import numpy as np

from policies.minesweeper.solver_kernels import (
    MINE,
    OPEN,
    SAFE,
    UNKNOWN,
    combine,
    count_component,
    deduce,
    frontier_components,
)

EXACT, APPROXIMATE, INCONSISTENT, SAFE_FOUND = 0, 1, 2, 3
"""Outcomes of `analyse`."""

NODE_BUDGET = 2_000_000
"""Default search nodes per component before falling back to the approximation."""


def analyse(
    grid: np.ndarray, mines: int, node_budget: int = NODE_BUDGET, full: bool = True
) -> tuple[np.ndarray, int]:
    """Mine probabilities of every cell of `grid` (int8 (rows, cols): -2 hidden, -1 flagged,
    0..8 revealed) on a board of `mines` mines: float64 of the grid's shape, -1 on revealed cells.

    Returns (probs, status): `EXACT`, `APPROXIMATE` (a component hit the node budget, or the
    numbers and the mine total disagree), `INCONSISTENT` (no layout fits the numbers; probs are the
    plain density) or, when `full` is False and the trivial rules found a certainly-safe cell,
    `SAFE_FOUND` with only the decided cells filled in (0 or 1) and NaN elsewhere.
    """
    grid = np.ascontiguousarray(grid, dtype=np.int8)
    if grid.ndim != 2:
        raise ValueError(f"grid must be 2-D (rows, cols), got shape {grid.shape}")
    rows, cols = grid.shape
    n = rows * cols
    known = np.empty(n, np.int8)
    cons_cells = np.empty((n, 8), np.int64)
    cons_len = np.zeros(n, np.int64)
    cons_need = np.zeros(n, np.int64)
    ncons, consistent = deduce(grid, known, cons_cells, cons_len, cons_need)
    unknown = known != OPEN
    plain_density = np.where(unknown, min(1.0, mines / max(1, int(unknown.sum()))), -1.0)
    if not consistent:
        return plain_density.reshape(rows, cols), INCONSISTENT
    flat = np.select([known == OPEN, known == SAFE, known == MINE], [-1.0, 0.0, 1.0], np.nan)
    probs = flat.reshape(rows, cols)
    if not full and (known == SAFE).any():
        return probs, SAFE_FOUND
    comp_id = np.full(n, -1, np.int64)
    comp_size = np.zeros(n, np.int64)
    comp_start = np.zeros(n, np.int64)
    cell_cons = np.empty((n, 8), np.int64)
    cell_ncons = np.zeros(n, np.int64)
    ncomp = int(
        frontier_components(
            known,
            cons_cells,
            cons_len,
            ncons,
            comp_id,
            comp_size,
            comp_start,
            cell_cons,
            cell_ncons,
        )
    )
    sizes = comp_size[:ncomp]
    max_size = int(sizes.max()) if ncomp else 0
    comp_W = np.zeros((ncomp, max_size + 1))
    cell_N = np.zeros((n, max_size + 1))
    order = np.empty(max(1, max_size), np.int64)
    status = EXACT
    mines_left = mines - int((known == MINE).sum())
    for q in range(ncomp):
        size = int(sizes[q])
        W = np.zeros(size + 1)
        N = np.zeros((size, size + 1))
        exact = count_component(
            comp_start[q],
            size,
            known,
            cons_cells,
            cons_len,
            cons_need,
            cell_cons,
            cell_ncons,
            mines_left,
            node_budget,
            order,
            W,
            N,
        )
        if not exact:
            status = APPROXIMATE
        scale = W.max()  # counts can be huge: scale each component, the scales cancel in Z
        if scale == 0.0:  # no assignment fits these numbers (and the mines left)
            return plain_density.reshape(rows, cols), INCONSISTENT
        comp_W[q, : size + 1] = W / scale
        cell_N[order[:size], : size + 1] = N / scale
    interior = (known == UNKNOWN) & (comp_id < 0)
    G = np.zeros((ncomp, max_size + 1))
    Z, interior_p, dropped = combine(comp_W, sizes, int(interior.sum()), mines_left, G)
    if dropped:
        status = APPROXIMATE
    flat[interior] = interior_p
    frontier = np.flatnonzero(comp_id >= 0)
    flat[frontier] = np.minimum(1.0, (cell_N[frontier] * G[comp_id[frontier]]).sum(axis=1) / Z)
    return probs, status


def mine_probabilities(
    grid: np.ndarray | list[list[int]], mines: int, *, node_budget: int = NODE_BUDGET
) -> tuple[np.ndarray, int]:
    """Each cell's probability of holding a mine, and how it was computed.

    `grid` is the visible board (-2 hidden, -1 flagged, 0..8 revealed; flags are treated as
    unknown cells), `mines` the board's total. Returns `(probs, status)`: probs float64 of the
    grid's shape with -1 on revealed cells; status `EXACT`, `APPROXIMATE` or `INCONSISTENT`.
    """
    return analyse(np.asarray(grid), int(mines), int(node_budget), True)


def _unknown_neighbours(unknown: np.ndarray) -> np.ndarray:
    """Per cell, how many of its neighbours are unknown (hidden or flagged)."""
    padded = np.pad(unknown.astype(np.int64), 1)
    rows, cols = unknown.shape
    total = np.zeros((rows, cols), np.int64)
    for dr in range(3):
        for dc in range(3):
            if dr != 1 or dc != 1:
                total += padded[dr : dr + rows, dc : dc + cols]
    return total


def choose_cell(
    grid: np.ndarray, mines: int, *, node_budget: int = NODE_BUDGET
) -> tuple[int, int, float]:
    """`(row, col, p)`: the cell to reveal next and its mine probability.

    A certainly-safe cell when there is one (first row-major), else the least likely mine; ties
    go to the fewest unknown neighbours (a corner or edge is likelier to be a zero that opens an
    area), then row-major.
    """
    board = np.ascontiguousarray(grid, dtype=np.int8)
    probs, _ = analyse(board, int(mines), int(node_budget), False)
    safe = np.flatnonzero(probs.ravel() == 0.0)
    if safe.size:
        row, col = divmod(int(safe[0]), board.shape[1])
        return row, col, 0.0
    candidates = probs >= 0.0
    best = probs[candidates].min()
    tied = candidates & (probs <= best + 1e-9)
    crowd = np.where(tied, _unknown_neighbours(board < 0), np.iinfo(np.int64).max)
    row, col = divmod(int(np.argmin(crowd)), board.shape[1])
    return row, col, float(probs[row, col])


def warmup() -> None:
    """Compile the solver's kernels (`python -m policies.build_cache`): the heuristic plays two
    easy games to their end (their guesses need the enumeration kernels, not only deduction)."""
    from arcade_gym.minesweeper.game import MinesweeperGame
    from arcade_gym.minesweeper.render import board_view

    for seed in ("warmup-1", "warmup-2"):
        game = MinesweeperGame(seed)
        while not game.over:
            question = game.question()
            row, col, _ = choose_cell(board_view(question.board), question.mines)
            game.reveal(row, col)

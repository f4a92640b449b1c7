"""Minesweeper baselines: a seeded random revealer and an exact-probability constraint solver.

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

import math

import numpy as np
from numba import njit

from arcade_gym.minesweeper.contract import MinesweeperAnswer, MinesweeperQuestion
from arcade_gym.minesweeper.render import board_view
from arcade_gym.minesweeper.rules import FLAG_CHAR
from policies.base import DecisionContext, PolicyIdentity

EXACT, APPROXIMATE, INCONSISTENT, SAFE_FOUND = 0, 1, 2, 3
"""Outcomes of `analyse`."""

NODE_BUDGET = 2_000_000
"""Default search nodes per component before falling back to the approximation."""

_UNKNOWN, _SAFE, _MINE, _OPEN = -1, 0, 1, -2


# --------------------------------------------------------------------------------------------
# Kernels
# --------------------------------------------------------------------------------------------
@njit(cache=True)
def _minus_ones(n: int) -> np.ndarray:
    """np.full(n, -1), written as a loop: numba compiles it far faster."""
    out = np.empty(n, np.int64)
    for i in range(n):
        out[i] = -1
    return out


@njit(cache=True)
def _find(parent: np.ndarray, i: int) -> int:
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


@njit(cache=True)
def _enumerate(
    size: int,
    cell_cons: np.ndarray,
    cell_ncons: np.ndarray,
    need: np.ndarray,
    rem: np.ndarray,
    max_mines: int,
    budget: int,
    W: np.ndarray,
    N: np.ndarray,
) -> bool:
    """Count every assignment of `size` cells consistent with the local constraints.

    Iterative backtracking in cell order; a value is tried only when every constraint of the cell
    can still be met (0 <= mines still needed <= cells still unassigned). `W[m]` counts the
    solutions with m mines, `N[j, m]` those that also mine cell j. False when `budget` nodes ran
    out (the counts are then partial and must not be used).
    """
    assign = _minus_ones(size)
    mines = 0
    nodes = 0
    i = 0
    while i >= 0:
        if i == size:
            W[mines] += 1.0
            for j in range(size):
                if assign[j] == 1:
                    N[j, mines] += 1.0
            i -= 1
            continue
        v = assign[i]
        if v >= 0:  # undo the value tried last, then try the next one
            for k in range(cell_ncons[i]):
                c = cell_cons[i, k]
                rem[c] += 1
                need[c] += v
            mines -= v
        placed = False
        v += 1
        while v <= 1:
            ok = mines + v <= max_mines
            if ok:
                for k in range(cell_ncons[i]):
                    c = cell_cons[i, k]
                    left = need[c] - v
                    if left < 0 or left > rem[c] - 1:
                        ok = False
                        break
            if ok:
                placed = True
                break
            v += 1
        if not placed:
            assign[i] = -1
            i -= 1
            continue
        assign[i] = v
        for k in range(cell_ncons[i]):
            c = cell_cons[i, k]
            rem[c] -= 1
            need[c] -= v
        mines += v
        nodes += 1
        if nodes > budget:
            return False
        i += 1
    return True


@njit(cache=True)
def _propagate(
    known: np.ndarray,
    cons_cells: np.ndarray,
    cons_len: np.ndarray,
    cons_need: np.ndarray,
    ncons: int,
) -> bool:
    """Apply the trivial rules to a fixed point; False when a constraint cannot be met."""
    changed = True
    while changed:
        changed = False
        for c in range(ncons):
            unk = 0
            mines = 0
            for k in range(cons_len[c]):
                s = known[cons_cells[c, k]]
                if s == _UNKNOWN:
                    unk += 1
                elif s == _MINE:
                    mines += 1
            left = cons_need[c] - mines
            if left < 0 or left > unk:
                return False
            if unk == 0 or (left != 0 and left != unk):
                continue
            value = _SAFE if left == 0 else _MINE
            for k in range(cons_len[c]):
                cell = cons_cells[c, k]
                if known[cell] == _UNKNOWN:
                    known[cell] = value
            changed = True
    return True


@njit(cache=True)
def _conv_into(a: np.ndarray, b: np.ndarray, b_len: int, out: np.ndarray) -> None:
    """`out` = the product of polynomials a and b[:b_len], truncated to out's length."""
    for k in range(out.shape[0]):
        out[k] = 0.0
    for i in range(a.shape[0]):
        if a[i] != 0.0:
            for j in range(min(b_len, out.shape[0] - i)):
                out[i + j] += a[i] * b[j]


@njit(cache=True)
def _log_comb(n: int, r: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(r + 1) - math.lgamma(n - r + 1)


@njit(cache=True)
def _deduce(
    grid: np.ndarray,
    known: np.ndarray,
    cons_cells: np.ndarray,
    cons_len: np.ndarray,
    cons_need: np.ndarray,
) -> tuple[int, bool]:
    """Build the constraints and apply the trivial rules.

    `known` (one per cell) comes back `_OPEN` for revealed cells, else `_SAFE` / `_MINE` when
    the trivial rules decide the cell, `_UNKNOWN` otherwise. One constraint per revealed number
    with unknown neighbours (hidden or flagged). Returns (constraints written, consistent).
    """
    rows, cols = grid.shape
    for i in range(rows * cols):
        known[i] = _UNKNOWN if grid[i // cols, i % cols] < 0 else _OPEN
    ncons = 0
    consistent = True
    for r in range(rows):
        for c in range(cols):
            v = grid[r, c]
            if v < 0:
                continue
            k = 0
            for rr in range(max(0, r - 1), min(rows, r + 2)):
                for cc in range(max(0, c - 1), min(cols, c + 2)):
                    j = rr * cols + cc
                    if known[j] == _UNKNOWN:
                        cons_cells[ncons, k] = j
                        k += 1
            if v > k:
                consistent = False  # more mines than unknown neighbours
            if k > 0:
                cons_len[ncons] = k
                cons_need[ncons] = v
                ncons += 1
    if consistent:
        consistent = _propagate(known, cons_cells, cons_len, cons_need, ncons)
    return ncons, consistent


@njit(cache=True)
def _frontier(
    known: np.ndarray,
    cons_cells: np.ndarray,
    cons_len: np.ndarray,
    ncons: int,
    comp_id: np.ndarray,
    comp_size: np.ndarray,
    comp_start: np.ndarray,
    cell_cons: np.ndarray,
    cell_ncons: np.ndarray,
) -> int:
    """Label the frontier (unknown cells in a constraint) by connected component, cells being
    connected when they share a constraint (union-find).

    Writes `comp_id` per cell (-1 off the frontier), each component's size and first cell, and
    each frontier cell's constraints. Returns the number of components.
    """
    n = known.shape[0]
    parent = np.arange(n)
    for c in range(ncons):
        first = -1
        for k in range(cons_len[c]):
            cell = cons_cells[c, k]
            if known[cell] != _UNKNOWN:
                continue
            cell_cons[cell, cell_ncons[cell]] = c
            cell_ncons[cell] += 1
            if first < 0:
                first = cell
            else:
                a = _find(parent, first)
                b = _find(parent, cell)
                if a != b:
                    parent[b] = a
    ncomp = 0
    for i in range(n):
        if cell_ncons[i] == 0:
            continue
        root = _find(parent, i)
        if comp_id[root] < 0:
            comp_id[root] = ncomp
            comp_start[ncomp] = i
            ncomp += 1
        comp_id[i] = comp_id[root]
        comp_size[comp_id[i]] += 1
    return ncomp


@njit(cache=True)
def _count_component(
    start: int,
    size: int,
    known: np.ndarray,
    cons_cells: np.ndarray,
    cons_len: np.ndarray,
    cons_need: np.ndarray,
    cell_cons_g: np.ndarray,
    cell_ncons_g: np.ndarray,
    mines_left: int,
    node_budget: int,
    order: np.ndarray,
    W: np.ndarray,
    N: np.ndarray,
) -> bool:
    """Solution counts of the component holding `start`: its cells in `order` (BFS through shared
    constraints, so constraints close early in the search), `W[m]` and `N[j, m]` as in
    `_enumerate`. Past the node budget, an approximation (each cell at the mean density of its
    constraints, the mine count fixed at their rounded sum) and False."""
    n = known.shape[0]
    local = _minus_ones(n)
    order[0] = start
    local[start] = 0
    head = 0
    tail = 1
    while head < tail:
        cell = order[head]
        head += 1
        for k in range(cell_ncons_g[cell]):
            c = cell_cons_g[cell, k]
            for t in range(cons_len[c]):
                other = cons_cells[c, t]
                if known[other] == _UNKNOWN and local[other] < 0:
                    local[other] = tail
                    order[tail] = other
                    tail += 1
    cons_local = _minus_ones(cons_len.shape[0])
    need = np.zeros(cons_len.shape[0], np.int64)
    rem = np.zeros(cons_len.shape[0], np.int64)
    cell_cons = np.empty((size, 8), np.int64)
    cell_ncons = np.zeros(size, np.int64)
    nloc = 0
    for j in range(size):
        cell = order[j]
        for k in range(cell_ncons_g[cell]):
            c = cell_cons_g[cell, k]
            if cons_local[c] < 0:
                cons_local[c] = nloc
                unk = 0
                m = 0
                for t in range(cons_len[c]):
                    s = known[cons_cells[c, t]]
                    if s == _UNKNOWN:
                        unk += 1
                    elif s == _MINE:
                        m += 1
                need[nloc] = cons_need[c] - m
                rem[nloc] = unk
                nloc += 1
            cell_cons[j, cell_ncons[j]] = cons_local[c]
            cell_ncons[j] += 1
    if _enumerate(
        size, cell_cons, cell_ncons, need.copy(), rem.copy(), mines_left, node_budget, W, N
    ):
        return True
    density = np.zeros(size)
    expected = 0.0
    for j in range(size):
        for k in range(cell_ncons[j]):
            lc = cell_cons[j, k]
            density[j] += need[lc] / rem[lc]
        density[j] /= cell_ncons[j]
        expected += density[j]
    m_hat = min(size, max(0, int(expected + 0.5)))
    for m in range(size + 1):
        W[m] = 1.0 if m == m_hat else 0.0
        for j in range(size):
            N[j, m] = density[j] if m == m_hat else 0.0
    return False


@njit(cache=True)
def _combine(
    comp_W: np.ndarray, comp_size: np.ndarray, interior: int, mines_left: int, G: np.ndarray
) -> tuple[float, float, bool]:
    """Weigh the components' mine counts by the ways to place the other mines in the interior.

    A frontier total t leaves `mines_left - t` mines for the `interior` cells: weight
    C(interior, mines_left - t), taken in logs and scaled so nothing overflows. Writes
    `G[q, m]`: the weight of component q holding m mines, summed over the other components.
    Returns (Z, interior probability, whether the mine total had to be dropped because no layout
    fits it).
    """
    ncomp = comp_size.shape[0]
    total = 0
    for q in range(ncomp):
        total += comp_size[q]
    logw = np.zeros(total + 1)
    top = -np.inf
    for t in range(total + 1):
        r = mines_left - t
        logw[t] = _log_comb(interior, r) if 0 <= r <= interior else -np.inf
        top = max(top, logw[t])
    weight = np.zeros(total + 1)
    if top > -np.inf:
        for t in range(total + 1):
            weight[t] = math.exp(logw[t] - top)
    prefix = np.zeros((ncomp + 1, total + 1))
    suffix = np.zeros((ncomp + 1, total + 1))
    prefix[0, 0] = 1.0
    suffix[ncomp, 0] = 1.0
    for q in range(ncomp):
        _conv_into(prefix[q], comp_W[q], comp_size[q] + 1, prefix[q + 1])
    for q in range(ncomp - 1, -1, -1):
        _conv_into(suffix[q + 1], comp_W[q], comp_size[q] + 1, suffix[q])
    others = np.zeros(total + 1)
    Z = 0.0
    mass = 0.0
    for t in range(total + 1):
        Z += prefix[ncomp, t] * weight[t]
        if interior > 0:
            mass += prefix[ncomp, t] * weight[t] * (mines_left - t) / interior
    dropped = Z <= 0.0
    if dropped:  # a hand-made board whose numbers and mine total disagree: drop the total
        Z = 0.0
        for t in range(total + 1):
            weight[t] = 1.0
            Z += prefix[ncomp, t]
        mass = max(0.0, min(1.0, mines_left / max(1, interior + total))) * Z
    for q in range(ncomp):
        _conv_into(prefix[q], suffix[q + 1], total + 1, others)
        for m in range(comp_size[q] + 1):
            acc = 0.0
            for t in range(total + 1 - m):
                acc += others[t] * weight[m + t]
            G[q, m] = acc
    return Z, mass / Z, dropped


# --------------------------------------------------------------------------------------------
# Python API
# --------------------------------------------------------------------------------------------
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
    ncons, consistent = _deduce(grid, known, cons_cells, cons_len, cons_need)
    unknown = known != _OPEN
    plain_density = np.where(unknown, min(1.0, mines / max(1, int(unknown.sum()))), -1.0)
    if not consistent:
        return plain_density.reshape(rows, cols), INCONSISTENT
    flat = np.select([known == _OPEN, known == _SAFE, known == _MINE], [-1.0, 0.0, 1.0], np.nan)
    probs = flat.reshape(rows, cols)
    if not full and (known == _SAFE).any():
        return probs, SAFE_FOUND
    comp_id = np.full(n, -1, np.int64)
    comp_size = np.zeros(n, np.int64)
    comp_start = np.zeros(n, np.int64)
    cell_cons = np.empty((n, 8), np.int64)
    cell_ncons = np.zeros(n, np.int64)
    ncomp = int(
        _frontier(
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
    mines_left = mines - int((known == _MINE).sum())
    for q in range(ncomp):
        size = int(sizes[q])
        W = np.zeros(size + 1)
        N = np.zeros((size, size + 1))
        exact = _count_component(
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
    interior = (known == _UNKNOWN) & (comp_id < 0)
    G = np.zeros((ncomp, max_size + 1))
    Z, interior_p, dropped = _combine(comp_W, sizes, int(interior.sum()), mines_left, G)
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


def _reveal_text(question: MinesweeperQuestion, row: int, col: int) -> str:
    """Reveal (row, col), or unflag it first when it carries a flag."""
    flagged = question.board[row][col] == FLAG_CHAR
    return f"{'flag' if flagged else 'reveal'} {row} {col}"


class RandomMinesweeper(PolicyIdentity):
    """Uniform over the listed reveal actions, keyed by (seed, decision, state hash): stateless and
    deterministic, so a replay reproduces the game."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(
            slug="random",
            name="Random",
            description="Uniform random reveal among the legal ones, seeded per decision",
            kind="baseline",
            adapter_version="1",
        )
        self.seed = int(seed)

    def act(
        self, question: MinesweeperQuestion, ctx: DecisionContext | None = None
    ) -> MinesweeperAnswer:
        """Draw one listed reveal (a flag toggle only if nothing can be revealed)."""
        reveals = [a for a in question.actions if a.startswith("reveal")] or question.actions
        rng = np.random.default_rng(
            [self.seed % 2**63, question.decision, int(question.state_hash, 16)]
        )
        return MinesweeperAnswer(action=reveals[int(rng.integers(len(reveals)))])


class HeuristicMinesweeper(PolicyIdentity):
    """Exact mine probabilities by constraint enumeration; reveals a safe cell, else the least
    likely mine (see the module docstring). Never flags: flags cost decisions and change nothing."""

    def __init__(self, node_budget: int = NODE_BUDGET) -> None:
        super().__init__(
            slug="heuristic",
            name="Heuristic",
            description="Constraint solver: exact mine probabilities, safest reveal",
            kind="heuristic",
            adapter_version="1",
        )
        if node_budget < 1:
            raise ValueError(f"node_budget must be >= 1, got {node_budget}")
        self.node_budget = int(node_budget)

    def act(
        self, question: MinesweeperQuestion, ctx: DecisionContext | None = None
    ) -> MinesweeperAnswer:
        """Reveal the safest cell of the question's board."""
        grid = board_view(question.board)
        row, col, _ = choose_cell(grid, question.mines, node_budget=self.node_budget)
        return MinesweeperAnswer(action=_reveal_text(question, row, col))

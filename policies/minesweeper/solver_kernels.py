"""The numba kernels of the Minesweeper solver (`solver.py`): trivial deductions, the frontier's
components, exact enumeration of a component and the combination through the mine total.

Cells are flat indices (row-major); `known` holds one state per cell (`UNKNOWN`, `SAFE`, `MINE`,
`OPEN` for a revealed number).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

UNKNOWN, SAFE, MINE, OPEN = -1, 0, 1, -2
"""A cell's state in `known`: undecided, certainly safe, certainly a mine, revealed."""


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
                if s == UNKNOWN:
                    unk += 1
                elif s == MINE:
                    mines += 1
            left = cons_need[c] - mines
            if left < 0 or left > unk:
                return False
            if unk == 0 or (left != 0 and left != unk):
                continue
            value = SAFE if left == 0 else MINE
            for k in range(cons_len[c]):
                cell = cons_cells[c, k]
                if known[cell] == UNKNOWN:
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
def deduce(
    grid: np.ndarray,
    known: np.ndarray,
    cons_cells: np.ndarray,
    cons_len: np.ndarray,
    cons_need: np.ndarray,
) -> tuple[int, bool]:
    """Build the constraints and apply the trivial rules.

    `known` (one per cell) comes back `OPEN` for revealed cells, else `SAFE` / `MINE` when
    the trivial rules decide the cell, `UNKNOWN` otherwise. One constraint per revealed number
    with unknown neighbours (hidden or flagged). Returns (constraints written, consistent).
    """
    rows, cols = grid.shape
    for i in range(rows * cols):
        known[i] = UNKNOWN if grid[i // cols, i % cols] < 0 else OPEN
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
                    if known[j] == UNKNOWN:
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
def frontier_components(
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
            if known[cell] != UNKNOWN:
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
def count_component(
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
                if known[other] == UNKNOWN and local[other] < 0:
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
                    if s == UNKNOWN:
                        unk += 1
                    elif s == MINE:
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
def combine(
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

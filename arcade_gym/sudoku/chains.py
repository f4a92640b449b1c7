"""Tier 6: alternating inference chains, searched by a numba kernel.

A node is a candidate `(cell, digit)`, index `cell * 9 + digit - 1`. A strong link says "one of
the two is true" (the only two places of a digit in a unit, or the two candidates of a bivalue
cell); a weak link says "not both" (the same digit in two peer cells, or two digits of one cell).
A chain alternates strong and weak links, beginning and ending with a strong one, so one of its
two ends is true: any candidate weakly linked to both ends is false.

Three searches, easiest first: `x-chain` (one digit: strong links within units, weak links
between peers), `xy-chain` (strong links inside bivalue cells, weak links between peers sharing
a digit), `aic` (every link). Each start node is searched breadth first, so the chain reported
from a start is a shortest one; chains have at least 4 and at most `CHAIN_MAX_NODES` nodes.
"""

from __future__ import annotations

import numpy as np
from numba import boolean, njit

from arcade_gym.sudoku.board import Board, Step
from arcade_gym.sudoku.rules import CELL_UNITS, CELLS, CHAIN_MAX_NODES, PEERS, UNITS

X_CHAIN, XY_CHAIN, AIC = 0, 1, 2
MODE_NAMES = {X_CHAIN: "x-chain", XY_CHAIN: "xy-chain", AIC: "aic"}


def _peer_matrix() -> np.ndarray:
    sees = np.zeros((CELLS, CELLS), np.bool_)
    for c in range(CELLS):
        sees[c, PEERS[c]] = True
    return sees


SEES = _peer_matrix()
NODES = CELLS * 9


@njit(cache=True)
def _live(cand: np.ndarray, node: int) -> bool:
    return (cand[node // 9] >> (node % 9)) & 1 == 1


@njit(cache=True)
def _weak(a: int, b: int, mode: int) -> bool:
    """Whether nodes a and b cannot both be true, by the links `mode` uses."""
    ca, cb = a // 9, b // 9
    if ca == cb:
        return mode == AIC and a != b
    return a % 9 == b % 9 and SEES[ca, cb]


@njit(cache=True)
def _neighbours(cand: np.ndarray, node: int, strong: bool, mode: int, out: np.ndarray) -> int:
    """Write the nodes linked to `node` (strongly or weakly) into `out`; returns how many."""
    cell = node // 9
    d = node % 9
    bit = 1 << d
    k = 0
    if strong:
        if mode != XY_CHAIN:
            for j in range(3):
                u = CELL_UNITS[cell, j]
                other = -1
                n = 0
                for i in range(9):
                    c = UNITS[u, i]
                    if cand[c] & bit:
                        n += 1
                        if c != cell:
                            other = c
                if n == 2:
                    out[k] = other * 9 + d
                    k += 1
        if mode != X_CHAIN:
            m = cand[cell]
            rest = m & ~bit
            if rest != 0 and (rest & (rest - 1)) == 0:
                e = 0
                while (rest >> e) & 1 == 0:
                    e += 1
                out[k] = cell * 9 + e
                k += 1
    else:
        for i in range(20):
            p = PEERS[cell, i]
            if cand[p] & bit:
                out[k] = p * 9 + d
                k += 1
        if mode == AIC:
            m = cand[cell]
            for e in range(9):
                if e != d and (m >> e) & 1:
                    out[k] = cell * 9 + e
                    k += 1
    return k


@njit(cache=True, locals={"weak_only": boolean})
def find_chain(
    cand: np.ndarray, mode: int, max_nodes: int, elims: np.ndarray, path: np.ndarray
) -> tuple[int, int]:
    """The first chain (by start node, then shortest) that eliminates something.

    Writes the eliminated nodes to `elims` and the chain's nodes to `path`;
    returns `(eliminations, chain length)`, `(0, 0)` when there is none.
    """
    states = 2 * NODES  # state = node * 2 + (1 if the last link was strong)
    stamp = np.zeros(states, np.int64)
    depth = np.zeros(states, np.int64)
    parent = np.zeros(states, np.int64)
    queue = np.zeros(states, np.int64)
    nbr = np.zeros(32, np.int64)
    ends = np.zeros(32, np.int64)
    for s in range(NODES):
        if not _live(cand, s):
            continue
        tag = s + 1
        head = 0
        tail = 0
        st0 = s * 2
        stamp[st0] = tag
        depth[st0] = 1
        parent[st0] = -1
        queue[tail] = st0
        tail += 1
        while head < tail:
            st = queue[head]
            head += 1
            node = st // 2
            after_strong = st % 2 == 1
            dep = depth[st]
            if after_strong and dep >= 4 and node != s:
                weak_only = False  # a typed local: `_neighbours` compiles once, for bool
                n_end = _neighbours(cand, node, weak_only, mode, ends)
                k = 0
                for i in range(n_end):
                    x = ends[i]
                    if x != s and _weak(x, s, mode):
                        elims[k] = x
                        k += 1
                if k > 0:
                    length = dep
                    cur = st
                    for i in range(length - 1, -1, -1):
                        path[i] = cur // 2
                        cur = parent[cur]
                    return k, length
            if dep >= max_nodes:
                continue
            n_next = _neighbours(cand, node, not after_strong, mode, nbr)
            flag = 0 if after_strong else 1
            for i in range(n_next):
                st2 = nbr[i] * 2 + flag
                if stamp[st2] != tag:
                    stamp[st2] = tag
                    depth[st2] = dep + 1
                    parent[st2] = st
                    queue[tail] = st2
                    tail += 1
    return 0, 0


def _chain(b: Board, mode: int) -> Step | None:
    cand = np.array(b.cand, dtype=np.int32)
    elims = np.zeros(32, np.int64)
    path = np.zeros(CHAIN_MAX_NODES + 1, np.int64)
    k, length = find_chain(cand, mode, CHAIN_MAX_NODES, elims, path)
    if k == 0:
        return None
    eliminated = sorted((int(x) // 9, int(x) % 9 + 1) for x in elims[:k])
    nodes = [int(x) for x in path[:length]]
    return Step(MODE_NAMES[mode], eliminations=eliminated, cells=[n // 9 for n in nodes])


def x_chain(b: Board) -> Step | None:
    return _chain(b, X_CHAIN)


def xy_chain(b: Board) -> Step | None:
    return _chain(b, XY_CHAIN)


def aic(b: Board) -> Step | None:
    return _chain(b, AIC)


def warmup() -> None:
    """Compile the chain kernel (one signature)."""
    b = Board(np.zeros(CELLS, np.int8))
    _chain(b, AIC)

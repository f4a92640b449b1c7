"""The weak rungs of `arcade_gym/chess/opponents.py` as numba kernels, move for move.

Each rung picks among python-chess's legal moves in python-chess's order with
`rng.integers(len(candidates))` on its PCG64 stream; `board_kernels.ordered_moves` lists the
moves in that order and `rule_rng.integers` draws the same numbers, so a seed gives the Python
rung's move exactly (`tests/chess/test_vector.py` plays both side by side).
"""

from __future__ import annotations

import numpy as np
from numba import int64, njit

from arcade_gym.chess.board_kernels import in_check, ordered_moves, push
from arcade_gym.chess.movegen import MAX_MOVES, POS_TURN, POS_WORDS
from arcade_gym.chess.opponents import MATE, RULES
from arcade_gym.chess.position_kernels import captured_value, material
from arcade_gym.chess.rule_rng import integers

RULE_CODES = {name: code for code, name in enumerate(RULES)}
"""Rung name -> the code the kernels take (random 0, greedy 1, material-2ply 2)."""
RANDOM, GREEDY, MATERIAL_2PLY = (
    RULE_CODES["random"],
    RULE_CODES["greedy"],
    RULE_CODES["material-2ply"],
)


@njit(cache=True)
def new_scratch() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Work arrays of one kernel call: positions (3, POS_WORDS), move lists (3, MAX_MOVES) and
    the tied candidates (MAX_MOVES)."""
    return (
        np.zeros((3, POS_WORDS), np.uint64),
        np.zeros((3, MAX_MOVES), np.int32),
        np.zeros(MAX_MOVES, np.int32),
    )


@njit(cache=True, locals={"m": int64})
def choose(
    rule: int,
    pos: np.ndarray,
    moves: np.ndarray,
    n: int,
    rng: np.ndarray,
    boards: np.ndarray,
    lists: np.ndarray,
    chosen: np.ndarray,
) -> int:
    """The rung's move among the `n` legal `moves` of `pos` (n >= 1)."""
    if rule == GREEDY:
        best = 0
        for k in range(n):
            best = max(best, captured_value(pos, moves[k]))
        if best == 0:
            return int(moves[integers(rng, n)])
        m = 0  # an int64 local: a literal 0 would compile `integers` twice
        for k in range(n):
            if captured_value(pos, moves[k]) == best:
                chosen[m] = moves[k]
                m += 1
        return int(chosen[integers(rng, m)])
    if rule == MATERIAL_2PLY:
        m = _material_best(pos, moves, n, boards, lists, chosen)
        return int(chosen[integers(rng, m)])
    return int(moves[integers(rng, n)])


@njit(cache=True, locals={"move": int64})
def _material_best(
    pos: np.ndarray,
    moves: np.ndarray,
    n: int,
    boards: np.ndarray,
    lists: np.ndarray,
    chosen: np.ndarray,
) -> int:
    """`Material2PlyRule.choose` up to the draw: the moves whose worst reply leaves the best
    material (written to `chosen`, in move order); how many."""
    us = pos[POS_TURN] != np.uint64(0)
    best = -MATE - 1
    m = 0
    for k in range(n):
        for w in range(pos.shape[0]):  # a loop: a row copy compiles a shape-error message
            boards[0, w] = pos[w]
        move = moves[k]  # int64, as `push` is called elsewhere: one specialization
        push(boards[0], move)
        value = _worst_reply(boards, lists, us, best)
        if value > best:
            best = value
            m = 0
        if value == best:
            chosen[m] = moves[k]
            m += 1
    return m


@njit(cache=True, locals={"move": int64})
def _worst_reply(boards: np.ndarray, lists: np.ndarray, us: bool, floor: int) -> int:
    """`Material2PlyRule._worst_reply` on `boards[0]`: our material after the opponent's best
    reply (a mate of us counts -MATE); stops once it is below `floor` (then any value below
    `floor` serves, as in the Python rung)."""
    replies, check, _ = ordered_moves(boards[0], lists[0])
    if replies == 0:
        return MATE if check else 0
    worst = MATE
    for k in range(replies):
        for w in range(boards.shape[1]):  # a loop, as in `_material_best`
            boards[1, w] = boards[0, w]
        move = lists[0, k]
        push(boards[1], move)
        if in_check(boards[1]) and ordered_moves(boards[1], lists[1])[0] == 0:
            value = -MATE
        else:
            value = material(boards[1], us)
        if value < worst:
            worst = value
            if worst < floor:
                break
    return worst

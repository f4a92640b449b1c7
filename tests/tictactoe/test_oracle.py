"""The oracle against an independent, slow, literal game-tree search in pure Python.

The slow search knows nothing of windows, threats or counts: it asks "does this move complete a
line?" by walking the four directions, and reads every definition literally as a tree of moves
("for every reply there is a win"). Positions come from random play that never completes a line;
the deep searches run where the literal tree is small enough (3x3 always, 5x5 and 10x10 on dense
boards), the shallow ones on boards of any density.
"""

from __future__ import annotations

import random
from functools import cache

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from arcade_gym.tictactoe.oracle import Position, minimax_move_scores, minimax_value
from arcade_gym.tictactoe.rules import X, line_length
from evaluation.benchmarks.ttt_arena.suite import build_suite

Board = list[int]
_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def completes(board: Board, n: int, k: int, cell: int, side: int) -> bool:
    """Whether `side` playing the empty `cell` makes k or more in a row."""
    r0, c0 = divmod(cell, n)
    for dr, dc in _DIRECTIONS:
        run = 1
        for sign in (1, -1):
            r, c = r0 + dr * sign, c0 + dc * sign
            while 0 <= r < n and 0 <= c < n and board[r * n + c] == side:
                run += 1
                r, c = r + dr * sign, c + dc * sign
        if run >= k:
            return True
    return False


def empties(board: Board) -> list[int]:
    return [c for c, v in enumerate(board) if v == 0]


def wins(board: Board, n: int, k: int, side: int) -> list[int]:
    return [c for c in empties(board) if completes(board, n, k, c, side)]


def move_forces_win(board: Board, n: int, k: int, m: int, side: int, plies: int) -> bool:
    """`side` playing m wins within `plies` plies against every defence."""
    if completes(board, n, k, m, side):
        return True
    if plies < 3:
        return False
    board[m] = side
    try:
        replies = empties(board)
        if not replies:
            return False
        for r in replies:
            if completes(board, n, k, r, 3 - side):
                return False
            board[r] = 3 - side
            ok = any(move_forces_win(board, n, k, m2, side, plies - 2) for m2 in empties(board))
            board[r] = 0
            if not ok:
                return False
        return True
    finally:
        board[m] = 0


def forced_win(board: Board, n: int, k: int, side: int, plies: int) -> bool:
    return any(move_forces_win(board, n, k, m, side, plies) for m in empties(board))


def literal_forks(board: Board, n: int, k: int, side: int) -> list[int]:
    return [
        m
        for m in empties(board)
        if not completes(board, n, k, m, side) and move_forces_win(board, n, k, m, side, 3)
    ]


def literal_fork_defence(board: Board, n: int, k: int, side: int) -> list[int]:
    out = []
    for m in empties(board):
        if completes(board, n, k, m, side):
            out.append(m)
            continue
        board[m] = side
        if not empties(board) or not forced_win(board, n, k, 3 - side, 3):
            out.append(m)
        board[m] = 0
    return out


@cache
def negamax(board: tuple[int, ...], side: int) -> int:
    """+1 / 0 / -1 for the side to move on 3x3 (its previous move did not win)."""
    free = [c for c, v in enumerate(board) if v == 0]
    if not free:
        return 0
    best = -1
    for m in free:
        if completes(list(board), 3, 3, m, side):
            return 1
        child = list(board)
        child[m] = side
        best = max(best, -negamax(tuple(child), 3 - side))
    return best


@st.composite
def positions(draw: st.DrawFn, size: int, max_empty: int) -> tuple[Board, int]:
    """A position of random play that never completes a line, with at most `max_empty`
    empty squares (and at least one)."""
    seed = draw(st.integers(0, 2**32 - 1))
    target = draw(st.integers(1, max_empty))
    rng = random.Random(seed)
    n2 = size * size
    k = line_length(size)
    board = [0] * n2
    side = X
    while n2 - sum(v != 0 for v in board) > target:
        allowed = [c for c in empties(board) if not completes(board, size, k, c, side)]
        if not allowed:
            break
        board[rng.choice(allowed)] = side
        side = 3 - side
    free = len(empties(board))
    assume(0 < free <= max_empty)
    return board, side


def _position(board: Board, side: int) -> Position:
    return Position(np.array(board, np.int8), side)


_SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

SHALLOW = [(3, 9), (5, 25), (10, 100)]
DEEP = [(3, 9), (5, 14), (10, 9)]


def _sized(size: int, cap: int) -> st.SearchStrategy[tuple[int, Board, int]]:
    def tag(position: tuple[Board, int]) -> tuple[int, Board, int]:
        return size, position[0], position[1]

    return positions(size, cap).map(tag)


def _each(cases: list[tuple[int, int]]) -> st.SearchStrategy[tuple[int, Board, int]]:
    return st.one_of([_sized(size, cap) for size, cap in cases])


@_SETTINGS
@given(_each(SHALLOW))
def test_threats_are_the_squares_that_complete_a_line(case: tuple[int, Board, int]) -> None:
    size, board, side = case
    k = line_length(size)
    pos = _position(board, side)
    assert pos.win_in_1() == wins(board, size, k, side)
    assert pos.opponent_wins() == wins(board, size, k, 3 - side)


@_SETTINGS
@given(_each([(3, 9), (5, 25), (10, 10)]))
def test_fork_squares_are_the_moves_forcing_a_win_in_3(case: tuple[int, Board, int]) -> None:
    size, board, side = case
    k = line_length(size)
    pos = _position(board, side)
    assert pos.fork_squares() == literal_forks(board, size, k, side)
    assert pos.forced_win3() == forced_win(board, size, k, side, 3)
    assert pos.forced_win3(3 - side) == forced_win(board, size, k, 3 - side, 3)


@_SETTINGS
@given(_each(DEEP))
def test_forced_win5_squares_match_the_literal_tree(case: tuple[int, Board, int]) -> None:
    size, board, side = case
    k = line_length(size)
    expected = [m for m in empties(board) if move_forces_win(board, size, k, m, side, 5)]
    assert _position(board, side).forced_win5_squares() == expected


@_SETTINGS
@given(_each(DEEP))
def test_fork_defense_squares_match_the_literal_tree(case: tuple[int, Board, int]) -> None:
    size, board, side = case
    k = line_length(size)
    assert _position(board, side).fork_defense_squares() == literal_fork_defence(
        board, size, k, side
    )


@_SETTINGS
@given(positions(3, 9))
def test_minimax_matches_a_plain_negamax(case: tuple[Board, int]) -> None:
    board, side = case
    assert minimax_value(np.array(board)) == negamax(tuple(board), side)
    for m, score in minimax_move_scores(np.array(board), side).items():
        if completes(board, 3, 3, m, side):
            expected = 1
        else:
            child = list(board)
            child[m] = side
            expected = -negamax(tuple(child), 3 - side)
        assert np.sign(score) == expected


def test_the_empty_3x3_board_is_a_draw_and_every_first_move_keeps_it() -> None:
    assert minimax_value(np.zeros(9, np.int8)) == 0
    assert set(minimax_move_scores(np.zeros(9, np.int8), X).values()) == {0}


def test_a_known_forced_win_in_5_is_found() -> None:
    # X in a corner, O on the next edge: X's threat, O's forced block, then X's double threat
    # (X at the centre threatens the far corner; after the block, the other corner forks).
    board = [1, 2, 0, 0, 0, 0, 0, 0, 0]
    pos = _position(board, X)
    assert pos.fork_squares() == [] and pos.win_in_1() == []
    found = pos.forced_win5_squares()
    assert {3, 4, 6} <= set(found)
    assert found == [m for m in empties(board) if move_forces_win(board, 3, 3, m, X, 5)]


def test_suite_expectations_match_the_literal_tree() -> None:
    """Every fork, forced-win-in-5 and fork-defense answer of the default suite on 3x3 and 5x5,
    and every 10x10 fork, recomputed by the literal search. (The 10x10 forced wins and fork
    defenses agree too, but the literal tree needs minutes for them.)"""
    literal = {
        "fork": lambda b, n, k, s: literal_forks(b, n, k, s),
        "forced_win_5": lambda b, n, k, s: [
            m for m in empties(b) if move_forces_win(b, n, k, m, s, 5)
        ],
        "fork_defense": literal_fork_defence,
    }
    checked = 0
    for item in build_suite().positions:
        if item.category not in literal or (item.size == 10 and item.category != "fork"):
            continue
        n = item.size
        board = [".XO".index(ch) for row in item.rows for ch in row]
        side = 1 if item.to_move == "X" else 2
        expected = literal[item.category](board, n, line_length(n), side)
        assert [r * n + c for r, c in item.expected] == expected, item.id
        checked += 1
    assert checked == 70

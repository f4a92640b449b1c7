"""k-in-a-row rules: geometry, moves, incremental win detection, threats, the game object,
the contract's answer checks, sparring rules and rendering."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_gym.tictactoe import engine as E
from arcade_gym.tictactoe.contract import (
    EngineReply,
    TicTacToeAnswer,
    TicTacToeQuestion,
    check_answer,
)
from arcade_gym.tictactoe.game import (
    TicTacToeGame,
    board_from_rows,
    board_to_rows,
    position_error,
)
from arcade_gym.tictactoe.render import render_ansi, render_rgb
from arcade_gym.tictactoe.rules import (
    DRAW,
    ILLEGAL,
    ONGOING,
    SIZES,
    WIN,
    O,
    X,
    geometry,
    line_length,
)
from arcade_gym.tictactoe.sparring import (
    SparringMove,
    greedy_move,
    opening_move,
    perfect_move,
    random_move,
    sparring_move,
    tactician_move,
)


def test_line_lengths_and_window_counts() -> None:
    assert [line_length(n) for n in SIZES] == [3, 4, 5]
    # rows + columns + both diagonals of every length-k window
    assert [geometry(n).windows.shape[0] for n in SIZES] == [8, 28, 192]
    with pytest.raises(ValueError, match="board size"):
        line_length(4)


@pytest.mark.parametrize("size", SIZES)
def test_every_window_is_a_straight_line_of_k_cells(size: int) -> None:
    geo = geometry(size)
    for cells in geo.windows:
        rows, cols = np.divmod(cells, size)
        steps = {(int(dr), int(dc)) for dr, dc in zip(np.diff(rows), np.diff(cols), strict=True)}
        assert len(steps) == 1 and steps.pop() in {(0, 1), (1, 0), (1, 1), (1, -1)}
    for cell in range(size * size):
        listed = geo.cell_windows[cell, : geo.cell_degree[cell]]
        assert all(cell in geo.windows[w] for w in listed)


def _full_scan_line(board: np.ndarray, n: int, k: int, side: int) -> bool:
    grid = board.reshape(n, n)
    for r in range(n):
        for c in range(n):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + dr * j, c + dc * j) for j in range(k)]
                if all(0 <= a < n and 0 <= b < n and grid[a, b] == side for a, b in cells):
                    return True
    return False


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(SIZES), st.integers(0, 2**32 - 1))
def test_incremental_win_check_matches_a_full_scan(size: int, seed: int) -> None:
    rng = random.Random(seed)
    k = line_length(size)
    board = np.zeros(size * size, np.int8)
    side = X
    for placed in range(size * size):
        cell = rng.choice([int(c) for c in np.flatnonzero(board == 0)])
        outcome = E.apply_move(board, size, k, cell, side, placed)
        won = _full_scan_line(board, size, k, side)
        assert (outcome == WIN) == won
        assert E.winner(board, geometry(size).windows) == (side if won else 0)
        if outcome != ONGOING:
            assert outcome == WIN or placed + 1 == size * size
            break
        side = 3 - side


def test_overlines_win_and_k_minus_one_does_not() -> None:
    board = board_from_rows(["XXXX.XXXXX"] + ["." * 10] * 9).reshape(-1)
    assert not E.line_through(board, 10, 5, 0)
    assert E.apply_move(board, 10, 5, 4, X, 9) == WIN  # nine in a row is a line


def test_illegal_moves_leave_the_board_untouched() -> None:
    board = np.zeros(9, np.int8)
    assert E.apply_move(board, 3, 3, 4, X, 0) == ONGOING
    before = board.copy()
    for cell in (4, -1, 9, 100):
        assert E.apply_move(board, 3, 3, cell, O, 1) == ILLEGAL
    assert np.array_equal(board, before)


def test_a_full_board_without_a_line_is_a_draw() -> None:
    game = TicTacToeGame(3)
    outcomes = [
        game.play(game.cell(r, c))
        for r, c in [(1, 1), (0, 0), (0, 1), (2, 1), (1, 0), (1, 2), (0, 2), (2, 0), (2, 2)]
    ]
    assert outcomes[-1] == DRAW and game.draw and game.result == "draw"
    with pytest.raises(ValueError, match="over"):
        game.play(0)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SIZES), st.integers(0, 2**32 - 1), st.integers(0, 60))
def test_threat_count_is_the_number_of_squares_completing_a_line(
    size: int, seed: int, stones: int
) -> None:
    rng = random.Random(seed)
    k = line_length(size)
    board = np.zeros(size * size, np.int8)
    for i in range(min(stones, size * size - 1)):
        board[rng.choice([int(c) for c in np.flatnonzero(board == 0)])] = X if i % 2 == 0 else O
    for side in (X, O):
        expected = 0
        for cell in np.flatnonzero(board == 0):
            board[cell] = side
            expected += E.line_through(board, size, k, int(cell))
            board[cell] = 0
        assert E.threat_count(board, geometry(size).windows, side) == expected


def test_game_question_round_trip_and_errors() -> None:
    game = TicTacToeGame(5)
    for cell in (12, 0, 13):
        game.play(cell)
    question = game.question()
    assert question == TicTacToeQuestion(
        size=5, k=4, to_move="O", rows=("O....", ".....", "..XX.", ".....", ".....")
    )
    assert question.to_text() == "5\nO\nO....\n.....\n..XX.\n.....\n.....\n"
    twin = TicTacToeGame.from_question(question)
    assert np.array_equal(twin.board, game.board) and twin.to_move == O
    assert board_to_rows(board_from_rows(question.rows)) == question.rows
    with pytest.raises(ValueError, match="occupied"):
        game.play(12)
    with pytest.raises(ValueError, match="off the board"):
        game.play(25)
    with pytest.raises(ValueError, match="not one of"):
        board_from_rows(["X..", ".Z.", "..."])
    with pytest.raises(ValueError, match="reachable"):
        TicTacToeGame.from_rows(["XX.", "...", "..."], "O")


def test_position_error_names_what_cannot_happen() -> None:
    assert position_error(board_from_rows(["X..", "...", "..."]), O) is None
    assert "to move" in str(position_error(board_from_rows(["X..", "...", "..."]), X))
    assert "cannot arise" in str(position_error(board_from_rows(["XX.", "...", "..."]), O))
    assert "won" in str(position_error(board_from_rows(["XXX", "OO.", "..."]), O))


def test_check_answer_accepts_every_answer_form_and_names_illegal_ones() -> None:
    q = TicTacToeQuestion(size=3, k=3, to_move="O", rows=("X..", "...", "..."))
    assert check_answer(q, "1 1").legal
    assert check_answer(q, TicTacToeAnswer(row=2, col=2)).move == (2, 2)
    assert check_answer(q, (0, 1)).legal
    assert check_answer(q, EngineReply(output=" 2 0\n", instructions=7)).instructions == 7
    reasons = {
        "0 0": "occupied",
        "3 0": "off-board",
        "-1 2": "off-board",
        "1,1": "unparseable",
        "1 1 1": "unparseable",
        "": "unparseable",
    }
    for text, reason in reasons.items():
        check = check_answer(q, text)
        assert not check.legal and reason in str(check.reason), text
    error = check_answer(q, EngineReply(output="1 1", error="tape overflow", instructions=3))
    assert not error.legal and "tape overflow" in str(error.reason) and error.instructions == 3
    assert not check_answer(q, None).legal
    assert not check_answer(q, (True, False)).legal


def _empty(size: int) -> np.ndarray:
    return np.zeros(size * size, np.int8)


@pytest.mark.parametrize("rule", [random_move, greedy_move, tactician_move])
@pytest.mark.parametrize("size", SIZES)
def test_sparring_rules_play_legal_deterministic_moves(rule: SparringMove, size: int) -> None:
    rng = random.Random(size)
    board = _empty(size)
    side = X
    for placed in range(size * size):
        cell = rule(board, side, 7)
        assert cell == rule(board.copy(), side, 7)
        outcome = E.apply_move(board, size, line_length(size), cell, side, placed)
        assert outcome != ILLEGAL
        if outcome != ONGOING:
            break
        side = 3 - side
        if rng.random() < 0.5:  # mix in other moves so the rules see varied boards
            free = [int(c) for c in np.flatnonzero(board == 0)]
            board[rng.choice(free)] = side
            side = 3 - side
            if E.winner(board, geometry(size).windows) or not (board == 0).any():
                break


def test_greedy_wins_before_it_blocks_and_blocks_before_random() -> None:
    wins_and_blocks = board_from_rows(["XX.", "OO.", "..."])
    assert greedy_move(wins_and_blocks, X) == 2
    only_block = board_from_rows(["OO.", "X..", "..X"])
    assert greedy_move(only_block, X) == 2


def test_tactician_forks_and_defends_forks() -> None:
    fork = board_from_rows(["XO.", ".X.", "..O"])  # X forks on (1, 0) or (2, 0)
    cell = tactician_move(fork, X)
    assert cell in (3, 6)
    board = fork.reshape(-1).copy()
    board[cell] = X
    assert E.threat_count(board, geometry(3).windows, X) >= 2
    # X in opposite corners, O in the centre: O must take an edge, not a corner
    defence = board_from_rows(["X..", ".O.", "..X"])
    assert tactician_move(defence, O) in (1, 3, 5, 7)


def test_perfect_never_loses_and_is_3x3_only() -> None:
    for seed in range(30):
        for perfect_side in (X, O):
            game = TicTacToeGame(3)
            while not game.over:
                rule = perfect_move if game.to_move == perfect_side else random_move
                game.play(rule(game.flat, game.to_move, seed))
            assert game.winner in (0, perfect_side)
    with pytest.raises(ValueError, match="3x3"):
        perfect_move(_empty(5), X)
    with pytest.raises(ValueError, match="unknown sparring"):
        sparring_move("oracle", _empty(3), X)


def test_opening_moves_stay_in_the_central_block() -> None:
    for seed in range(50):
        r, c = divmod(opening_move(_empty(10), X, seed), 10)
        assert 3 <= r <= 6 and 3 <= c <= 6
        r, c = divmod(opening_move(_empty(5), X, seed), 5)
        assert 1 <= r <= 3 and 1 <= c <= 3


def test_render_ansi_and_rgb() -> None:
    board = board_from_rows(["X.O", ".X.", "O.."])
    text = render_ansi(board, header="hello")
    assert text.splitlines() == ["hello", "   0 1 2", " 0 X . O", " 1 . X .", " 2 O . ."]
    image = render_rgb(board, cell_px=16)
    assert image.shape == (48, 48, 3) and image.dtype == np.uint8
    assert len({tuple(p) for p in image.reshape(-1, 3)}) >= 4  # background, grid, X, O

"""Each game's keys on real questions of its benchmark (no terminal): which answer a key gives,
and that the benchmark's validator accepts it as the move the screen showed."""

from __future__ import annotations

import chess
import pytest

from arcade_gym.chess.contract import check_answer, make_question
from arcade_gym.minesweeper.contract import validate as validate_minesweeper
from arcade_gym.minesweeper.game import MinesweeperGame
from arcade_gym.snake.contract import validate as validate_snake
from arcade_gym.snake.game import SnakeGame
from arcade_gym.sudoku.contract import SudokuQuestion
from arcade_gym.sudoku.contract import validate as validate_sudoku
from arcade_gym.sudoku.sets import set_grids
from arcade_gym.tetris.contract import validate as validate_tetris
from arcade_gym.tetris.game import TetrisGame
from arcade_gym.tetris.primitive_contract import validate as validate_controls
from arcade_gym.tetris.primitive_game import TetrisControlGame
from arcade_gym.tictactoe.game import TicTacToeGame
from evaluation.benchmarks.chess_ladder.play_keys import ChessKeys
from evaluation.benchmarks.narcade.play_minesweeper import MinesweeperKeys
from evaluation.benchmarks.narcade.play_primitive import PrimitiveKeys
from evaluation.benchmarks.narcade.play_snake import SnakeKeys
from evaluation.benchmarks.sudoku.play_keys import SudokuKeys
from evaluation.benchmarks.tetris_bench.play_keys import TetrisKeys, landing
from evaluation.benchmarks.ttt_arena.answers import read_answer, wire_answer
from evaluation.benchmarks.ttt_arena.play_keys import TicTacToeKeys

# --- Tetris Bench ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tetris_question():
    return TetrisGame("seed-01").question("IQ")


def test_tetris_ghost_starts_at_the_spawn_column_and_enter_places_it(tetris_question):
    keys = TetrisKeys()
    chosen = keys.chosen(tetris_question)
    assert chosen.placement.rotation == tetris_question.active.rotation
    answer = keys.press(tetris_question, "enter")
    verdict = validate_tetris(answer, tetris_question)
    assert verdict.status == "valid" and not verdict.hold
    assert verdict.placement == chosen.placement


def test_tetris_arrows_walk_the_candidates_of_one_rotation_in_column_order(tetris_question):
    keys = TetrisKeys()
    start = keys.chosen(tetris_question).placement
    row = sorted(
        c.placement.x for c in tetris_question.candidates if c.placement.rotation == start.rotation
    )
    for _ in range(len(row)):
        keys.press(tetris_question, "left")
    assert keys.chosen(tetris_question).placement.x == row[0]  # stops at the wall
    seen = [row[0]]
    for _ in range(len(row) + 2):
        assert keys.press(tetris_question, "right") is None
        seen.append(keys.chosen(tetris_question).placement.x)
    assert sorted(set(seen)) == row and seen[-1] == row[-1]


def test_tetris_rotation_keys_reach_every_candidate(tetris_question):
    keys = TetrisKeys()
    reached = set()
    for _ in range(4):
        keys.press(tetris_question, "up")
        for _ in range(12):
            keys.press(tetris_question, "left")
        for _ in range(12):
            placement = keys.chosen(tetris_question).placement
            reached.add((placement.x, placement.rotation))
            keys.press(tetris_question, "right")
    every = {(c.placement.x, c.placement.rotation) for c in tetris_question.candidates}
    assert reached == every
    before = keys.chosen(tetris_question).placement.rotation
    keys.press(tetris_question, "x")
    keys.press(tetris_question, "z")
    assert keys.chosen(tetris_question).placement.rotation == before


def test_tetris_hold_is_an_answer_only_when_the_question_allows_it(tetris_question):
    keys = TetrisKeys()
    verdict = validate_tetris(keys.press(tetris_question, "c"), tetris_question)
    assert verdict.status == "valid" and verdict.hold
    game = TetrisGame("seed-01")
    game.hold()
    held = game.question("IQ")
    assert not held.can_hold
    with pytest.raises(ValueError, match="hold"):
        TetrisKeys().press(held, "c")


def test_tetris_ghost_lands_on_the_floor_of_an_empty_board(tetris_question):
    keys = TetrisKeys()
    ghost = landing(tetris_question, keys.chosen(tetris_question))
    assert ghost is not None
    view = keys.view(tetris_question)
    bottom = next(line for line in view.lines if line.startswith("20 "))  # rows from 1
    assert "@" in bottom and "on columns " in "\n".join(view.lines)
    assert f"score {tetris_question.score}" in "\n".join(view.lines)


def test_tetris_a_new_question_resets_the_ghost(tetris_question):
    keys = TetrisKeys()
    keys.press(tetris_question, "left")
    placement = keys.chosen(tetris_question).placement
    game = TetrisGame("seed-01")
    game.play(placement.x, placement.rotation)
    after = game.question("IQ")
    chosen = keys.chosen(after).placement
    assert chosen.rotation == after.active.rotation
    assert abs(chosen.x - after.active.x) <= 1


# --- NARCADE --------------------------------------------------------------------------------------


def test_primitive_keys_are_the_six_controls():
    question = TetrisControlGame(100, "medium").question()
    keys = PrimitiveKeys()
    pressed = {
        key: keys.press(question, key)["action"]
        for key in ("left", "right", "up", "z", "down", "enter")
    }
    assert pressed == {
        "left": "left",
        "right": "right",
        "up": "rotate_cw",
        "z": "rotate_ccw",
        "down": "soft_drop",
        "enter": "hard_drop",
    }
    for key in pressed:
        assert validate_controls(keys.press(question, key), question).status == "valid"
    assert keys.press(question, "a") is None
    assert "piece" in "\n".join(keys.view(question).lines)


def test_snake_arrows_are_directions_and_enter_keeps_the_heading():
    question = SnakeGame(100, "easy").question()
    keys = SnakeKeys()
    assert keys.press(question, "up") == {"action": "up"}
    assert keys.press(question, "enter") == {"action": question.heading}
    assert keys.press(question, "x") is None
    for key in ("up", "down", "left", "right", "space"):
        assert validate_snake(keys.press(question, key), question).status == "valid"
    assert "@" in "\n".join(keys.view(question).lines)


def test_minesweeper_cursor_stays_on_the_board_and_keys_name_listed_actions():
    question = MinesweeperGame(100, "easy").question()
    keys = MinesweeperKeys()
    for _ in range(20):
        keys.press(question, "up")
        keys.press(question, "left")
    assert keys.cursor.at(question.rows, question.cols) == (0, 0)
    hidden = question.board[0][0] == "#"
    assert hidden  # the opening is never in the corner of seed 100
    answer = keys.press(question, "enter")
    assert answer == {"action": "reveal 0 0"}
    assert validate_minesweeper(answer, question).status == "valid"
    assert validate_minesweeper(keys.press(question, "f"), question).status == "valid"
    view = keys.view(question)
    assert view.mark == (2, 3)  # the row below the ruler, the column after the row number
    assert view.lines[view.mark[0]][view.mark[1]] == "#"


def test_minesweeper_refuses_to_reveal_a_revealed_cell():
    question = MinesweeperGame(100, "easy").question()
    row, line = next((r, line) for r, line in enumerate(question.board) if line.strip("#"))
    col = next(c for c, ch in enumerate(line) if ch != "#")
    keys = MinesweeperKeys()
    keys.cursor.cell = (row, col)
    with pytest.raises(ValueError, match="revealed"):
        keys.press(question, "enter")


# --- Sudoku ---------------------------------------------------------------------------------------


def test_sudoku_digits_fill_blanks_and_enter_hands_in_the_grid():
    record = set_grids("v1")[0]
    question = SudokuQuestion.from_puzzle(record["puzzle"], record["id"])
    keys = SudokuKeys()
    row, col = next((r, c) for r in range(9) for c in range(9) if question.rows[r][c] == ".")
    keys.cursor.cell = (row, col)
    assert keys.press(question, "7") is None
    with pytest.raises(ValueError, match="empty: enter again"):
        keys.press(question, "enter")
    answer = keys.press(question, "enter")
    assert answer["grid"][row][col] == "7"
    verdict = validate_sudoku(answer)
    assert verdict.usable and verdict.grid[row * 9 + col] == "7"
    given = next((r, c) for r in range(9) for c in range(9) if question.rows[r][c] != ".")
    keys.cursor.cell = given
    with pytest.raises(ValueError, match="given"):
        keys.press(question, "5")
    keys.cursor.cell = (row, col)
    keys.press(question, "backspace")
    assert keys.grid(question)[row][col] == "."
    view = keys.view(question)
    assert view.lines[view.mark[0]][view.mark[1]] == "."


def test_sudoku_a_full_grid_is_handed_in_at_the_first_enter():
    record = set_grids("v1")[0]
    question = SudokuQuestion.from_puzzle(record["puzzle"], record["id"])
    keys = SudokuKeys()
    for r in range(9):
        for c in range(9):
            if question.rows[r][c] == ".":
                keys.cursor.cell = (r, c)
                keys.press(question, record["solution"][r * 9 + c])
    answer = keys.press(question, "enter")
    assert "".join(answer["grid"]) == record["solution"]


# --- tic-tac-toe and chess ------------------------------------------------------------------------


def test_tictactoe_enter_places_the_mark_under_the_cursor():
    game = TicTacToeGame(5)
    question = game.question()
    keys = TicTacToeKeys("perfect")
    keys.press(question, "right")
    answer = keys.press(question, "enter")
    assert answer == (2, 3)
    assert read_answer(question, wire_answer(answer, question)).legal
    game.play(game.cell(2, 3))
    taken = game.question()
    with pytest.raises(ValueError, match="taken"):
        keys.press(taken, "space")
    view = keys.view(taken)
    assert view.lines[view.mark[0]][view.mark[1]] == "X"


def test_chess_typed_moves_are_checked_before_they_are_played():
    question = make_question(chess.Board(), "standard")
    keys = ChessKeys("random")
    for key in "e4":
        assert keys.press(question, key) is None
    assert keys.typing()
    answer = keys.press(question, "enter")
    assert answer == {"move": "e4"}
    assert check_answer(question, answer).legal
    for key in "e5":
        keys.press(question, key)
    with pytest.raises(ValueError, match="e5"):
        keys.press(question, "enter")
    assert not keys.typing()
    for key in "g1f3":
        keys.press(question, key)
    keys.press(question, "backspace")
    keys.press(question, "3")
    assert check_answer(question, keys.press(question, "enter")).uci == "g1f3"
    assert "your move" in "\n".join(keys.view(question).lines)


def test_tetris_ghost_covers_exactly_the_cells_each_placement_adds():
    from arcade_gym.tetris.render import active_cells
    from evaluation.benchmarks.tetris_bench.play_keys import board_of, ordered

    game = TetrisGame("seed-02")
    for _ in range(6):  # a few pieces in, so the stack has a shape
        question = game.question("IQ")
        middle = ordered(question)[len(question.candidates) // 2]
        game.play(middle.placement.x, middle.placement.rotation)
    question = game.question("IQ")
    board = board_of(question)
    checked = 0
    for candidate in question.candidates:
        if candidate.lines_cleared:
            continue
        ghost = landing(question, candidate)
        assert ghost is not None
        rows, cols = active_cells(ghost, board.shape)
        added = {
            (r, c)
            for r, row in enumerate(candidate.grid)
            for c, cell in enumerate(row)
            if cell is not None and board[r, c] == 0
        }
        assert set(zip(rows.tolist(), cols.tolist(), strict=True)) == added
        checked += 1
    assert checked > 0

"""One coordinate convention on screen (rows and columns from 1, labelled on the axes), the
person's entries styled apart from the givens, colour only where the terminal has it, and the
game-over words."""

from __future__ import annotations

from pathlib import Path

from arcade_gym.minesweeper.game import MinesweeperGame
from arcade_gym.sudoku.contract import SudokuQuestion
from arcade_gym.sudoku.sets import set_grids
from arcade_gym.tictactoe.game import TicTacToeGame
from evaluation.benchmarks.narcade.play_minesweeper import MinesweeperKeys
from evaluation.benchmarks.sudoku.play_keys import SudokuKeys
from evaluation.benchmarks.ttt_arena.play_keys import TicTacToeKeys
from evaluation.play.board import labelled
from evaluation.play.game_over import game_over_view, result_words, words
from evaluation.play.screen import View, wants_colour


def styles(view: View) -> dict[tuple[int, int], str]:
    """(line, column) -> style of every one-character span (the cells)."""
    return {(s.line, s.col): s.style for s in view.spans if s.length == 1 and s.style != "label"}


def test_axis_labels_count_from_one_and_name_the_cell_under_them():
    board = labelled([list("abc"), list("def")])
    assert board.lines == ["   1 2 3", "1  a b c", "2  d e f"]
    for row in range(2):
        for col in range(3):
            line, x = board.at(row, col)
            assert board.lines[line][x] == "abcdef"[row * 3 + col]
            assert board.lines[0][x] == str(col + 1)  # the column label right above
            assert board.lines[line].split()[0] == str(row + 1)  # the row label on its left


def test_past_nine_columns_the_ruler_has_tens_and_units():
    board = labelled([list("." * 12)] * 10)
    tens, units = board.lines[0], board.lines[1]
    line, x = board.at(9, 11)
    assert tens[x] + units[x] == "12" and board.lines[line].startswith("10 ")
    line, x = board.at(0, 9)
    assert tens[x] + units[x] == "10"


def test_sudoku_boxes_are_ruled_and_labels_skip_the_bars():
    board = labelled([list("123456789")] * 9, box=3)
    assert board.lines[0] == "   1 2 3   4 5 6   7 8 9"
    assert board.lines[1] == "1  1 2 3 | 4 5 6 | 7 8 9"
    assert board.lines[4] == "   ------+-------+------"
    line, x = board.at(8, 8)
    assert board.lines[line][x] == "9" and board.lines[line].startswith("9 ")


def test_sudoku_the_persons_digits_are_styled_apart_from_the_givens():
    record = set_grids("v1")[0]
    question = SudokuQuestion.from_puzzle(record["puzzle"], record["id"])
    keys = SudokuKeys()
    row, col = next((r, c) for r in range(9) for c in range(9) if question.rows[r][c] == ".")
    given = next((r, c) for r in range(9) for c in range(9) if question.rows[r][c] != ".")
    keys.cursor.cell = (row, col)
    keys.press(question, "7")
    view = keys.view(question)
    style = styles(view)
    assert view.mark is not None and view.lines[view.mark[0]][view.mark[1]] == "7"
    assert style[view.mark] == "entry"
    keys.cursor.cell = given
    at = keys.view(question).mark
    assert at is not None and style[at] == "given"
    assert sorted(set(style.values())) == ["entry", "given"]
    assert list(style.values()).count("given") == sum(
        ch != "." for row in question.rows for ch in row
    )
    assert list(style.values()).count("entry") == 1
    text = "\n".join(keys.view(question).lines)
    assert f"cursor row {given[0] + 1} col {given[1] + 1}" in text
    assert "   1 2 3   4 5 6   7 8 9" in text


def test_minesweeper_and_tictactoe_show_one_based_coordinates():
    question = MinesweeperGame(100, "easy").question()
    keys = MinesweeperKeys()
    keys.cursor.cell = (0, 0)
    view = keys.view(question)
    assert "cursor row 1 col 1" in view.lines[-1]
    assert view.lines[1].split()[:3] == ["1", "2", "3"]
    game = TicTacToeGame(3)
    game.play(game.cell(0, 2))
    ttt = TicTacToeKeys()
    ttt.cursor.cell = (0, 2)
    view = ttt.view(game.question())
    assert "cursor row 1 col 3" in view.lines
    assert view.mark is not None and view.lines[view.mark[0]][view.mark[1]] == "X"
    assert styles(view)[view.mark] == "given"  # the opponent's mark: O is to move


def test_colour_only_where_the_terminal_has_it():
    assert wants_colour(True, {"TERM": "xterm-256color"})
    assert not wants_colour(False, {"TERM": "xterm-256color"})
    assert not wants_colour(True, {"TERM": "xterm-256color", "NO_COLOR": "1"})
    assert not wants_colour(True, {"TERM": "dumb"})


def test_game_over_says_the_result_in_words_and_wraps_the_log_path():
    assert words("cellsRight") == "cells right" and words("end_reason") == "end reason"
    result = {"type": "result", "outcome": "solved", "score": 1, "cellsRight": 51, "grid": "9" * 81}
    headline, figures = result_words(result)
    assert headline == "Game over: solved."
    assert figures == "score 1, cells right 51"  # a long value is left to the log
    log = Path("/runs/" + "deep/" * 30 + "human/1.jsonl")
    board = View(["Sudoku", "   1 2 3"], (1, 3))
    view = game_over_view(board, result, log, 40, "Sudoku")
    assert view.lines[:2] == ["Sudoku", "   1 2 3"] and view.mark is None
    assert all(len(line) <= 40 for line in view.lines)
    assert not any(str(log) in line for line in view.lines)  # too long for one line
    assert str(log) in "".join(view.lines)  # wrapped, yet every character is kept


def test_tictactoe_game_over_board_is_the_final_position_from_the_result():
    game = TicTacToeGame(3)
    question = game.question()  # X to move: the person plays X
    keys = TicTacToeKeys()
    final = keys.final(question, {"moves": ["1 1", "0 0", "2 2", "0 1", "0 2", "2 0", "1 2"]})
    assert final is not None and final.mark is None
    assert final.lines[1:5] == ["   1 2 3", "1  O O X", "2  . X X", "3  O . X"]
    style = styles(final)
    line, col = 2, 3  # row 1 col 1 holds O, the other side's
    assert style[(line, col)] == "given" and style[(2, 7)] == "entry"
    assert "final position, 7 moves; you played X" in final.lines
    assert keys.final(question, {"moves": ["1 1", "1 1"]}) is None  # not a game: the last board
    assert keys.final(question, {"moves": "garbage"}) is None

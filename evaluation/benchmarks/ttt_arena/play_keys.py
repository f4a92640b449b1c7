"""k-in-a-row tic-tac-toe (the arena's rules) at the keyboard: arrows move a cursor, Enter or
space places the mark. The answer is the (row, col) pair a Python policy gives; the opponent's
replies (a sparring partner's in a suite match, an engine's in a free match) are played by the
arena's match episode."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from arcade_gym.tictactoe.contract import TicTacToeQuestion
from arcade_gym.tictactoe.render import render_ansi
from arcade_gym.tictactoe.rules import MARKS
from evaluation.play.cursor import Cursor
from evaluation.play.screen import View

HELP = ("arrows      move the cursor", "enter/space place your mark")


class TicTacToeKeys:
    """The cursor."""

    title = "Tic-tac-toe"
    help: Sequence[str] = HELP

    def __init__(self, opponent: str = "") -> None:
        self.cursor = Cursor()
        self.opponent = opponent

    def typing(self) -> bool:
        return False

    def press(self, question: TicTacToeQuestion, key: str) -> tuple[int, int] | None:
        if self.cursor.move(key, question.size, question.size):
            return None
        if key not in ("enter", "space"):
            return None
        row, col = self.cursor.at(question.size, question.size)
        if question.rows[row][col] != ".":
            raise ValueError(f"row {row} col {col} is taken")
        return (row, col)

    def view(self, question: TicTacToeQuestion) -> View:
        board = np.array([[MARKS.index(ch) for ch in row] for row in question.rows])
        lines = render_ansi(board).splitlines()
        row, col = self.cursor.at(question.size, question.size)
        against = f" against {self.opponent}" if self.opponent else ""
        status = f"you play {question.to_move}{against}; {question.k} in a row wins"
        return View(
            [f"{self.title} {question.size}x{question.size}", *lines, status],
            (2 + row, 3 + 2 * col),
        )

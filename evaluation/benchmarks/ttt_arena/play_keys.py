"""k-in-a-row tic-tac-toe (the arena's rules) at the keyboard: arrows move a cursor, Enter or
space places the mark. The answer is the (row, col) pair a Python policy gives; the opponent's
replies (a sparring partner's in a suite match, an engine's in a free match) are played by the
arena's match episode. On screen rows and columns count from 1 (`evaluation/play/board.py`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arcade_gym.tictactoe.contract import TicTacToeQuestion
from evaluation.play.board import labelled
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
            raise ValueError(f"row {row + 1} col {col + 1} is taken")
        return (row, col)

    def view(self, question: TicTacToeQuestion) -> View:
        mine = question.to_move

        def style(r: int, c: int) -> str | None:
            mark = question.rows[r][c]
            return None if mark == "." else "entry" if mark == mine else "given"

        board = labelled([list(line) for line in question.rows], style=style)
        row, col = self.cursor.at(question.size, question.size)
        against = f" against {self.opponent}" if self.opponent else ""
        status = f"you play {mine}{against}; {question.k} in a row wins"
        return board.view(
            [f"{self.title} {question.size}x{question.size}"],
            [status, f"cursor row {row + 1} col {col + 1}"],
            (row, col),
        )

    def final(self, question: TicTacToeQuestion, result: Mapping[str, Any]) -> View | None:
        """The final position, replayed from the result's `moves` (X first), the winning side's
        marks in its style; None when the result holds no readable move list."""
        moves = result.get("moves")
        n = question.size
        if not isinstance(moves, list) or len(moves) > n * n:
            return None
        rows = [["."] * n for _ in range(n)]
        for ply, move in enumerate(moves):
            parts = move.split() if isinstance(move, str) else []
            if len(parts) != 2 or not all(p.isdigit() for p in parts):
                return None
            row, col = int(parts[0]), int(parts[1])
            if not (0 <= row < n and 0 <= col < n) or rows[row][col] != ".":
                return None
            rows[row][col] = "XO"[ply % 2]
        mine = question.to_move

        def style(r: int, c: int) -> str | None:
            mark = rows[r][c]
            return None if mark == "." else "entry" if mark == mine else "given"

        return labelled(rows, style=style).view(
            [f"{self.title} {n}x{n}"], [f"final position, {len(moves)} moves; you played {mine}"]
        )

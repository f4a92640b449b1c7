"""NARCADE Minesweeper at the keyboard: a cursor over the board, Enter or space reveals the cell
under it, `f` toggles its flag.

The answer is the action text the question lists (`"reveal r c"`, `"flag r c"`); a key on a cell
where that action is not listed (already revealed, flagged) is refused with a message.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arcade_gym.minesweeper.contract import MinesweeperQuestion
from arcade_gym.minesweeper.render import board_view, render_ansi
from evaluation.play.cursor import Cursor
from evaluation.play.screen import View

HELP = ("arrows      move the cursor", "enter/space reveal the cell     f  flag / unflag it")


class MinesweeperKeys:
    """The cursor (starting in the middle of the board)."""

    title = "NARCADE Minesweeper"
    help: Sequence[str] = HELP

    def __init__(self) -> None:
        self.cursor = Cursor()

    def typing(self) -> bool:
        return False

    def press(self, question: MinesweeperQuestion, key: str) -> dict[str, Any] | None:
        if self.cursor.move(key, question.rows, question.cols):
            return None
        row, col = self.cursor.at(question.rows, question.cols)
        kind = {"enter": "reveal", "space": "reveal", "f": "flag"}.get(key)
        if kind is None:
            return None
        action = f"{kind} {row} {col}"
        if action not in question.actions:
            shown = question.board[row][col]
            why = "it is flagged (f unflags it)" if shown == "F" else "it is revealed"
            raise ValueError(f"cannot {kind} row {row} col {col}: {why}")
        return {"action": action}

    def view(self, question: MinesweeperQuestion) -> View:
        row, col = self.cursor.at(question.rows, question.cols)
        board = render_ansi(board_view(question.board)).splitlines()
        ruler = 2 if question.cols > 10 else 1
        status = (
            f"revealed {question.revealed}   mines {question.mines}   flags {question.flags}"
            f"   cursor row {row} col {col}"
        )
        lines = [f"{self.title}  ({question.difficulty})", *board, status]
        return View(lines, (1 + ruler + row, 3 + col))

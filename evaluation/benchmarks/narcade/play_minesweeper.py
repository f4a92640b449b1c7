"""NARCADE Minesweeper at the keyboard: a cursor over the board, Enter or space reveals the cell
under it, `f` toggles its flag.

The answer is the action text the question lists (`"reveal r c"`, `"flag r c"`); a key on a cell
where that action is not listed (already revealed, flagged) is refused with a message. On screen
rows and columns count from 1 (`evaluation/play/board.py`), the action text from 0 as the
protocol does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arcade_gym.minesweeper.contract import MinesweeperQuestion
from evaluation.play.board import labelled
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
            raise ValueError(f"cannot {kind} row {row + 1} col {col + 1}: {why}")
        return {"action": action}

    def view(self, question: MinesweeperQuestion) -> View:
        row, col = self.cursor.at(question.rows, question.cols)

        def style(r: int, c: int) -> str | None:
            shown = question.board[r][c]
            return "bad" if shown == "F" else "entry" if shown not in "#0" else None

        board = labelled([list(line) for line in question.board], style=style)
        status = (
            f"revealed {question.revealed}   mines {question.mines}   flags {question.flags}"
            f"   cursor row {row + 1} col {col + 1}"
        )
        return board.view([f"{self.title}  ({question.difficulty})"], [status], (row, col))

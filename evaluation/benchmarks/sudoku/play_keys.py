"""The Sudoku benchmark's question at the keyboard: the whole grid is one answer.

Arrows move a cursor, a digit writes it into an empty cell of the puzzle (givens cannot change),
0, `.`, Backspace or space clear it, Enter hands the grid in (the benchmark grades it cell by
cell, filled or not; with cells still empty a second Enter is asked for). The answer is
`{"grid": nine rows, "confidence": None}`: a person states no confidence. Rows and columns are
counted from 1 and labelled on screen (`evaluation/play/board.py`); the givens are drawn bold,
the person's digits in their own style (`entry`: colour, or underlined on a monochrome terminal).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arcade_gym.sudoku.contract import SudokuQuestion
from evaluation.play.board import labelled
from evaluation.play.cursor import Cursor
from evaluation.play.screen import View

HELP = (
    "arrows      move the cursor         1-9  write a digit",
    "0 . space   clear the cell          enter  hand the grid in (one answer)",
)
CLEAR = ("0", ".", "space", "backspace")


class SudokuKeys:
    """The cursor and the digits written so far (reset for another grid)."""

    title = "Sudoku"
    help: Sequence[str] = HELP

    def __init__(self) -> None:
        self.cursor = Cursor()
        self.grid_id: str | None = None
        self.digits: list[list[str]] = []
        self.confirming = False

    def typing(self) -> bool:
        return False

    def grid(self, question: SudokuQuestion) -> list[list[str]]:
        """The grid as filled in so far (starting from the puzzle)."""
        if self.grid_id != question.grid_id:
            self.grid_id = question.grid_id
            self.digits = [list(row) for row in question.rows]
        return self.digits

    def press(self, question: SudokuQuestion, key: str) -> dict[str, Any] | None:
        grid = self.grid(question)
        if self.cursor.move(key, 9, 9):
            return None
        if key == "enter":
            blanks = sum(row.count(".") for row in grid)
            if blanks and not self.confirming:
                self.confirming = True
                raise ValueError(f"{blanks} cells are empty: enter again to hand the grid in")
            return {"grid": ["".join(row) for row in grid], "confidence": None}
        self.confirming = False
        row, col = self.cursor.at(9, 9)
        digit = key if key in "123456789" and len(key) == 1 else "." if key in CLEAR else None
        if digit is None:
            return None
        if question.rows[row][col] != ".":
            raise ValueError(f"row {row + 1} col {col + 1} is a given")
        grid[row][col] = digit
        return None

    def view(self, question: SudokuQuestion) -> View:
        grid = self.grid(question)
        givens = sum(ch != "." for row in question.rows for ch in row)
        placed = sum(ch != "." for row in grid for ch in row) - givens

        def style(row: int, col: int) -> str | None:
            if question.rows[row][col] != ".":
                return "given"
            return "entry" if grid[row][col] != "." else None

        board = labelled(grid, box=3, style=style)
        row, col = self.cursor.at(9, 9)
        return board.view(
            [f"{self.title}  (set {question.set_version})"],
            [
                f"givens {givens} (bold)  yours {placed}  empty {81 - givens - placed}",
                f"grid {question.grid_id}   cursor row {row + 1} col {col + 1}",
            ],
            (row, col),
        )

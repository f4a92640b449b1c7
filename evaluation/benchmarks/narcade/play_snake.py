"""NARCADE Snake at the keyboard, lockstep: each key is one move.

Arrows (or h j k l) choose an absolute direction; Enter or space keeps the heading. Reversing into
the neck is a legal answer that keeps the heading, as the rules say. The answer is
`{"action": direction}` as any policy gives it. Rows and columns are numbered from 1 on screen
(`evaluation/play/board.py`); the head is drawn in its own style.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arcade_gym.snake.contract import SnakeQuestion
from arcade_gym.snake.render import render_ansi
from evaluation.play.board import labelled, render_cells
from evaluation.play.screen import View

DIRECTION_KEYS = {
    "up": "up",
    "k": "up",
    "right": "right",
    "l": "right",
    "down": "down",
    "j": "down",
    "left": "left",
    "h": "left",
}
HELP = ("arrows      turn (one key, one move)", "enter/space keep going the same way")


class SnakeKeys:
    """Keys are directions."""

    title = "NARCADE Snake (lockstep)"
    help: Sequence[str] = HELP

    def typing(self) -> bool:
        return False

    def press(self, question: SnakeQuestion, key: str) -> dict[str, Any] | None:
        direction = question.heading if key in ("enter", "space") else DIRECTION_KEYS.get(key)
        if direction is None:
            return None
        return {"action": direction}

    def view(self, question: SnakeQuestion) -> View:
        snake = [(cell.row, cell.col) for cell in question.snake]
        food = None if question.food is None else (question.food.row, question.food.col)
        picture = render_ansi(question.rows, question.cols, snake, food).splitlines()
        cells = render_cells(picture, question.rows, question.cols)
        head = snake[0] if snake else None

        def style(r: int, c: int) -> str | None:
            return "entry" if (r, c) == head else "good" if (r, c) == food else None

        status = (
            f"score {question.score}   length {question.length}   heading {question.heading}"
            f"   move {question.decision}"
        )
        drawn = labelled(cells, style=style)
        return drawn.view([f"{self.title}  ({question.difficulty})"], [status])

"""NARCADE Tetris with the six primitive controls at the keyboard, lockstep: one key is one
decision (one control, then one gravity row).

Left/right move, up or `x` rotates clockwise, `z` counter-clockwise, down soft-drops, Enter or
space hard-drops. The answer is `{"action": control}` as any policy gives it. Rows and columns
are numbered from 1 on screen (`evaluation/play/board.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from arcade_gym.tetris.primitive_contract import TetrisControlQuestion
from arcade_gym.tetris.render import render_ansi
from evaluation.play.board import labelled, render_cells
from evaluation.play.screen import View

CONTROL_KEYS = {
    "left": "left",
    "h": "left",
    "right": "right",
    "l": "right",
    "up": "rotate_cw",
    "x": "rotate_cw",
    "z": "rotate_ccw",
    "down": "soft_drop",
    "j": "soft_drop",
    "enter": "hard_drop",
    "space": "hard_drop",
}
"""Key -> control name."""

HELP = (
    "left/right  move        up or x  rotate clockwise    z  rotate counter-clockwise",
    "down        soft drop   enter/space  hard drop       (each key is one decision)",
)


class PrimitiveKeys:
    """Keys are controls; nothing else to remember."""

    title = "NARCADE Tetris (primitive controls, lockstep)"
    help: Sequence[str] = HELP

    def typing(self) -> bool:
        return False

    def press(self, question: TetrisControlQuestion, key: str) -> dict[str, Any] | None:
        control = CONTROL_KEYS.get(key)
        if control is None or control not in question.actions:
            return None
        return {"action": control}

    def view(self, question: TetrisControlQuestion) -> View:
        board = np.array([[ch != "." for ch in row] for row in question.board], dtype=np.uint8)
        piece = question.piece
        picture = render_ansi(board, (piece.type, piece.x, piece.y, piece.rotation)).splitlines()
        side = [
            f"piece {piece.type}",
            f"next  {' '.join(question.next)}",
            "",
            f"score {question.score}",
            f"lines {question.lines}   level {question.level}",
            f"pieces {question.pieces}   decision {question.decision}",
        ]
        cells = render_cells(picture, *board.shape)
        drawn = labelled(cells, style=lambda r, c: "entry" if cells[r][c] == "@" else None)
        return drawn.view([f"{self.title}  ({question.difficulty})"], [], side=side)

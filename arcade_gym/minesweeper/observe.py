"""The observation and action mask of `Minesweeper-v0`, rebuilt from a `MinesweeperQuestion`.

The question's `board` rows decode to the env's board (-2 hidden, -1 flagged, 0..8 revealed) and
its `actions` list every legal action, so both are read straight off it
(`tests/policies/test_sb3.py` pins the equality on recorded games).
"""

from __future__ import annotations

import numpy as np

from arcade_gym.minesweeper.contract import MinesweeperQuestion, parse_action
from arcade_gym.minesweeper.render import board_view
from arcade_gym.minesweeper.rules import action_index


def minesweeper_observation(question: MinesweeperQuestion) -> tuple[np.ndarray, np.ndarray]:
    """(the int8 (rows, cols) board, the int8 (2 * rows * cols,) action mask)."""
    board = board_view(question.board).reshape(question.rows, question.cols)
    mask = np.zeros(2 * question.rows * question.cols, np.int8)
    for text in question.actions:
        parsed = parse_action(text)
        if parsed is None:
            raise ValueError(f"unreadable listed action {text!r}")
        mask[action_index(*parsed, question.rows, question.cols)] = 1
    return board, mask

"""SB3 models on Minesweeper (`Minesweeper-v0`, NARCADE), as a `GameAdapter`
(`policies/sb3/adapter.py`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from policies.sb3.adapter import GameAdapter, Observed, grid_space


def _minesweeper_observe(question: Any) -> Observed:
    from arcade_gym.minesweeper.observe import minesweeper_observation

    return minesweeper_observation(question)


def _minesweeper_answer(action: int, question: Any, scores: np.ndarray) -> Any:
    from arcade_gym.minesweeper.contract import MinesweeperAnswer
    from arcade_gym.minesweeper.rules import action_from_index, action_text

    return MinesweeperAnswer(
        action=action_text(*action_from_index(action, question.rows, question.cols))
    )


ADAPTER = GameAdapter(
    "minesweeper",
    "arcade_gym/Minesweeper-v0",
    _minesweeper_observe,
    lambda q: grid_space(-2, 8, (q.rows, q.cols)),
    _minesweeper_answer,
)
"""NARCADE Minesweeper questions, on the question's board size."""

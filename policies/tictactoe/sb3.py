"""SB3 models on tic-tac-toe (`TicTacToe-v0`, the arena), as a `GameAdapter`
(`policies/sb3/adapter.py`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from policies.sb3.adapter import GameAdapter, Observed, grid_space


def _tictactoe_observe(question: Any) -> Observed:
    from arcade_gym.tictactoe.observe import tictactoe_observation

    return tictactoe_observation(question)


def _tictactoe_answer(action: int, question: Any, scores: np.ndarray) -> Any:
    from arcade_gym.tictactoe.contract import TicTacToeAnswer

    return TicTacToeAnswer(row=action // question.size, col=action % question.size)


ADAPTER = GameAdapter(
    "tictactoe",
    "arcade_gym/TicTacToe-v0",
    _tictactoe_observe,
    lambda q: grid_space(0, 1, (q.size, q.size, 2)),
    _tictactoe_answer,
)
"""Arena questions, on the question's board size."""

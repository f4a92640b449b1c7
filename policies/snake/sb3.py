"""SB3 models on Snake (`Snake-v0`, NARCADE), as a `GameAdapter` (`policies/sb3/adapter.py`)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
from gymnasium import spaces

from policies.sb3.adapter import GameAdapter, Observed


def _snake_observe(question: Any) -> Observed:
    from arcade_gym.snake.observe import snake_observation

    return snake_observation(question)


@lru_cache(maxsize=4)
def _snake_space_of(difficulty: str) -> spaces.Space[Any]:
    from arcade_gym.snake.env import SnakeEnv

    return SnakeEnv(difficulty=difficulty).observation_space


def _snake_answer(action: int, question: Any, scores: np.ndarray) -> Any:
    from arcade_gym.snake.contract import SnakeAnswer
    from arcade_gym.snake.rules import DIRECTION_NAMES

    return SnakeAnswer(action=DIRECTION_NAMES[action])


ADAPTER = GameAdapter(
    "snake",
    "arcade_gym/Snake-v0",
    _snake_observe,
    lambda q: _snake_space_of(q.difficulty),
    _snake_answer,
)
"""NARCADE Snake questions, on the question's board size."""

"""The observation of `Snake-v0`, rebuilt from a NARCADE `SnakeQuestion`.

The position the question shows is set up as a game (`SnakeGame.from_question`) and drawn by the
env's own kernel (`engine.observe`), so a model sees the arrays the env would have shown it
(`tests/policies/test_sb3.py` pins the equality on recorded games).
"""

from __future__ import annotations

import numpy as np

from arcade_gym.snake import engine as E
from arcade_gym.snake.contract import SnakeQuestion
from arcade_gym.snake.game import SnakeGame
from arcade_gym.snake.rules import N_DIRECTIONS, N_PLANES


def snake_observation(question: SnakeQuestion) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """(`Snake-v0`'s dict observation, its int8 action mask) in the state `question` shows."""
    game = SnakeGame.from_question(question)
    board = np.zeros((game.rows, game.cols, N_PLANES), np.float32)
    length = np.zeros(1, np.float32)
    mask = np.ones(N_DIRECTIONS, np.int8)
    E.observe(game.grid, game.body, game.st, board, length, mask)
    return {"board": board, "length": length}, mask

"""The observation and action mask of `TicTacToeEnv`, rebuilt from an arena `TicTacToeQuestion`.

The env shows the board from the agent's side: plane 0 its stones, plane 1 the opponent's. In the
arena the agent is the side to move, so its stones are `to_move`'s (`tests/policies/test_sb3.py`
pins the equality on recorded games).
"""

from __future__ import annotations

import numpy as np

from arcade_gym.tictactoe.contract import TicTacToeQuestion
from arcade_gym.tictactoe.game import TicTacToeGame


def tictactoe_observation(question: TicTacToeQuestion) -> tuple[np.ndarray, np.ndarray]:
    """(the int8 (size, size, 2) planes, the int8 (size * size,) mask of empty squares)."""
    game = TicTacToeGame.from_question(question)
    side = game.to_move
    board = game.board
    obs = np.empty((game.size, game.size, 2), np.int8)
    np.equal(board, side, out=obs[:, :, 0], casting="unsafe")
    np.equal(board, 3 - side, out=obs[:, :, 1], casting="unsafe")
    mask = (game.flat == 0).astype(np.int8)
    return obs, mask

"""Models trained on `Sudoku-v0` answering the Sudoku benchmark, as a `GameAdapter`
(`policies/sb3/adapter.py`).

The benchmark asks for a whole grid, so the adapter's `episode` plays the model from the
question's puzzle to the end (no legal placement left) on a `SudokuGame` that is never told the
solution: the model sees only what `Sudoku-v0` shows (board and candidates). The answer is the
grid as the model left it, with the share of blank cells it filled as its confidence (as the
technique solvers report theirs, `policies/sudoku/baselines.py`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
from gymnasium import spaces

from policies.sb3.adapter import Chooser, GameAdapter, Observed


def _game(question: Any) -> Any:
    from arcade_gym.sudoku.contract import SudokuQuestion
    from arcade_gym.sudoku.game import SudokuGame
    from arcade_gym.sudoku.rules import CELLS, parse_puzzle

    puzzle = parse_puzzle(SudokuQuestion.model_validate(question).puzzle)
    game = SudokuGame()
    game.reset(puzzle, np.zeros(CELLS, np.int8), "question", None)  # no solution: none is used
    return game


def _observed(game: Any) -> Observed:
    observation = {
        "board": game.board.reshape(9, 9).copy(),
        "candidates": game.mask.reshape(9, 9, 9).copy(),
    }
    return observation, game.mask.copy()


def _sudoku_observe(question: Any) -> Observed:
    return _observed(_game(question))


@lru_cache(maxsize=1)
def _sudoku_space() -> spaces.Space[Any]:
    from arcade_gym.sudoku.env import SudokuEnv

    return SudokuEnv().observation_space


def _rows(board: np.ndarray) -> list[str]:
    digits = "".join(str(int(d)) for d in board.reshape(-1))
    return [digits[r * 9 : r * 9 + 9] for r in range(9)]


def _answer_for(game: Any, blanks: int) -> Any:
    from arcade_gym.sudoku.contract import SudokuAnswer

    filled = int(np.count_nonzero(game.board)) - (81 - blanks)
    confidence = 100.0 if blanks == 0 else round(100.0 * filled / blanks, 1)
    return SudokuAnswer(grid=_rows(game.board), confidence=confidence)


def _sudoku_answer(action: int, question: Any, scores: np.ndarray) -> Any:
    """One step's answer: the puzzle with that one placement (when it is legal)."""
    game = _game(question)
    blanks = 81 - int(np.count_nonzero(game.board))
    if game.mask[action]:
        game.play(action)
    return _answer_for(game, blanks)


def _sudoku_episode(choose: Chooser, question: Any) -> Any:
    """Play `choose` from the question's puzzle until no placement is legal; answer the grid."""
    game = _game(question)
    blanks = 81 - int(np.count_nonzero(game.board))
    for _ in range(blanks):
        observation, mask = _observed(game)
        if not mask.any():
            break
        action = int(choose(observation, mask))
        if not 0 <= action < mask.shape[0] or not mask[action]:
            break  # a chooser that names no legal placement ends its episode
        game.play(action)
    return _answer_for(game, blanks)


ADAPTER = GameAdapter(
    "sudoku",
    "arcade_gym/Sudoku-v0",
    _sudoku_observe,
    lambda q: _sudoku_space(),
    _sudoku_answer,
    episode=_sudoku_episode,
)
"""Sudoku benchmark questions: the model fills the grid, placement by placement."""

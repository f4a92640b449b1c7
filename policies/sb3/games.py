"""Per game: the benchmark question -> the env's observation and mask, and an action -> the answer.

Each adapter rebuilds the observation with the game's `observe` module (`arcade_gym/<game>/
observe.py`, tested equal to what the env shows) and knows the env's structured observation
space, so a model trained with `observation="flat"` gets the same one-vector form the env gave it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from gymnasium import spaces

Observed = tuple[Any, np.ndarray]
"""(the env's observation, its int8 action mask)."""


@dataclass(frozen=True)
class GameAdapter:
    """How an SB3 model trained on one env answers one benchmark's questions."""

    game: str
    env_id: str
    observe: Callable[[Any], Observed]
    space: Callable[[Any], spaces.Space[Any]]
    answer: Callable[[int, Any, np.ndarray], Any]
    """`answer(action, question, masked_scores)`: the benchmark's answer for `action`."""
    configure: Callable[[spaces.Space[Any]], GameAdapter] | None = None
    """For an env with observation options: the adapter matching a model's observation space."""

    def for_model(self, observation_space: spaces.Space[Any]) -> GameAdapter:
        """The adapter that rebuilds observations in the form this model was trained on."""
        return self if self.configure is None else self.configure(observation_space)


# --- Tetris Bench (Tetris-v3) ----------------------------------------------------------------
def _tetris_observe(question: Any, placement_features: str = "basic") -> Observed:
    from arcade_gym.tetris.observe import placement_mask, placements_observation

    return placements_observation(question, placement_features), placement_mask(question)


@lru_cache(maxsize=4)
def _tetris_space(
    placement_features: str = "basic", observation: str = "dict"
) -> spaces.Space[Any]:
    from arcade_gym.tetris.env import TetrisEnv

    env = TetrisEnv(placement_features=placement_features, observation=observation)
    return env.observation_space


def _tetris_features_of(observation_space: spaces.Space[Any]) -> str:
    """The `placement_features` option a model's observation space was built with: 12 feature
    columns (or the flat length of that) are "extended", anything else "basic"."""
    if isinstance(observation_space, spaces.Dict):
        placements = observation_space.spaces.get("placements")
        shape = placements.shape if placements is not None else None
        return "extended" if shape is not None and shape[-1] == 12 else "basic"
    if observation_space.shape == _tetris_space("extended", "flat").shape:
        return "extended"
    return "basic"


def _tetris_for(observation_space: spaces.Space[Any]) -> GameAdapter:
    features = _tetris_features_of(observation_space)
    return GameAdapter(
        "tetris",
        "arcade_gym/Tetris-v3",
        lambda q: _tetris_observe(q, features),
        lambda q: _tetris_space(features),
        _tetris_answer,
    )


def _tetris_answer(action: int, question: Any, scores: np.ndarray) -> Any:
    """A placement is played as it is; hold (action 44) is requested with the best placement
    as the required choice (the protocol holds and asks again)."""
    from arcade_gym.tetris.contract import AgentAnswer
    from arcade_gym.tetris.env import action_to_placement
    from arcade_gym.tetris.rules import HOLD_ACTION

    hold = action == HOLD_ACTION
    if hold:
        placements = scores[:HOLD_ACTION]
        action = int(np.argmax(placements)) if np.isfinite(placements).any() else action
    placement = action_to_placement(action)
    if placement is None:  # hold is all the question allows: name any listed placement
        first = question.legal[0]
        placement = (first.x, first.rotation)
    return AgentAnswer.single(question.state_hash, placement, hold=hold)


# --- NARCADE Tetris with primitive controls (TetrisPrimitive-v3) ------------------------------
def _controls_observe(question: Any) -> Observed:
    from arcade_gym.tetris.env import PRIMITIVE_CONTROLS
    from arcade_gym.tetris.observe import controls_observation

    return controls_observation(question), np.ones(len(PRIMITIVE_CONTROLS), np.int8)


@lru_cache(maxsize=1)
def _controls_space() -> spaces.Space[Any]:
    from arcade_gym.tetris.env import TetrisPrimitiveEnv

    return TetrisPrimitiveEnv().observation_space


def _controls_answer(action: int, question: Any, scores: np.ndarray) -> Any:
    from arcade_gym.tetris.primitive_contract import CONTROLS, TetrisControlAnswer

    return TetrisControlAnswer(action=CONTROLS[action])


# --- NARCADE Snake (Snake-v0) -----------------------------------------------------------------
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


# --- NARCADE Minesweeper (Minesweeper-v0) -----------------------------------------------------
def _minesweeper_observe(question: Any) -> Observed:
    from arcade_gym.minesweeper.observe import minesweeper_observation

    return minesweeper_observation(question)


def _grid_space(low: int, high: int, shape: tuple[int, ...]) -> spaces.Space[Any]:
    return spaces.Box(low, high, shape, np.int8)


def _minesweeper_answer(action: int, question: Any, scores: np.ndarray) -> Any:
    from arcade_gym.minesweeper.contract import MinesweeperAnswer
    from arcade_gym.minesweeper.rules import action_from_index, action_text

    return MinesweeperAnswer(
        action=action_text(*action_from_index(action, question.rows, question.cols))
    )


# --- the tic-tac-toe arena (TicTacToe-v0) -----------------------------------------------------
def _tictactoe_observe(question: Any) -> Observed:
    from arcade_gym.tictactoe.observe import tictactoe_observation

    return tictactoe_observation(question)


def _tictactoe_answer(action: int, question: Any, scores: np.ndarray) -> Any:
    from arcade_gym.tictactoe.contract import TicTacToeAnswer

    return TicTacToeAnswer(row=action // question.size, col=action % question.size)


ADAPTERS: dict[str, GameAdapter] = {
    "tetris": GameAdapter(
        "tetris",
        "arcade_gym/Tetris-v3",
        _tetris_observe,
        lambda q: _tetris_space(),
        _tetris_answer,
        configure=_tetris_for,
    ),
    "tetris-controls": GameAdapter(
        "tetris-controls",
        "arcade_gym/TetrisPrimitive-v3",
        _controls_observe,
        lambda q: _controls_space(),
        _controls_answer,
    ),
    "snake": GameAdapter(
        "snake",
        "arcade_gym/Snake-v0",
        _snake_observe,
        lambda q: _snake_space_of(q.difficulty),
        _snake_answer,
    ),
    "minesweeper": GameAdapter(
        "minesweeper",
        "arcade_gym/Minesweeper-v0",
        _minesweeper_observe,
        lambda q: _grid_space(-2, 8, (q.rows, q.cols)),
        _minesweeper_answer,
    ),
    "tictactoe": GameAdapter(
        "tictactoe",
        "arcade_gym/TicTacToe-v0",
        _tictactoe_observe,
        lambda q: _grid_space(0, 1, (q.size, q.size, 2)),
        _tictactoe_answer,
    ),
}
"""Policy-grammar game -> its adapter."""

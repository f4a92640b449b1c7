"""SB3 models on Tetris: `Tetris-v3` placements (Tetris Bench) and `TetrisPrimitive-v3` controls
(NARCADE), each as a `GameAdapter` (`policies/sb3/adapter.py`)."""

from __future__ import annotations

import importlib
import sys
import types
from functools import lru_cache
from typing import Any

import numpy as np
from gymnasium import spaces

from policies.sb3.adapter import GameAdapter, Observed


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


ADAPTER = GameAdapter(
    "tetris",
    "arcade_gym/Tetris-v3",
    _tetris_observe,
    lambda q: _tetris_space(),
    _tetris_answer,
    configure=_tetris_for,
)
"""Tetris Bench questions; the observation form follows the model (`for_model`)."""

CONTROLS_ADAPTER = GameAdapter(
    "tetris-primitive",
    "arcade_gym/TetrisPrimitive-v3",
    _controls_observe,
    lambda q: _controls_space(),
    _controls_answer,
)
"""NARCADE Tetris questions (six primitive controls)."""

MOVED_POLICY_MODULE = "policies.sb3.afterstate"
"""Where `AfterstatePolicy` (`policies/tetris/afterstate.py`) lived when older models were saved:
their zips pickle the class under this name."""


def _keep_the_moved_policy_loadable() -> None:
    """Make `MOVED_POLICY_MODULE` resolve to `policies.tetris.afterstate` on first use (torch is
    imported only when a pickle asks for the class), so a model saved before the move still
    loads through `sb3:` (the adapter is found before the model is read)."""
    if MOVED_POLICY_MODULE in sys.modules:
        return
    alias = types.ModuleType(MOVED_POLICY_MODULE, "Moved: policies/tetris/afterstate.py.")

    def resolve(name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(importlib.import_module("policies.tetris.afterstate"), name)

    alias.__getattr__ = resolve  # type: ignore[method-assign]
    sys.modules[MOVED_POLICY_MODULE] = alias


_keep_the_moved_policy_loadable()

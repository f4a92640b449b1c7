"""How an SB3 model trained on an env answers that env's benchmark questions: one `GameAdapter`.

Each game's adapter lives in its policies folder (`policies/<game>/sb3.py`) and is named by the
folder's `POLICIES` entry; it rebuilds the observation with the game's `observe` module
(`arcade_gym/<game>/observe.py`, tested equal to what the env shows) and knows the env's structured
observation space, so a model trained with `observation="flat"` gets the one-vector form the env
gave it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from gymnasium import spaces

Observed = tuple[Any, np.ndarray]
"""(the env's observation, its int8 action mask)."""
Chooser = Callable[[Any, np.ndarray], int]
"""`choose(observation, mask) -> action`: a model's move in the env's own terms."""


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
    episode: Callable[[Chooser, Any], Any] | None = None
    """For a benchmark whose answer is a whole episode's result (a filled puzzle grid):
    `episode(choose, question)` plays `choose(observation, mask) -> action` from the question's
    position in the env and answers with the result; `observe`/`answer` then serve one step."""

    def for_model(self, observation_space: spaces.Space[Any]) -> GameAdapter:
        """The adapter that rebuilds observations in the form this model was trained on."""
        return self if self.configure is None else self.configure(observation_space)


def grid_space(low: int, high: int, shape: tuple[int, ...]) -> spaces.Space[Any]:
    """An int8 Box: the observation space of a board the question gives the size of."""
    return spaces.Box(low, high, shape, np.int8)

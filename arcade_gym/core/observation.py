"""`observation="flat"`: any env observation as one finite float32 vector.

SB3's `MlpPolicy` (and most learners) want a 1-D `Box`. A `Box` part is raveled and cast, a
`Discrete(n)` becomes a one-hot of n, a `MultiDiscrete` one one-hot per entry, in the order of the
space (for a `Dict`, its key order). Bounds stay finite, so `NormalizeObservation` and the
checkers have nothing to warn about. Vector envs flatten a whole batch at once (`batch`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from gymnasium import spaces

OBSERVATION_MODES = ("dict", "flat")
"""`dict`: the env's structured observation (a Dict, or its one Box); `flat`: one float32 vector."""


@dataclass(frozen=True)
class _Part:
    """One leaf space at columns [start, start + size) of the flat vector."""

    kind: str  # box | onehot
    start: int
    size: int
    offsets: np.ndarray  # onehot: the first column of each entry's one-hot, minus its `start`


def _leaf(space: spaces.Space[Any], start: int) -> tuple[_Part, np.ndarray, np.ndarray]:
    if isinstance(space, spaces.Box):
        size = int(np.prod(space.shape))
        low = space.low.reshape(-1).astype(np.float32)
        high = space.high.reshape(-1).astype(np.float32)
        if not (np.isfinite(low).all() and np.isfinite(high).all()):
            raise ValueError(f"cannot flatten a Box with infinite bounds: {space}")
        return _Part("box", start, size, np.zeros(0, np.int64)), low, high
    if isinstance(space, spaces.Discrete):
        nvec, base = np.array([int(space.n)]), np.array([int(space.start)])
    elif isinstance(space, spaces.MultiDiscrete):
        nvec = space.nvec.reshape(-1).astype(np.int64)
        base = space.start.reshape(-1).astype(np.int64)
    else:
        raise TypeError(f"cannot flatten a {type(space).__name__} observation")
    size = int(nvec.sum())
    offsets = start + np.concatenate([[0], np.cumsum(nvec)[:-1]]) - base
    ones = np.ones(size, np.float32)
    return _Part("onehot", start, size, offsets.astype(np.int64)), ones * 0, ones


class Flattener:
    """Writes observations of `space` into one float32 vector; `space_flat` is its Box."""

    def __init__(self, space: spaces.Space[Any]) -> None:
        leaves = list(space.spaces.items()) if isinstance(space, spaces.Dict) else [(None, space)]
        self._parts: list[tuple[str | None, _Part]] = []
        lows, highs, size = [], [], 0
        for key, leaf in leaves:
            part, low, high = _leaf(leaf, size)
            self._parts.append((key, part))
            lows.append(low)
            highs.append(high)
            size += part.size
        self.size = size
        self.space_flat = spaces.Box(np.concatenate(lows), np.concatenate(highs), dtype=np.float32)

    def __call__(self, observation: Any) -> np.ndarray:
        return self.batch(_add_axis(observation), 1)[0]

    def batch(self, observations: Any, n: int) -> np.ndarray:
        """(n, size): every row of a batched observation (a vector env's) flattened at once."""
        out = np.zeros((n, self.size), np.float32)
        rows = np.arange(n)[:, None]
        for key, part in self._parts:
            value = np.asarray(observations if key is None else observations[key]).reshape(n, -1)
            if part.kind == "box":
                out[:, part.start : part.start + part.size] = value
            else:
                out[rows, part.offsets[None, :] + value] = 1.0
        return out


def _add_axis(observation: Any) -> Any:
    if isinstance(observation, dict):
        return {key: np.asarray(value)[None] for key, value in observation.items()}
    return np.asarray(observation)[None]

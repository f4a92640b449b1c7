"""`observation="flat"`: any env observation as one finite float32 vector.

SB3's `MlpPolicy` (and most learners) want a 1-D `Box`. A `Box` part is raveled and cast, a
`Discrete(n)` becomes a one-hot of n, a `MultiDiscrete` one one-hot per entry, in the order of the
space (for a `Dict`, its key order). Bounds stay finite, so `NormalizeObservation` and the
checkers have nothing to warn about.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium import spaces

OBSERVATION_MODES = ("dict", "flat")
"""`dict`: the env's structured observation (a Dict, or its one Box); `flat`: one float32 vector."""

_Writer = Callable[[np.ndarray, Any], None]


def _part(space: spaces.Space[Any], start: int) -> tuple[int, np.ndarray, np.ndarray, _Writer]:
    """(size, low, high, write(out, value)) of one leaf space placed at `start`."""
    if isinstance(space, spaces.Box):
        size = int(np.prod(space.shape))
        low = space.low.reshape(-1).astype(np.float32)
        high = space.high.reshape(-1).astype(np.float32)
        if not (np.isfinite(low).all() and np.isfinite(high).all()):
            raise ValueError(f"cannot flatten a Box with infinite bounds: {space}")
        stop = start + size

        def write_box(out: np.ndarray, value: Any) -> None:
            out[start:stop] = np.asarray(value).reshape(-1)

        return size, low, high, write_box
    if isinstance(space, spaces.Discrete):
        n, offset = int(space.n), int(space.start)

        def write_discrete(out: np.ndarray, value: Any) -> None:
            out[start : start + n] = 0.0
            out[start + int(value) - offset] = 1.0

        return n, np.zeros(n, np.float32), np.ones(n, np.float32), write_discrete
    if isinstance(space, spaces.MultiDiscrete):
        nvec = space.nvec.reshape(-1).astype(np.int64)
        offsets = start + np.concatenate([[0], np.cumsum(nvec)[:-1]])
        size = int(nvec.sum())
        base = space.start.reshape(-1).astype(np.int64)

        def write_multi(out: np.ndarray, value: Any) -> None:
            out[start : start + size] = 0.0
            out[offsets + np.asarray(value).reshape(-1) - base] = 1.0

        return size, np.zeros(size, np.float32), np.ones(size, np.float32), write_multi
    raise TypeError(f"cannot flatten a {type(space).__name__} observation")


class Flattener:
    """Writes observations of `space` into one float32 vector; `space_flat` is its Box."""

    def __init__(self, space: spaces.Space[Any]) -> None:
        leaves = list(space.spaces.items()) if isinstance(space, spaces.Dict) else [(None, space)]
        self._writers: list[tuple[str | None, _Writer]] = []
        lows, highs, size = [], [], 0
        for key, leaf in leaves:
            n, low, high, write = _part(leaf, size)
            self._writers.append((key, write))
            lows.append(low)
            highs.append(high)
            size += n
        self.size = size
        self.space_flat = spaces.Box(np.concatenate(lows), np.concatenate(highs), dtype=np.float32)

    def __call__(self, observation: Any) -> np.ndarray:
        out = np.empty(self.size, np.float32)
        for key, write in self._writers:
            write(out, observation if key is None else observation[key])
        return out

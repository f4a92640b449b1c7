"""Spaces shared by the envs."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces


class MaskedDiscrete(spaces.Discrete):
    """A `Discrete` space whose `sample()` draws a legal action of its env by default.

    It holds the env's live action mask, so `env.action_space.sample()` never picks a masked
    action (an explicit `mask=` or `probability=` still wins). It is a plain `Discrete` to every
    learner that does not sample from it.
    """

    def __init__(self, n: int, live_mask: np.ndarray, seed: int | None = None) -> None:
        super().__init__(n, seed=seed)
        self._live_mask = live_mask

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        if mask is None and probability is None and self._live_mask.any():
            mask = self._live_mask.astype(np.int8)
        return super().sample(mask=mask, probability=probability)

"""Spaces shared by the envs."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector.utils import batch_space
from numba import njit

from arcade_gym.core.copying import KeepsViews


class MaskedDiscrete(KeepsViews, spaces.Discrete):
    """A `Discrete` space whose `sample()` draws a legal action of its env by default.

    It holds the env's live action mask, so `env.action_space.sample()` never picks a masked
    action (an explicit `mask=` or `probability=` still wins). It is a plain `Discrete` to every
    learner that does not sample from it.

    A sample is legal in the state it was drawn in. Gymnasium's `check_env` draws one, then
    resets to another state and steps it there; so the space remembers the very object
    `sample()` returned last (`last_sample`), the env marks it stale when it resets, and when
    exactly that object is stepped after a reset and is illegal there, the env plays
    `resolve_stale(action)`: the legal action at position `action mod count` of the current
    mask (deterministic, so the checker's two steps agree). Any other masked action raises,
    including a sample stepped twice within one episode.
    """

    def __init__(self, n: int, live_mask: np.ndarray, seed: int | None = None) -> None:
        super().__init__(n, seed=seed)
        self._live_mask = live_mask
        self.last_sample: object = None
        self.stale = False

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        explicit = mask is not None or probability is not None
        if not explicit and self._live_mask.any():
            mask = self._live_mask.astype(np.int8)
        value = super().sample(mask=mask, probability=probability)
        self.last_sample = None if explicit else value
        self.stale = False
        return value

    def mark_stale(self) -> None:
        """The env reset: the last sample was drawn in another state."""
        self.stale = self.last_sample is not None

    def resolve_stale(self, action: int) -> int | None:
        """The legal action a stale `sample()` stands for now, or None if nothing is legal."""
        legal = np.flatnonzero(self._live_mask)
        if legal.size == 0:
            return None
        return int(legal[int(action) % legal.size])


class BatchMaskedDiscrete(KeepsViews, spaces.MultiDiscrete):
    """The action space of a native vector env: N copies of `Discrete(n)` whose `sample()` draws
    a legal action for every game from the live (N, n) mask (an all-zero row draws 0; a game
    that resets on this step ignores its action). `sample(mask=...)` with an (N, n) array or a
    tuple of rows overrides the live mask."""

    def __init__(self, n: int, live_masks: np.ndarray, seed: int | None = None) -> None:
        super().__init__(np.full(live_masks.shape[0], n, np.int64), seed=seed)
        self._live_masks = live_masks

    def sample(self, mask: Any = None, probability: Any = None) -> np.ndarray:
        if probability is not None:
            return super().sample(probability=probability)
        masks = (
            self._live_masks
            if mask is None
            else np.asarray(np.stack(mask) if isinstance(mask, tuple) else mask)
        )
        return sample_rows(masks, self.np_random)


def sample_rows(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly drawn legal index per row of an (N, n) 0/1 mask (0 for an empty row)."""
    out = np.empty(masks.shape[0], np.int64)
    u: np.ndarray = np.asarray(rng.random(masks.shape[0]), np.float64)
    pick_legal(np.ascontiguousarray(masks, dtype=np.int8), u, out)
    return out


@njit(cache=True)
def pick_legal(masks: np.ndarray, u: np.ndarray, out: np.ndarray) -> None:
    """out[i] = the floor(u[i] * count)-th legal index of row i (0 when none is legal).
    The search has no data-dependent branch (a random row mispredicts every one)."""
    for i in range(masks.shape[0]):
        count = 0
        for a in range(masks.shape[1]):
            count += masks[i, a] != 0
        target = min(int(u[i] * count), count - 1)
        seen = 0
        pick = 0
        for a in range(masks.shape[1]):
            legal = masks[i, a] != 0
            pick = a if legal and seen == target else pick
            seen += legal
        out[i] = pick


@batch_space.register(MaskedDiscrete)
def _batch_masked_discrete(space: MaskedDiscrete, n: int = 1) -> BatchMaskedDiscrete:
    """`make_vec(..., "sync"|"async")` batches a `MaskedDiscrete` into a `BatchMaskedDiscrete`,
    so `envs.action_space.sample(mask=infos["action_mask"])` takes the (N, A) masks as they
    come. Without a mask it samples every action (the sub-envs' masks live in other objects or
    processes); `arcade_gym.core.masked_vector.MaskedVectorEnv` keeps them live."""
    return BatchMaskedDiscrete(int(space.n), np.ones((n, int(space.n)), np.int8))

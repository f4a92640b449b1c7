"""Mask-safe sampling and checks for Gymnasium's vector envs (`make_vec(..., "sync"|"async")`).

`gym.make_vec` builds a `SyncVectorEnv` or `AsyncVectorEnv` of single envs. Their batched
action space is a `BatchMaskedDiscrete` (`arcade_gym/core/spaces.py`), so the documented route
is either of:

    envs = gym.make_vec(ID, num_envs=8, vectorization_mode="async")
    actions = envs.action_space.sample(mask=infos["action_mask"])    # the (N, A) masks

    envs = MaskedVectorEnv(gym.make_vec(ID, num_envs=8, vectorization_mode="async"))
    actions = envs.action_space.sample()                              # follows the live masks

`MaskedVectorEnv` keeps the masks each step reports live in its action space and checks actions
here, in the main process: a masked action raises ValueError before it is sent, so an async
worker never dies of one (an exception inside a worker ends that worker). Sub-envs made with
`illegal_action="penalty"|"terminate"` get their actions unchecked and pay the penalty.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.vector import AsyncVectorEnv, SyncVectorEnv, VectorWrapper

from arcade_gym.core.spaces import BatchMaskedDiscrete


class MaskedVectorEnv(VectorWrapper):
    """A `SyncVectorEnv` / `AsyncVectorEnv` of arcade-gym envs with live masks (module doc)."""

    def __init__(self, env: SyncVectorEnv | AsyncVectorEnv) -> None:
        super().__init__(env)
        n, actions = env.num_envs, int(env.single_action_space.n)  # type: ignore[attr-defined]
        self._masks = np.ones((n, actions), np.int8)
        self.action_space = BatchMaskedDiscrete(actions, self._masks)
        modes = env.get_attr("illegal_action")
        advisory = env.get_attr("masked_actions_legal")
        self._checked = np.array(
            [m == "raise" and not a for m, a in zip(modes, advisory, strict=True)], bool
        )
        self._ended = np.zeros(n, bool)

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        obs, infos = self.env.reset(seed=seed, options=options)  # type: ignore[arg-type]
        self._observe(infos)
        self._ended[:] = False
        return obs, infos

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        acts = np.asarray(actions)
        live = self._checked & ~self._ended  # a game resetting on this step ignores its action
        if acts.shape == (self.num_envs,) and acts.dtype.kind in "iu" and live.any():
            n = self._masks.shape[1]
            inside = (acts >= 0) & (acts < n)
            masked = (
                live & inside & (self._masks[np.arange(self.num_envs), acts.clip(0, n - 1)] == 0)
            )
            if masked.any():
                i = int(np.flatnonzero(masked)[0])
                raise ValueError(
                    f"action {int(acts[i])} of game {i} is masked out (not sent to the env); "
                    "sample with envs.action_space.sample() or choose where "
                    "infos['action_mask'] is 1"
                )
        obs, rewards, terminations, truncations, infos = self.env.step(actions)
        self._observe(infos)
        self._ended = np.asarray(terminations) | np.asarray(truncations)
        return obs, rewards, terminations, truncations, infos

    def action_masks(self) -> np.ndarray:
        """(N, A) boolean masks as the last step reported them."""
        return self._masks.astype(bool)

    def _observe(self, infos: dict[str, Any]) -> None:
        masks = infos.get("action_mask")
        if masks is not None:
            np.copyto(self._masks, np.asarray(masks, np.int8))

"""The base of the native vector envs: N games of one kind stepped by one numba call.

`gym.make_vec(ID, num_envs=N, vectorization_mode="vector_entry_point")` returns one of these
(the game's `arcade_gym/<game>/vector.py`). What they share lives here:

- spaces: `single_*` are the single env's; the action space is a `BatchMaskedDiscrete` whose
  `sample()` draws a legal action for every game; `action_masks()` and `info["action_mask"]`
  are the (N, A) masks;
- seeds: game i's episode seeds come from its own `np_random`, exactly as the single env draws
  them, pre-drawn in blocks (`_draws`) so the kernels reset games without Python;
  `reset(seed=s)` seeds game i with `s + i` (a list gives one seed per game), as Gymnasium's
  vector envs do, so game i replays what `single_env.reset(seed=s + i)` plays;
- autoreset: Gymnasium 1.x's `NEXT_STEP` mode: the step after a game ends resets it (its action
  is ignored, its reward is 0, its mask is the new game's);
- the action check: integer actions of shape (N,), in range, unmasked (a ValueError names the
  game), or `illegal_action="penalty"|"terminate"` as in the single env.

How a game uses it: subclass, build the stacked state arrays and call `_setup(...)`, implement
`_draws(rng, k)` (k episode seeds as the single env draws them), `_kernel_reset(games)` and
`_kernel_step(actions)` (one numba call each; see `arcade_gym/snake/vector.py`), `_observations()`
and, for caps, `_decisions_left()`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from arcade_gym.core.args import check_choice, check_int, check_reward
from arcade_gym.core.copying import KeepsViews
from arcade_gym.core.env import ILLEGAL_ACTION_MODES, reset_options
from arcade_gym.core.observation import OBSERVATION_MODES, Flattener
from arcade_gym.core.spaces import BatchMaskedDiscrete

SEED_BLOCK = 16
"""Episode seeds pre-drawn per game; refilled from the game's `np_random` when used up."""

MAX_NUM_ENVS = 1 << 20


class ArcadeVectorEnv(KeepsViews, VectorEnv[Any, np.ndarray, np.ndarray]):
    """Shared behaviour of the native vector envs (this module's docstring says how to use it)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def _setup(
        self,
        num_envs: int,
        n_actions: int,
        masks: np.ndarray,
        single_observation_space: spaces.Space[Any],
        *,
        observation: str,
        illegal_action: str,
        illegal_reward: float,
        seed_dtype: type,
        masked_actions_legal: bool = False,
    ) -> None:
        """Spaces, masks, seed blocks and step buffers; `masks` is the kernels' (N, A) int8."""
        n = self.num_envs = num_envs
        self.single_action_space = spaces.Discrete(n_actions)
        self.action_space = BatchMaskedDiscrete(n_actions, masks)
        self._masks = masks
        self.masked_actions_legal = masked_actions_legal
        self.observation_mode = check_choice("observation", observation, OBSERVATION_MODES)
        self._flatten = Flattener(single_observation_space) if observation == "flat" else None
        self.single_observation_space = (
            self._flatten.space_flat if self._flatten is not None else single_observation_space
        )
        self.observation_space = batch_space(self.single_observation_space, n)
        self.illegal_action = check_choice("illegal_action", illegal_action, ILLEGAL_ACTION_MODES)
        self.illegal_reward = check_reward("illegal_reward", illegal_reward)
        self._rngs: list[np.random.Generator | None] = [None] * n
        self._seeds: np.ndarray = np.zeros((n, SEED_BLOCK), seed_dtype)
        self._seed_pos = np.full(n, SEED_BLOCK, np.int64)
        self.rewards = np.zeros(n, np.float64)
        self.terminations = np.zeros(n, np.bool_)
        self.truncations = np.zeros(n, np.bool_)
        self._needs_reset = np.zeros(n, np.bool_)
        self._illegal = np.zeros(n, np.int64)
        self._ones = np.ones(n, np.bool_)
        self._all = np.arange(n)
        self._started = False

    # --- hooks a game implements ----------------------------------------------------------------
    def _draws(self, rng: np.random.Generator, k: int) -> np.ndarray:
        """The next k episode seeds of one game, as its single env would draw them."""
        raise NotImplementedError

    def _kernel_reset(self, games: np.ndarray) -> None:
        """Start a new game in each listed slot, from `_seeds[i, _seed_pos[i]]` (then advance)."""
        raise NotImplementedError

    def _kernel_step(self, actions: np.ndarray) -> None:
        """One numba call: reset the games in `_needs_reset`, step the others with `actions`
        (-1: leave that game as it is), fill `rewards`, `terminations`, `truncations`, masks."""
        raise NotImplementedError

    def _observations(self) -> Any:
        """Copies of the batched observation buffers (a dict of arrays, or one array)."""
        raise NotImplementedError

    def _decisions_left(self) -> np.ndarray | None:
        """Per game, the decisions its cap still allows (None: no cap)."""
        return None

    # --- Gymnasium API --------------------------------------------------------------------------
    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Any, dict[str, Any]]:
        opts = reset_options(options)
        if opts:
            raise ValueError(
                f"unknown reset option(s) {sorted(map(str, opts))}; the vector envs take "
                "seeds as reset(seed=int or a list of ints)"
            )
        n = self.num_envs
        if seed is None:
            seeds: list[int | None] = [None] * n
        elif isinstance(seed, int | np.integer) and not isinstance(seed, bool):
            seeds = [int(seed) + i for i in range(n)]
        elif isinstance(seed, Sequence):
            seeds = list(seed)
            if len(seeds) != n:
                raise ValueError(
                    f"reset(seed=[...]) needs {n} seeds, one per game, got {len(seeds)}"
                )
        else:
            raise TypeError(f"seed must be an int, a list of {n} ints or None, got {seed!r}")
        for i, s in enumerate(seeds):
            if s is not None or self._rngs[i] is None:
                self._rngs[i] = seeding.np_random(None if s is None else int(s))[0]
                self._seed_pos[i] = SEED_BLOCK  # the old block belongs to the old generator
        self._refill()
        self._kernel_reset(self._all)
        self._needs_reset[:] = False
        self._illegal[:] = 0
        self._started = True
        return self._observed(), self._infos()

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if not self._started:
            raise RuntimeError("call reset() first")
        acts = self._checked(actions)
        penalised = None
        counting = bool(self._illegal.any())
        resetting = self._needs_reset.copy() if counting else None
        if self.illegal_action == "raise" or not self._illegal_any(acts):
            self._kernel_step(acts)
        else:
            penalised = self._illegal_mask(acts)
            self._kernel_step(np.where(penalised, -1, acts))
            self._penalise(penalised)
            counting = True
        if counting:
            if resetting is not None:
                self._illegal[resetting] = 0
            self._cap_penalised()
        self._refill()
        infos = self._infos()
        if penalised is not None:
            infos["illegal"] = penalised
        return (
            self._observed(),
            self.rewards.copy(),
            self.terminations.copy(),
            self.truncations.copy(),
            infos,
        )

    def reset_finished(self) -> Any:
        """Start the games that ended on the last step now rather than on the next one (the
        same-step autoreset SB3's `VecEnv` expects); returns every game's observation."""
        finished = self._needs_reset.copy()
        if finished.any():
            self._kernel_step(np.full(self.num_envs, -1, np.int64))  # -1 leaves a game as it is
            self._illegal[finished] = 0
            self._refill()
        return self._observed()

    def action_masks(self) -> np.ndarray:
        """(N, A) boolean masks of the legal actions (MaskablePPO's vectorised form)."""
        return self._masks.astype(bool)

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the games are numpy arrays."""

    # --- shared machinery -----------------------------------------------------------------------
    def _refill(self) -> None:
        """Pre-draw new seed blocks for games that used theirs up."""
        if self._seed_pos.max() < SEED_BLOCK:
            return
        for i in np.flatnonzero(self._seed_pos >= SEED_BLOCK):
            rng = self._rngs[i]
            assert rng is not None
            self._seeds[i] = self._draws(rng, SEED_BLOCK)
            self._seed_pos[i] = 0

    def _checked(self, actions: Any) -> np.ndarray:
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or acts.dtype.kind not in "iu":
            raise TypeError(
                f"actions must be integers of shape ({self.num_envs},), got {acts.dtype} "
                f"{acts.shape}"
            )
        acts = acts.astype(np.int64, copy=False)
        n = self.single_action_space.n  # type: ignore[attr-defined]
        bad = (acts < 0) | (acts >= n)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise ValueError(f"action {int(acts[i])} of game {i} is out of range [0, {n})")
        if self.illegal_action == "raise" and self._illegal_any(acts):
            i = int(np.flatnonzero(self._illegal_mask(acts))[0])
            raise ValueError(
                f"action {int(acts[i])} of game {i} is masked out; choose actions where "
                "info['action_mask'] / action_masks() is 1"
            )
        return acts

    def _illegal_mask(self, acts: np.ndarray) -> np.ndarray:
        """Games whose action is masked (games resetting on this step are never illegal)."""
        return (self._masks[self._all, acts] == 0) & ~self._needs_reset

    def _illegal_any(self, acts: np.ndarray) -> bool:
        return not self.masked_actions_legal and bool(self._illegal_mask(acts).any())

    def _penalise(self, penalised: np.ndarray) -> None:
        self.rewards[penalised] = self.illegal_reward
        self._illegal[penalised] += 1
        if self.illegal_action == "terminate":
            self.terminations[penalised] = True
            self._needs_reset[penalised] = True

    def _cap_penalised(self) -> None:
        """End games whose penalised steps used up their decision cap."""
        left = self._decisions_left()
        if left is not None:
            over = (self._illegal > 0) & (self._illegal >= left) & ~self._needs_reset
            self.truncations[over] = True
            self._needs_reset[over] = True

    def _observed(self) -> Any:
        obs = self._observations()
        return obs if self._flatten is None else self._flatten.batch(obs, self.num_envs)

    def _infos(self) -> dict[str, Any]:
        return {"action_mask": self._masks.copy(), "_action_mask": self._ones.copy()}


def check_num_envs(num_envs: object) -> int:
    """The batch size, an int in [1, 2**20]."""
    return check_int("num_envs", num_envs, low=1, high=MAX_NUM_ENVS)

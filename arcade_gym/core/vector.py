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
- autoreset: Gymnasium 1.x's modes, chosen by the constructor keyword `autoreset_mode` every
  subclass takes (the base adds it): `NEXT_STEP` (the default: the step after a game ends resets
  it; its action is ignored, its reward is 0, its mask is the new game's), `SAME_STEP` (an ended
  game restarts in the step that ended it; its last observation is in `info["final_obs"]`, that
  step's infos in `info["final_info"]`) or `DISABLED` (the caller restarts ended games with
  `reset(options={"reset_mask": mask})`, which restarts only the games `mask` marks in any mode);
- statistics: the step that ends game i sets `info["episode"]` (`"r"`, `"l"`, `"t"`: return,
  length, seconds, each an (N,) array, 0 where no game ended) and `info["_episode"]`, as
  Gymnasium's vector `RecordEpisodeStatistics` does (so do not stack that wrapper);
- time limit: `max_episode_steps` (every subclass takes it; `gym.make_vec` passes the spec's)
  truncates a game at that many steps, as Gymnasium's `TimeLimit` does the single env;
- keywords: one a subclass does not take is a TypeError naming it and, for options of the single
  env the native one does not batch (a `reward_fn`, realtime modes, Python opponents), pointing
  to `gym.make_vec(id, vectorization_mode="sync")`;
- observations: every array C-contiguous (a Fortran-ordered buffer is copied into C order);
- buffers: with `copy=True` (the default, as Gymnasium's `SyncVectorEnv`) every `reset` and
  `step` returns new arrays (or arrays handed out before that nothing holds any more:
  `arcade_gym/core/recycled.py`; an array the caller keeps is never written again). With
  `copy=False` (a keyword every subclass takes) the observation arrays and `info["action_mask"]`
  are the env's own buffers, which the kernels overwrite in place on the next `step` or
  `reset`: read them before stepping again, or copy what you keep
  (rewards, terminations, truncations and the other infos are new arrays either way; a
  SAME_STEP `info["final_obs"]` is always a copy). It saves copying the batch every step (for
  Chess-v0 at N=1024, 12 MB of planes and masks);
- the action check: integer actions of shape (N,), in range, unmasked (a ValueError names the
  game), or `illegal_action="penalty"|"terminate"` as in the single env.

How a game uses it: subclass, build the stacked state arrays and call `_setup(...)`, implement
`_draws(rng, k)` (k episode seeds as the single env draws them), `_kernel_reset(games)` and
`_kernel_step(actions)` (one numba call each; see `arcade_gym/snake/vector.py`), `_observations()`
and, for caps, `_decisions_left()`. `_observations()` hands each buffer out through `_out(buffer)`
(a copy, or with `copy=False` the buffer); a kernel that draws every game's observation each step
can draw into a buffer the caller has let go of (`arcade_gym/core/recycled.py`) and hand that
out as it is (no copy pass, and only the changed cells drawn: Snake-v0).
"""

from __future__ import annotations

import functools
import inspect
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from arcade_gym.core.action_batch import BAD_MASKED, BAD_RANGE, first_bad_action
from arcade_gym.core.args import check_choice, check_flag, check_int, check_reward
from arcade_gym.core.copying import KeepsViews
from arcade_gym.core.env import ILLEGAL_ACTION_MODES, reset_options
from arcade_gym.core.episode_stats import episode_arrays, tally
from arcade_gym.core.observation import OBSERVATION_MODES, Flattener
from arcade_gym.core.spaces import BatchMaskedDiscrete

SEED_BLOCK = 16
"""Episode seeds pre-drawn per game; refilled from the game's `np_random` when used up."""
SEED_BYTES = 32 << 20
"""What the pre-drawn seeds of a batch may take: a game asking for a larger block (short games
want one) gets less with very many games, but never fewer than `SEED_BLOCK`."""

MAX_NUM_ENVS = 1 << 20

AUTORESET_MODES = (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP, AutoresetMode.DISABLED)


class ArcadeVectorEnv(KeepsViews, VectorEnv[Any, np.ndarray, np.ndarray]):
    """Shared behaviour of the native vector envs (this module's docstring says how to use it)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012
    autoreset_mode: AutoresetMode = AutoresetMode.NEXT_STEP
    copy: bool = True
    """False: observations and masks are the env's live buffers (module docstring)."""
    max_episode_steps: int | None = None
    """Gymnasium's time limit (`gym.make_vec` passes the spec's): a game is truncated at that
    many steps, as `TimeLimit` truncates the single env (None or -1: no limit)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Give the subclass's constructor the base's keyword `autoreset_mode` and one clear
        error for keywords it does not take (see the module docstring)."""
        super().__init_subclass__(**kwargs)
        init = cls.__dict__.get("__init__")
        if init is not None and not getattr(init, "_takes_autoreset_mode", False):
            cls.__init__ = _taking_autoreset_mode(init)  # type: ignore[method-assign]

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
        seed_block: int = SEED_BLOCK,
    ) -> None:
        """Spaces, masks, seed blocks and step buffers; `masks` is the kernels' (N, A) int8.
        `seed_block`: episode seeds pre-drawn per game (games of a few steps want more, so a
        step seldom calls Python to draw), fewer when the batch's would pass `SEED_BYTES`."""
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
        itemsize = np.dtype(seed_dtype).itemsize
        seed_block = max(min(seed_block, SEED_BYTES // (n * itemsize)), min(seed_block, SEED_BLOCK))
        self._seeds: np.ndarray = np.zeros((n, seed_block), seed_dtype)
        self._seed_pos = np.full(n, seed_block, np.int64)
        self.rewards = np.zeros(n, np.float64)
        self.terminations = np.zeros(n, np.bool_)
        self.truncations = np.zeros(n, np.bool_)
        self._needs_reset = np.zeros(n, np.bool_)
        self._illegal = np.zeros(n, np.int64)
        self._ones = np.ones(n, np.bool_)
        self._all = np.arange(n)
        self._started = False
        self._ep_return = np.zeros(n, np.float64)
        self._ep_length = np.zeros(n, np.int64)
        self._ep_start = np.zeros(n, np.float64)

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
        opts = dict(reset_options(options))
        chosen = _reset_mask(opts.pop("reset_mask", None), self.num_envs)
        if opts:
            raise ValueError(
                f"unknown reset option(s) {sorted(map(str, opts))}; the vector envs take "
                "seeds as reset(seed=int or a list of ints) and options={'reset_mask': mask}"
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
        if chosen is not None and not self._started:
            raise RuntimeError("call reset() without a reset_mask first: no game has started")
        games = self._all if chosen is None else np.flatnonzero(chosen)
        for i in games:
            s = seeds[i]
            if s is not None or self._rngs[i] is None:
                self._rngs[i] = seeding.np_random(None if s is None else int(s))[0]
                self._seed_pos[i] = self._seeds.shape[1]  # the old block: the old generator
        self._refill()
        self._kernel_reset(games)
        self._needs_reset[games] = False
        self._illegal[games] = 0
        self._started = True
        self._ep_return[games] = 0.0
        self._ep_length[games] = 0
        self._ep_start[games] = time.perf_counter()
        return self._observed(), self._infos()

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if not self._started:
            raise RuntimeError("call reset() first")
        if self.autoreset_mode == AutoresetMode.DISABLED and self._needs_reset.any():
            ended = np.flatnonzero(self._needs_reset)[:8].tolist()
            raise RuntimeError(
                f"game(s) {ended} ended and autoreset_mode is DISABLED: restart them with "
                "reset(options={'reset_mask': terminations | truncations}) before step()"
            )
        acts = self._checked(actions)
        penalised = None
        # penalised steps are counted only outside "raise" (which never penalises)
        counting = self.illegal_action != "raise" and bool(self._illegal.any())
        resetting = self._needs_reset.copy()
        if self.illegal_action == "raise" or not self._illegal_any(acts):
            self._kernel_step(acts)
        else:
            penalised = self._illegal_mask(acts)
            self._kernel_step(np.where(penalised, -1, acts))
            self._penalise(penalised)
            counting = True
        if counting:
            self._illegal[resetting] = 0
            self._cap_penalised()
        self._refill()
        now = time.perf_counter()
        any_ended = tally(
            self._ep_return, self._ep_length, self._ep_start, self.rewards, resetting, now,
            self.max_episode_steps or 0, self.terminations, self.truncations, self._needs_reset,
        )  # fmt: skip
        rewards, terminations = self.rewards.copy(), self.terminations.copy()
        truncations = self.truncations.copy()
        ended = self._episode_stats(terminations | truncations, now) if any_ended else None
        infos = self._infos()
        if penalised is not None:
            infos["illegal"] = penalised
        if ended is not None:
            infos["episode"], infos["_episode"] = ended
            if self.autoreset_mode == AutoresetMode.SAME_STEP:
                infos = self._restart_now(ended[1], infos)
        return self._observed(), rewards, terminations, truncations, infos

    def _episode_stats(
        self, done: np.ndarray, now: float
    ) -> tuple[dict[str, np.ndarray], np.ndarray]:
        """The `info["episode"]` statistics of the games that ended (`arcade_gym/core/
        episode_stats.py`: "t" to the millisecond, as the single envs give it) and their mask."""
        r, length, t = episode_arrays(self._ep_return, self._ep_length, self._ep_start, done, now)
        return {"r": r, "l": length, "t": t}, done

    def _restart_now(self, done: np.ndarray, infos: dict[str, Any]) -> dict[str, Any]:
        """SAME_STEP: keep the ended games' last observations and infos, restart them."""
        final_obs = np.full(self.num_envs, None, dtype=object)
        last = self._observed()
        for i in np.flatnonzero(done):
            final_obs[i] = _row(last, int(i), copy=True)
        final_info = {key: value for key, value in infos.items() if not key.startswith("_")}
        final_info.update({f"_{key}": done.copy() for key in list(final_info)})
        self.reset_finished()
        self._ep_return[done] = 0.0
        self._ep_length[done] = 0
        self._ep_start[done] = time.perf_counter()
        restarted = self._infos()
        restarted.update(
            {key: infos[key] for key in ("episode", "_episode", "illegal") if key in infos}
        )
        restarted.update(
            final_obs=final_obs, _final_obs=done.copy(), final_info=final_info,
            _final_info=done.copy(),
        )  # fmt: skip
        return restarted

    def reset_finished(self) -> Any:
        """Start the games that ended on the last step now rather than on the next one (the
        same-step autoreset SB3's `VecEnv` expects); returns every game's observation."""
        finished = self._needs_reset.copy()
        if finished.any():
            self._kernel_step(np.full(self.num_envs, -1, np.int64))  # -1 leaves a game as it is
            self._illegal[finished] = 0
            self._refill()
            self._ep_return[finished] = 0.0  # the new games' statistics and time limit start
            self._ep_length[finished] = 0
            self._ep_start[finished] = time.perf_counter()
        return self._observed()

    def action_masks(self) -> np.ndarray:
        """(N, A) boolean masks of the legal actions (MaskablePPO's vectorised form)."""
        return self._masks.astype(bool)

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the games are numpy arrays."""

    # --- shared machinery -----------------------------------------------------------------------
    def _refill(self) -> None:
        """Pre-draw new seed blocks for games that used theirs up."""
        block = self._seeds.shape[1]
        if self._seed_pos.max() < block:
            return
        for i in np.flatnonzero(self._seed_pos >= block):
            rng = self._rngs[i]
            assert rng is not None
            self._seeds[i] = self._draws(rng, block)
            self._seed_pos[i] = 0

    def _checked(self, actions: Any) -> np.ndarray:
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or acts.dtype.kind not in "iu":
            raise TypeError(
                f"actions must be integers of shape ({self.num_envs},), got {acts.dtype} "
                f"{acts.shape}"
            )
        acts = np.ascontiguousarray(acts, np.int64)
        masked = self.illegal_action == "raise" and not self.masked_actions_legal
        kind, i = first_bad_action(acts, self._masks, self._needs_reset, masked)
        if kind == BAD_RANGE:
            n = self.single_action_space.n  # type: ignore[attr-defined]
            raise ValueError(f"action {int(acts[i])} of game {i} is out of range [0, {n})")
        if kind == BAD_MASKED:
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
        """End games whose penalised steps used up their decision cap (a game without one:
        as many penalised steps as it has actions, as the single env's base does)."""
        left = self._decisions_left()
        cap = self.single_action_space.n if left is None else left  # type: ignore[attr-defined]
        over = (self._illegal > 0) & (self._illegal >= cap) & ~self._needs_reset
        self.truncations[over] = True
        self._needs_reset[over] = True

    def _observed(self) -> Any:
        obs = self._observations()
        if self._flatten is not None:
            return _c_order(self._flatten.batch(obs, self.num_envs))
        if isinstance(obs, dict):
            return {key: _c_order(value) for key, value in obs.items()}
        return _c_order(obs)

    def _infos(self) -> dict[str, Any]:
        return {"action_mask": self._out(self._masks), "_action_mask": self._ones.copy()}

    def _out(self, buffer: np.ndarray) -> np.ndarray:
        """What a step hands out of a buffer the kernels write: a copy, or with `copy=False`
        the buffer itself (the contract in the module docstring)."""
        return buffer.copy() if self.copy else buffer


def _c_order(array: np.ndarray) -> np.ndarray:
    return array if array.flags.c_contiguous else np.ascontiguousarray(array)


def _row(observations: Any, i: int, *, copy: bool = False) -> Any:
    """Game i's observation out of a batch (a dict of arrays or one array), as views or copies."""
    if isinstance(observations, dict):
        return {key: _row(value, i, copy=copy) for key, value in observations.items()}
    return observations[i].copy() if copy else observations[i]


def _reset_mask(mask: object, n: int) -> np.ndarray | None:
    """`options["reset_mask"]` checked as Gymnasium's vector envs check it (None: every game)."""
    if mask is None:
        return None
    if not isinstance(mask, np.ndarray):
        raise TypeError(f"options['reset_mask'] must be a numpy array, got {type(mask).__name__}")
    if mask.shape != (n,):
        raise ValueError(f"options['reset_mask'] must have shape ({n},), got {mask.shape}")
    if mask.dtype != np.bool_:
        raise TypeError(f"options['reset_mask'] must have dtype bool, got {mask.dtype}")
    if not mask.any():
        raise ValueError("options['reset_mask'] must mark at least one game to reset")
    return mask


def check_autoreset_mode(mode: object) -> AutoresetMode:
    """An `AutoresetMode` (or its value, e.g. "SameStep"); ValueError naming the modes."""
    try:
        return AutoresetMode(mode)
    except ValueError:
        names = [m.value for m in AUTORESET_MODES]
        raise ValueError(f"autoreset_mode must be one of {names}, got {mode!r}") from None


SINGLE_ONLY_HINT = (
    "options of the single env that the native vector env does not batch (a reward_fn, realtime "
    "modes, Python opponents) need gym.make_vec(id, vectorization_mode='sync')"
)


def _taking_autoreset_mode(init: Callable[..., None]) -> Callable[..., None]:
    """`init` that also takes `autoreset_mode`, and names any keyword it does not take."""
    params = inspect.signature(init).parameters
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    known = sorted(name for name in params if name != "self")

    @functools.wraps(init)
    def init_taking_autoreset_mode(
        self: ArcadeVectorEnv,
        *args: Any,
        autoreset_mode: Any = None,
        max_episode_steps: Any = None,
        copy: Any = True,
        **kw: Any,
    ) -> None:
        unknown = [] if takes_any else sorted(set(kw) - set(known))
        if unknown:
            raise TypeError(
                f"{type(self).__name__} takes no {', '.join(unknown)} (it takes {known}, "
                f"autoreset_mode, max_episode_steps and copy); {SINGLE_ONLY_HINT}"
            )
        self.copy = check_flag("copy", copy)
        mode = check_autoreset_mode(
            AutoresetMode.NEXT_STEP if autoreset_mode is None else autoreset_mode
        )
        self.autoreset_mode = mode
        self.metadata = {**type(self).metadata, "autoreset_mode": mode}
        if max_episode_steps is not None and max_episode_steps != -1:
            self.max_episode_steps = check_int("max_episode_steps", max_episode_steps, low=1)
        init(self, *args, **kw)

    init_taking_autoreset_mode._takes_autoreset_mode = True  # type: ignore[attr-defined]
    return init_taking_autoreset_mode


def check_num_envs(num_envs: object) -> int:
    """The batch size, an int in [1, 2**20]."""
    return check_int("num_envs", num_envs, low=1, high=MAX_NUM_ENVS)

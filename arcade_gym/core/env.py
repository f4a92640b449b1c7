"""The base of every arcade-gym env: one rule for reset options, actions, masks and call order.

How a new game uses it (see `arcade_gym/snake/env.py` for a complete example):

1. Subclass `ArcadeEnv`, check each constructor argument with `arcade_gym.core.args`, then call
   `self._setup_actions(n_actions, mask, illegal_action=..., illegal_reward=...)` with the int8
   array your game keeps its legal-action mask in (updated in place), and
   `self._setup_observation(space, observation)` with your structured observation space. Accept
   `observation="dict"`, `illegal_action="raise"` and `illegal_reward=-1.0` as keywords and pass
   them on: the action space becomes a `MaskedDiscrete` over the mask, and `"flat"` gives one
   float32 vector (`arcade_gym/core/observation.py`; every Box bound must be finite).
2. Implement `_begin(seed) -> (observation, info)`: start a game from `seed`, a checked named seed
   from `reset(options={"seed": ...})` or a 64-bit draw from the env's `np_random`.
3. Implement `_advance(action) -> (observation, reward, terminated, truncated, info)` for an
   action the base has already checked (an int in range, unmasked), and `_current() ->
   (observation, info)` for the state as it stands (a penalised illegal action leaves it). Put
   the mask in `info["action_mask"]` in all three. Return structured observations; the base
   flattens them.
4. Implement `_decisions_left()` when the game has a decision cap, so penalised actions count
   against it.
5. Where the defaults do not fit, set `option_keys`, `masked_actions_legal` (Snake: the masked
   reversal is playable), `action_layout` (named in errors), `named_seed_help`, `variants` (the
   boards the checkers run on), or override `check_named_seed`, `_draw_seed` and
   `_describe_action`.
6. Register the env id and the game's warmup in `arcade_gym/registration.py`.

What every env then does the same way:

- `reset(seed=int)` follows Gymnasium; `reset(options={"seed": "seed-07"})` plays a named seed,
  checked by the game; an unknown option key is a ValueError naming the keys the env understands,
  and options that are not a dict a TypeError naming `options` (`reset_options`).
- `step()` before the first `reset()` raises `RuntimeError("call reset() first")`, and after the
  episode ended a RuntimeError asking for `reset()`.
- An action is a Python int, a numpy integer or a 0-d integer array; anything else (1.7, "0",
  True, arrays of other shapes) is a TypeError naming it; an index outside the space or masked
  out is a ValueError naming the range or the mask.
- `action_masks()` (sb3-contrib's MaskablePPO) and `info["action_mask"]` hold the same mask, and
  `action_space.sample()` draws from it (`arcade_gym/core/spaces.py` says how a sample drawn
  before a reset is played).
- For learners that do not mask, `illegal_action="penalty"` turns a masked action into a step
  that changes nothing, pays `illegal_reward` and sets `info["illegal"]` (counted against the
  decision cap), and `"terminate"` ends the episode with that penalty. Out-of-range and
  non-integer actions still raise: they are bugs, not moves.
- `pickle` and `copy.deepcopy` give an independent copy that plays on exactly like the original
  (`arcade_gym/core/copying.py` keeps a game's numpy views linked; games inherit `KeepsViews`).
- The step that ends an episode carries `info["episode"] = {"r": return, "l": length, "t":
  seconds since reset}`, the statistics Gymnasium's `RecordEpisodeStatistics` adds (so do not
  stack that wrapper: it refuses an info that has them; SB3's `Monitor` overwrites them). "t"
  is rounded to the millisecond (`EPISODE_TIME_DIGITS`), so two runs of a seeded one-step
  episode give equal infos, as Gymnasium's env checker requires.
- A game without a decision cap still ends an episode of penalised steps: after as many of them
  as the game has actions (`info["end_reason"] = "illegal_actions"`), so a deterministic policy
  repeating a masked action under `"penalty"` cannot loop for ever.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, ClassVar, Generic, SupportsFloat, TypeVar

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from arcade_gym.core.actions import action_index
from arcade_gym.core.args import check_choice, check_reward
from arcade_gym.core.copying import KeepsViews
from arcade_gym.core.game import Game
from arcade_gym.core.keys import KeyMap
from arcade_gym.core.observation import OBSERVATION_MODES, Flattener
from arcade_gym.core.spaces import MaskedDiscrete

ObsT = TypeVar("ObsT")

StepResult = tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]
"""What `step` returns: observation, reward, terminated, truncated, info."""

NOT_RESET = "call reset() first"
ENDED = "the episode has ended; call reset() before step()"

_NEW, _RUNNING, _ENDED = 0, 1, 2


def reset_options(options: object) -> Mapping[str, Any]:
    """`reset(options=...)` as a mapping (None: empty); anything else is one TypeError naming
    `options`, for every env (single, vector, PettingZoo), before the env changes at all."""
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise TypeError(
            f"reset(options=...) must be a dict or None, got {type(options).__name__} "
            f"{options!r:.40}; pass e.g. options={{'seed': 'seed-07'}}"
        )
    return options


ILLEGAL_ACTION_MODES = ("raise", "penalty", "terminate")
"""What a masked action does: raise ValueError (default); or leave the state unchanged, pay
`illegal_reward` and set `info["illegal"]`, continuing (`penalty`, each one counted against the
decision cap) or ending the episode (`terminate`)."""

EPISODE_TIME_DIGITS = 3
"""Decimals of `info["episode"]["t"]` (seconds): milliseconds."""

ILLEGAL_CAP = "illegal_actions"
"""`info["end_reason"]` of an episode truncated because penalised steps used up its cap."""


class ArcadeEnv(KeepsViews, gym.Env[Any, np.int64], Generic[ObsT]):
    """The shared behaviour of every arcade-gym env (this module's docstring says how to use it)."""

    option_keys: ClassVar[frozenset[str]] = frozenset({"seed"})
    """The keys `reset(options=...)` understands."""
    masked_actions_legal: ClassVar[bool] = False
    """True when a masked action may still be stepped (the mask only advises)."""
    action_layout: ClassVar[str] = ""
    """A short description of the action indices, named in action errors."""
    named_seed_help: ClassVar[str] = "a seed name such as 'seed-07' or an int"
    """What `options["seed"]` must be, named in its error."""
    variants: ClassVar[tuple[dict[str, Any], ...]] = ({},)
    """Constructor keywords spanning the env's boards (each difficulty or size): the checkers
    run on every one (`tests/core/`)."""
    keys_to_action: ClassVar[KeyMap | None] = None
    """Keys -> action for `gymnasium.utils.play` (`arcade_gym/core/keys.py`); None for a game
    whose actions are not keys (cells, placements: `arcade-eval play` plays those)."""

    action_space: MaskedDiscrete
    _phase: int = _NEW
    _illegal: int = 0
    _flatten: Flattener | None = None
    _ep_return: float = 0.0
    _ep_length: int = 0
    _ep_start: float = 0.0

    def _setup_actions(
        self,
        n_actions: int,
        mask: np.ndarray,
        *,
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
    ) -> None:
        """Make the action space a `MaskedDiscrete(n_actions)` over the live int8 `mask`, and
        choose what a masked action does (`ILLEGAL_ACTION_MODES`)."""
        self._n_actions = int(n_actions)
        self._mask = mask
        self.action_space = MaskedDiscrete(self._n_actions, mask)
        self.illegal_action = check_choice("illegal_action", illegal_action, ILLEGAL_ACTION_MODES)
        self.illegal_reward = check_reward("illegal_reward", illegal_reward)
        self._phase = _NEW

    def _setup_observation(self, space: spaces.Space[Any], observation: str = "dict") -> None:
        """Set the observation space: the game's structured `space`, or (`"flat"`) one float32
        vector holding the same values (`arcade_gym/core/observation.py`)."""
        self.observation_mode = check_choice("observation", observation, OBSERVATION_MODES)
        if observation == "flat":
            self._flatten = Flattener(space)
            self.observation_space = self._flatten.space_flat
        else:
            self._flatten = None
            self.observation_space = space

    # --- hooks a game implements ----------------------------------------------------------------
    def _begin(self, seed: str | int) -> tuple[ObsT, dict[str, Any]]:
        """Start a game from `seed`; the first observation and info."""
        raise NotImplementedError

    def _advance(self, action: int) -> StepResult:
        """Play a checked action; Gymnasium's five-tuple."""
        raise NotImplementedError

    def _current(self) -> tuple[ObsT, dict[str, Any]]:
        """The observation and info of the state as it is (a penalised step leaves it)."""
        raise NotImplementedError

    def _decisions_left(self) -> int | None:
        """How many more decisions the game's cap allows (None: no cap). Penalised steps count
        against it, so an agent that only plays illegal actions is still truncated."""
        return None

    def _describe_action(self, action: int) -> str:
        """A few words naming `action` in errors, e.g. "row 1, col 2"."""
        return ""

    def check_named_seed(self, named: object) -> str | int:
        """A named seed from `options["seed"]`: by default a string or an int."""
        if isinstance(named, bool) or not isinstance(named, str | int | np.integer):
            raise TypeError(
                f"options['seed'] must be {self.named_seed_help}, got {type(named).__name__}; "
                "pass Gymnasium seeds as reset(seed=...)"
            )
        return named if isinstance(named, str) else int(named)

    def _draw_seed(self) -> int:
        """The episode's seed when none is named: one raw 64-bit draw from `np_random`."""
        return int(self.np_random.bit_generator.random_raw())

    # --- Gymnasium API --------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        named = self.named_seed(options)  # checked before the env changes
        super().reset(seed=seed)
        self.action_space.mark_stale()
        self._phase = _NEW  # until the new game stands (a failing game stays unplayable)
        obs, info = self._begin(self._draw_seed() if named is None else named)
        self._phase = _RUNNING
        self._illegal = 0
        self._ep_return, self._ep_length, self._ep_start = 0.0, 0, time.perf_counter()
        return (obs if self._flatten is None else self._flatten(obs)), info

    def step(self, action: Any) -> StepResult:
        if self._phase != _RUNNING:
            raise RuntimeError(NOT_RESET if self._phase == _NEW else ENDED)
        kind = type(action)
        if kind is int or kind is np.int64:
            a = int(action)  # compared as a Python int: numpy scalar comparisons cost more
            if not 0 <= a < self._n_actions:
                a = self._checked(action)  # raises, naming the range
            elif not (self.masked_actions_legal or self._mask[a]):
                a = self._unmasked(action, a)
        else:
            a = self._checked(action)
        if a < 0:
            result = self._penalised()
        else:
            result = self._advance(a)
            if self._flatten is not None or self._illegal:
                result = self._adjusted(result)
        self._ep_return += float(result[1])
        self._ep_length += 1
        if result[2] or result[3]:
            self._phase = _ENDED
            result[4]["episode"] = {
                "r": self._ep_return,
                "l": self._ep_length,
                "t": round(time.perf_counter() - self._ep_start, EPISODE_TIME_DIGITS),
            }
        return result

    def action_masks(self) -> np.ndarray:
        """Boolean mask of the legal actions (sb3-contrib's MaskablePPO calls this)."""
        return self._mask.astype(bool)

    def get_keys_to_action(self) -> KeyMap:
        """The keyboard map `gymnasium.utils.play` asks for (`keys_to_action`)."""
        if self.keys_to_action is None:
            raise NotImplementedError(
                f"{type(self).__name__}'s actions are not keys ({self.action_layout or 'indices'}"
                "): play it with `arcade-eval play`, or pass play(keys_to_action=...)"
            )
        return dict(self.keys_to_action)

    def as_game(self) -> Game[Any]:
        """The game this env plays, as a `Game` over this env's action indices
        (`arcade_gym/core/game.py`): the live object, so copy it to branch. By default the env's
        `game`; an env whose `game` speaks another action layout overrides this."""
        game = getattr(self, "game", None)
        if not isinstance(game, Game):
            raise NotImplementedError(
                f"{type(self).__name__}.game is not a Game (arcade_gym/core/game.py); "
                "override as_game()"
            )
        return game

    # --- the one reading of options and actions -------------------------------------------------
    def named_seed(self, options: Mapping[str, Any] | None) -> str | int | None:
        """The checked named seed in `options`, or None; unknown keys are refused."""
        options = reset_options(options)
        unknown = [key for key in options if key not in self.option_keys]
        if unknown:
            raise ValueError(
                f"unknown reset option(s) {sorted(map(str, unknown))}; "
                f"{type(self).__name__} understands only {sorted(self.option_keys)}"
            )
        named = options.get("seed")
        return None if named is None else self.check_named_seed(named)

    def _checked(self, action: Any) -> int:
        """The slow path of the action check: convert, range, mask."""
        a = action_index(action, self._n_actions, self.action_layout)
        if self.masked_actions_legal or self._mask[a]:
            return a
        return self._unmasked(action, a)

    def _unmasked(self, action: Any, a: int) -> int:
        """A masked action: a stale `sample()` is resolved (see MaskedDiscrete), else refused."""
        if action is self.action_space.last_sample and self.action_space.stale:
            resolved = self.action_space.resolve_stale(a)
            if resolved is not None:
                return resolved
        if self.illegal_action != "raise":
            return -1
        described = self._describe_action(a)
        raise ValueError(
            f"action {a}{f' ({described})' if described else ''} is masked out; choose an action "
            "where info['action_mask'] / env.action_masks() is 1"
        )

    # --- illegal actions as penalties, flat observations ------------------------------------------
    def _penalised(self) -> StepResult:
        """A masked action under `illegal_action="penalty"|"terminate"`: the state is unchanged."""
        self._illegal += 1
        state, info = self._current()
        info["illegal"] = True
        info["illegal_actions"] = self._illegal
        terminated = self.illegal_action == "terminate"
        truncated = not terminated and self._illegal >= self._penalty_cap()
        if truncated:
            info["end_reason"] = ILLEGAL_CAP
        obs = state if self._flatten is None else self._flatten(state)
        return obs, self.illegal_reward, terminated, truncated, info

    def _adjusted(self, result: StepResult) -> StepResult:
        """Flatten the observation; end the episode when penalised steps used up the cap."""
        obs, reward, terminated, truncated, info = result
        if self._flatten is not None:
            obs = self._flatten(obs)
        if self._illegal:
            info["illegal_actions"] = self._illegal
            if not (terminated or truncated) and self._illegal >= self._penalty_cap():
                truncated = True
                info["end_reason"] = ILLEGAL_CAP
        return obs, reward, terminated, truncated, info

    def _penalty_cap(self) -> int:
        """Penalised steps that end the episode: the decisions the game's cap leaves, or as many
        as there are actions for a game without a cap."""
        left = self._decisions_left()
        return self._n_actions if left is None else left

"""The base of every arcade-gym env: one rule for reset options, actions, masks and call order.

How a new game uses it (see `arcade_gym/snake/env.py` for a complete example):

1. Subclass `ArcadeEnv`, check each constructor argument with `arcade_gym.core.args`, then call
   `self._setup_actions(n_actions, mask)` with the int8 array your game keeps its legal-action
   mask in (updated in place). The action space becomes a `MaskedDiscrete` over that mask.
2. Implement `_begin(seed) -> (observation, info)`: start a game from `seed`, a checked named seed
   from `reset(options={"seed": ...})` or a 64-bit draw from the env's `np_random`.
3. Implement `_advance(action) -> (observation, reward, terminated, truncated, info)` for an
   action the base has already checked (an int in range, unmasked). Put the mask in
   `info["action_mask"]` in both hooks.
4. Where the defaults do not fit, set `option_keys`, `masked_actions_legal` (Snake: the masked
   reversal is playable), `action_layout` (named in errors), `named_seed_help`, or override
   `check_named_seed`, `_draw_seed` and `_describe_action`.
5. Register the env id and the game's warmup in `arcade_gym/registration.py`.

What every env then does the same way:

- `reset(seed=int)` follows Gymnasium; `reset(options={"seed": "seed-07"})` plays a named seed,
  checked by the game; an unknown option key is a ValueError naming the keys the env understands.
- `step()` before the first `reset()` raises `RuntimeError("call reset() first")`, and after the
  episode ended a RuntimeError asking for `reset()`.
- An action is a Python int, a numpy integer or a 0-d integer array; anything else (1.7, "0",
  True, arrays of other shapes) is a TypeError naming it; an index outside the space or masked
  out is a ValueError naming the range or the mask.
- `action_masks()` (sb3-contrib's MaskablePPO) and `info["action_mask"]` hold the same mask, and
  `action_space.sample()` draws from it (`arcade_gym/core/spaces.py` says how a sample drawn
  before a reset is played).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, SupportsFloat, TypeVar

import gymnasium as gym
import numpy as np

from arcade_gym.core.actions import action_index
from arcade_gym.core.spaces import MaskedDiscrete

ObsT = TypeVar("ObsT")

StepResult = tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]
"""What `step` returns: observation, reward, terminated, truncated, info."""

NOT_RESET = "call reset() first"
ENDED = "the episode has ended; call reset() before step()"

_NEW, _RUNNING, _ENDED = 0, 1, 2


class ArcadeEnv(gym.Env[ObsT, np.int64]):
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

    action_space: MaskedDiscrete
    _phase: int = _NEW

    def _setup_actions(self, n_actions: int, mask: np.ndarray) -> None:
        """Make the action space a `MaskedDiscrete(n_actions)` over the live int8 `mask`."""
        self._n_actions = int(n_actions)
        self._mask = mask
        self.action_space = MaskedDiscrete(self._n_actions, mask)
        self._phase = _NEW

    # --- hooks a game implements ----------------------------------------------------------------
    def _begin(self, seed: str | int) -> tuple[ObsT, dict[str, Any]]:
        """Start a game from `seed`; the first observation and info."""
        raise NotImplementedError

    def _advance(self, action: int) -> StepResult:
        """Play a checked action; Gymnasium's five-tuple."""
        raise NotImplementedError

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
    ) -> tuple[ObsT, dict[str, Any]]:
        super().reset(seed=seed)
        named = self.named_seed(options)
        self.action_space.mark_stale()
        self._phase = _NEW  # until the new game stands (a failing game stays unplayable)
        result = self._begin(self._draw_seed() if named is None else named)
        self._phase = _RUNNING
        return result

    def step(self, action: Any) -> StepResult:
        if self._phase != _RUNNING:
            raise RuntimeError(NOT_RESET if self._phase == _NEW else ENDED)
        kind = type(action)
        if (kind is int or kind is np.int64) and 0 <= action < self._n_actions:
            a = int(action)
            if not (self.masked_actions_legal or self._mask[a]):
                a = self._unmasked(action, a)
        else:
            a = self._checked(action)
        result = self._advance(a)
        if result[2] or result[3]:
            self._phase = _ENDED
        return result

    def action_masks(self) -> np.ndarray:
        """Boolean mask of the legal actions (sb3-contrib's MaskablePPO calls this)."""
        return self._mask.astype(bool)

    # --- the one reading of options and actions -------------------------------------------------
    def named_seed(self, options: Mapping[str, Any] | None) -> str | int | None:
        """The checked named seed in `options`, or None; unknown keys are refused."""
        if options is None:
            return None
        if not isinstance(options, Mapping):
            raise TypeError(f"options must be a dict, got {type(options).__name__}")
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
        described = self._describe_action(a)
        raise ValueError(
            f"action {a}{f' ({described})' if described else ''} is masked out; choose an action "
            "where info['action_mask'] / env.action_masks() is 1"
        )

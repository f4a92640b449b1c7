"""What one step of a speed figure is, and the counters that count only such steps.

A speed figure divides counted steps by seconds, so the count must be honest (issue 23): a reset
is never a step, a vector env's autoreset step (NEXT_STEP: the call that only starts the next
game of a slot) is a *dead* step, not counted, and a PettingZoo env's step of a finished agent
(`step(None)`) is dead too. Each game's bench says what one counted step of each of its envs is
(`StepUnit`): the text the report prints beside the figure, which actions a random player draws
(Minesweeper counts reveals: its flag toggles are measured apart), and, for a two-player env whose
step holds the opponent's reply too, how many plies a game has had so far, so the bench reports
plies beside steps.

The counters step an env with whatever actions they are given: the timed loops of
`arcade_gym/core/throughput.py` draw random legal ones, a test plays a fixed sequence and checks
the tally against a count by hand.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode


@dataclass(frozen=True)
class StepUnit:
    """What one counted step of an env is.

    `text` says it for the report (placement or primitive control, board, opponent moves
    included or not). `actions(mask) -> mask` keeps the legal actions of the counted kind: the
    first columns of the mask (a view, no copy), the actions of the counted kind being the
    first of the action space (Minesweeper: its reveals, before the flag toggles); it takes the
    1-D mask of a single env or the (N, A) masks of a vector env; None: every legal action.
    `plies(env) -> int` reads how many plies the single env's game has had (None: one ply a
    step, or not a two-player game); `vector_plies(envs, obs) -> (N,) ints` the same for each
    game of its vector env (from the observation, or the env's own counters).
    """

    text: str
    actions: Callable[[np.ndarray], np.ndarray] | None = None
    plies: Callable[[Any], int] | None = None
    vector_plies: Callable[[Any, Any], np.ndarray] | None = None


DEFAULT_UNIT = StepUnit("one env step, any legal action")
"""The unit of an env whose game says nothing more."""


@dataclass
class Tally:
    """What a counter did: `steps` counted, `resets` (games started after the first ones; never
    steps), `dead` (calls that moved nothing: autoreset steps, finished agents' steps) and
    `plies` (moves of either side inside the counted steps; 0 when the unit counts none)."""

    steps: int = 0
    resets: int = 0
    dead: int = 0
    plies: int = 0

    def copy(self) -> Tally:
        return Tally(self.steps, self.resets, self.dead, self.plies)

    def since(self, before: Tally) -> Tally:
        """What was counted after `before` (a copy taken earlier)."""
        return Tally(
            self.steps - before.steps,
            self.resets - before.resets,
            self.dead - before.dead,
            self.plies - before.plies,
        )


class EnvCounter:
    """One Gymnasium env stepped with given actions, reset when an episode ends.

    `mask()` is the legal mask of the counted kind now (every action when the env gives none).
    """

    def __init__(self, env: Any, unit: StepUnit = DEFAULT_UNIT, seed: int = 0) -> None:
        self.env = env
        self.unit = unit
        self.tally = Tally()
        _, self.info = env.reset(seed=seed)
        n = getattr(env.action_space, "n", 1)
        self._every = np.ones(int(n), np.int8)

    def mask(self) -> np.ndarray:
        mask = self.info.get("action_mask", self._every)
        return mask if self.unit.actions is None else self.unit.actions(mask)

    def step(self, action: Any) -> None:
        env = self.env
        plies = self.unit.plies
        before = plies(env) if plies is not None else 0
        _, _, terminated, truncated, self.info = env.step(action)
        self.tally.steps += 1
        if plies is not None:
            self.tally.plies += plies(env) - before
        if terminated or truncated:
            _, self.info = env.reset()
            self.tally.resets += 1


class VectorCounter:
    """A vector env stepped with given (N,) actions: a game's step counts unless it only reset
    the game (NEXT_STEP autoreset: the step after the one that ended it). In SAME_STEP mode every
    step moves, and each ending counts a reset. Plies are counted in NEXT_STEP mode only (in
    SAME_STEP the ending step's observation is already the next game's)."""

    def __init__(self, envs: Any, unit: StepUnit = DEFAULT_UNIT, seed: int = 0) -> None:
        self.envs = envs
        self.unit = unit
        self.tally = Tally()
        self.obs, self.infos = envs.reset(seed=seed)
        mode = getattr(envs, "metadata", {}).get("autoreset_mode", AutoresetMode.NEXT_STEP)
        self.same_step = mode == AutoresetMode.SAME_STEP
        self.resetting = np.zeros(envs.num_envs, np.bool_)

    def masks(self) -> np.ndarray | None:
        masks = self.infos.get("action_mask")
        if masks is None or self.unit.actions is None:
            return masks
        return self.unit.actions(masks)

    def step(self, actions: np.ndarray) -> None:
        plies = None if self.same_step else self.unit.vector_plies
        # a copy: a ply counter may be a view of the env's state, which the step changes
        before = np.array(plies(self.envs, self.obs)) if plies is not None else None
        self.obs, _, terminated, truncated, self.infos = self.envs.step(actions)
        done = np.logical_or(terminated, truncated)
        tally = self.tally
        if self.same_step:
            tally.steps += len(done)
            tally.resets += int(done.sum())
            return
        dead = int(np.count_nonzero(self.resetting))
        tally.dead += dead
        tally.resets += dead
        tally.steps += len(done) - dead
        if plies is not None and before is not None:
            moved = ~self.resetting  # a dot product: boolean indexing costs more than a step here
            tally.plies += int(np.dot(plies(self.envs, self.obs) - before, moved))
        self.resetting = done


class AecCounter:
    """A PettingZoo AEC env: each `last()` + `step()` of a live agent is one ply (a counted
    step); a finished agent's `step(None)` is dead; a new game starts when every agent is done."""

    def __init__(self, env: Any, seed: int = 0) -> None:
        self.env = env
        self.tally = Tally()
        env.reset(seed=seed)

    def mask(self) -> np.ndarray | None:
        """The mover's legal mask, or None when the agent to act is finished (a dead step)."""
        obs, _, terminated, truncated, _ = self.env.last()
        return None if terminated or truncated else np.asarray(obs["action_mask"])

    def step(self, action: int | None) -> None:
        """Play `action` for the agent to act (None for a finished one)."""
        env = self.env
        env.step(action)
        if action is None:
            self.tally.dead += 1
            if not env.agents:
                env.reset()
                self.tally.resets += 1
        else:
            self.tally.steps += 1
            self.tally.plies += 1

"""A two-player PettingZoo AEC env as a single-agent Gymnasium env against an opponent pool."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium import spaces

from arcade_gym.core.actions import action_index
from arcade_gym.core.args import check_choice
from arcade_gym.core.env import ArcadeEnv, StepResult, reset_options
from arcade_gym.core.seeding import seed_to_u64
from arcade_gym.selfplay.pool import OpponentPool, OpponentSpec

LEARNER_SIDES = ("alternate", "first", "second")
"""Which side the learner plays: both in turn (first in the first episode), or always one."""

Mover = Callable[[Any], Any]
"""A move rule on the AEC env: `move(aec_env) -> action` for the agent to move."""


class SelfPlayEnv(ArcadeEnv[Any]):
    """The learner plays one side of a two-player AEC env (`tictactoe_v0`, `chess_v0`), an
    opponent drawn from a pool the other (`arcade_gym/selfplay/__init__.py` shows the use).

    Observation: the AEC env's `observe(learner)["observation"]` (tic-tac-toe: Box(0, 1, (size,
        size, 2), int8), the learner's stones first, exactly `TicTacToe-v0`'s; chess: chess_v6's
        planes from the learner's side); `observation="flat"` gives one float32 vector.
    Action: MaskedDiscrete over the AEC action space; `info["action_mask"]` / `action_masks()`
        hold the learner's legal moves. A masked action raises ValueError, or with
        `illegal_action="penalty"` leaves the game as it is and pays `illegal_reward` (as many
        times an episode as there are actions, then the episode is truncated with
        `info["end_reason"] = "illegal_actions"`); `"terminate"` ends it.
    Reward: the learner's AEC rewards over its move and the opponent's reply: +1 for a win, -1
        for a loss (also when the opponent wins on its own move), 0 for a draw. A callable
        opponent that answers a masked move is a bug in it: RuntimeError naming the move.
    Termination / truncation: the AEC env's (a finished game, `max_plies` in chess).
    Options: `opponent`: a pool (`arcade_gym/selfplay/pool.py`: a built-in's name such as
        "random" or "perfect", a callable `(obs, mask) -> action` seeing the opponent's own
        observation and mask, a `Snapshot`, or a mix `{opponent: weight}`), one member drawn
        per episode from the episode's seed; `learner="alternate"|"first"|"second"`
        (alternate: first, second, first, ... restarted by every `reset(seed=...)`).
        `info`: `action_mask`, `learner` (its agent name), `opponent` (the member's name),
        `opponent_move` (its last action, -1 before it moved), and the AEC env's infos for the
        learner (tic-tac-toe: `winner`; chess: `result`, `termination`).
    Versions: the AEC env's.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}  # noqa: RUF012

    def __init__(
        self,
        aec_env: Any,
        opponent: OpponentSpec = "random",
        *,
        learner: str = "alternate",
        observation: str = "dict",
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
    ) -> None:
        self.aec = aec_env
        raw = aec_env.unwrapped
        agents = list(raw.possible_agents)
        if len(agents) != 2:
            raise ValueError(f"self-play needs a two-player AEC env, got agents {agents}")
        self.agents = agents
        self.learner_side = check_choice("learner", learner, LEARNER_SIDES)
        self.pool = OpponentPool(opponent)
        self.render_mode = getattr(raw, "render_mode", None)
        self.metadata = {**self.metadata, "render_modes": list(raw.metadata["render_modes"])}
        self._resolve = _builtin_resolver(raw, self.pool.builtins)
        for name in self.pool.builtins:  # an unknown name fails here, not in the first episode
            self._resolve(raw, name, 0)
        space = raw.observation_space(agents[0])
        inner = space["observation"] if isinstance(space, spaces.Dict) else space
        n_actions = int(raw.action_space(agents[0]).n)
        self._setup_actions(
            n_actions,
            np.zeros(n_actions, np.int8),
            illegal_action=illegal_action,
            illegal_reward=illegal_reward,
        )
        self._setup_observation(inner, observation)
        self._episodes = 0
        self._reseeded = False
        self.learner = agents[0]
        self.opponent_index = 0
        self.opponent_move: Any = -1
        self._mover: Mover = _no_mover

    @property
    def opponent_name(self) -> str:
        """The name of the pool member playing this episode."""
        return self.pool.members[self.opponent_index].name

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        reset_options(options)  # refused before the alternation is touched
        self._reseeded = seed is not None
        return super().reset(seed=seed, options=options)

    # --- the game's hooks -----------------------------------------------------------------------
    def _begin(self, seed: str | int) -> tuple[Any, dict[str, Any]]:
        if self._reseeded:  # a seeded reset starts the alternation again, so it is reproducible
            self._episodes = 0
        if self.learner_side == "alternate":
            self.learner = self.agents[self._episodes % 2]
        else:
            self.learner = self.agents[0 if self.learner_side == "first" else 1]
        self._episodes += 1
        u64 = seed_to_u64(seed)
        self.opponent_index = self.pool.for_seed(u64)
        member = self.pool.members[self.opponent_index]
        raw = self.aec.unwrapped
        if member.builtin is not None:  # its tie-breaks seeded by the episode's seed
            self._mover = self._resolve(raw, member.builtin, u64)
        else:
            self._mover = _observing(member.opponent)
        self.aec.reset(seed=u64 % 2**31)
        self.opponent_move = -1
        self._opponent_replies()
        self._sync_mask()
        return self._observation(), self._info()

    def _advance(self, action: int) -> StepResult:
        aec = self.aec
        aec.step(action)
        reward = float(aec.rewards[self.learner])
        reward += self._opponent_replies()
        self._sync_mask()
        terminated = any(aec.terminations.values())
        truncated = not terminated and any(aec.truncations.values())
        return self._observation(), reward, terminated, truncated, self._info()

    def _current(self) -> tuple[Any, dict[str, Any]]:
        return self._observation(), self._info()

    def _draw_seed(self) -> int:
        """As `TicTacToe-v0` draws it, so the vector form replays these episodes."""
        return int(self.np_random.integers(0, 2**63 - 1))

    def render(self) -> Any:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()
        super().close()

    # --- helpers ------------------------------------------------------------------------------
    def _over(self) -> bool:
        aec = self.aec
        return any(aec.terminations.values()) or any(aec.truncations.values())

    def _opponent_replies(self) -> float:
        """The opponent's moves until the learner is to move or the game ends; the learner's
        reward from them."""
        aec = self.aec
        reward = 0.0
        while not self._over() and aec.agent_selection != self.learner:
            move = self._mover(aec.unwrapped)
            self.opponent_move = move
            aec.step(move)
            reward += float(aec.rewards[self.learner])
        return reward

    def _sync_mask(self) -> None:
        if self._over():
            self._mask[:] = 0
        else:
            self._mask[:] = self.aec.observe(self.learner)["action_mask"]

    def _observation(self) -> Any:
        return self.aec.observe(self.learner)["observation"]

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {
            key: value
            for key, value in self.aec.infos[self.learner].items()
            if key != "illegal_move"
        }
        info.update(
            action_mask=self._mask.copy(),
            learner=self.learner,
            opponent=self.opponent_name,
            opponent_move=self.opponent_move,
        )
        return info


def _observing(fn: Any) -> Mover:
    """A callable `(obs, mask) -> action` as a move rule on the AEC env (the mover's view)."""

    def move(aec: Any) -> int:
        seen = aec.observe(aec.agent_selection)
        mask = seen["action_mask"]
        action = action_index(fn(seen["observation"], mask), mask.shape[0])
        if not mask[action]:
            raise RuntimeError(
                f"the opponent {_label(fn)} chose action {action}, which its mask forbids"
            )
        return action

    return move


def _label(fn: Any) -> str:
    return str(getattr(fn, "name", None) or getattr(fn, "__name__", type(fn).__name__))


def _no_mover(aec: Any) -> Any:
    raise RuntimeError("call reset() first")


Resolver = Callable[[Any, str, int], Mover]


def _builtin_resolver(raw: Any, names: list[str]) -> Resolver:
    """The game's `selfplay` resolver (its descriptor, `arcade_gym/core/descriptor.py`) for the
    AEC env `raw`; a pool naming built-ins on a game without one is a ValueError."""
    if not names:
        return _no_builtins
    from arcade_gym.games import descriptors  # the registry of games, read only when needed

    for game in descriptors():
        if game.aec is None or game.selfplay is None:
            continue
        aec: Any = game.aec
        module = importlib.import_module(getattr(aec, "module", aec))  # an AecEntry or a module
        cls = getattr(module, "raw_env", None)
        if isinstance(cls, type) and isinstance(raw, cls):
            path, _, attr = game.selfplay.partition(":")
            resolver: Resolver = getattr(importlib.import_module(path), attr)
            return resolver
    raise ValueError(
        f"{type(raw).__name__} names no built-in opponents (its game's descriptor has no "
        f"`selfplay`); pass callables (obs, mask) -> action instead of {names}"
    )


def _no_builtins(raw: Any, name: str, seed: int) -> Mover:
    raise ValueError(f"no built-in opponent {name!r}")

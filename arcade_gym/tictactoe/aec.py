"""Two-player k-in-a-row tic-tac-toe as a PettingZoo AEC env (`tictactoe_v0`)."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from arcade_gym.core.actions import action_index
from arcade_gym.core.copying import KeepsViews
from arcade_gym.core.env import NOT_RESET, reset_options
from arcade_gym.tictactoe import engine as E
from arcade_gym.tictactoe.render import render_ansi, render_rgb
from arcade_gym.tictactoe.rules import DRAW, ILLEGAL, SIZES, WIN, line_length

AGENTS = ("player_0", "player_1")
"""player_0 plays X and moves first; player_1 plays O."""


def env(size: int = 3, render_mode: str | None = None) -> raw_env:
    """The env as users get it. `raw_env` checks call order and action bounds itself (PettingZoo's
    OrderEnforcing and AssertOutOfBounds wrappers would quadruple the cost of a step), so this is
    `raw_env`; `wrapped_env` stacks PettingZoo's wrappers on it for those who want them."""
    return raw_env(size=size, render_mode=render_mode)


def wrapped_env(size: int = 3, render_mode: str | None = None) -> AECEnv[str, Any, Any]:
    """`raw_env` behind PettingZoo's standard AssertOutOfBounds and OrderEnforcing wrappers."""
    inner: Any = wrappers.AssertOutOfBoundsWrapper(raw_env(size=size, render_mode=render_mode))
    return wrappers.OrderEnforcingWrapper(inner)


class raw_env(AECEnv[str, dict[str, np.ndarray], int], KeepsViews):  # noqa: N801 (PettingZoo's name)
    """k-in-a-row on 3x3 (3 in a row), 5x5 (4) or 10x10 (5), X first, no gravity
    (`docs/rules/tictactoe.md`).

    Agents: "player_0" plays X and moves first, "player_1" plays O (PettingZoo's usual names).
    Observation: Dict(observation=Box(0, 1, (size, size, 2), int8): plane 0 the viewer's stones,
        plane 1 the opponent's; action_mask=Box(0, 1, (size * size,), int8): the empty squares
        for the agent to move, all zeros for the other one).
    Action: Discrete(size * size), `row * size + col`.
    Reward: +1 to the agent completing a line and -1 to the other; 0 each on a draw. An occupied
        square (a masked action) ends the game as a loss for the mover: -1 to it, +1 to the
        opponent, and `infos[mover]["illegal_move"] = True` (PettingZoo's classic envs end the game
        the same way; the opponent's +1 keeps the game zero-sum). An action outside
        Discrete(size * size) is a programming error and raises ValueError; a non-integer one
        (1.7, "0", True) raises TypeError.
    Termination: a completed line, a full board or an illegal move; both agents at once.
        Truncation: never. `infos[agent]["winner"]` names the winning agent (None on a draw).
    Checks: `step` / `observe` before `reset`, and `step` after the game was cleared, raise
        RuntimeError (what PettingZoo's OrderEnforcingWrapper checks, at no cost per step).
    Versions: v0 (ruleset k-in-a-row@1).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": ["ansi", "rgb_array", "human"],
        "name": "tictactoe_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(self, size: int = 3, render_mode: str | None = None) -> None:
        if size not in SIZES:
            raise ValueError(f"size must be one of {SIZES}, got {size!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}"
            )
        super().__init__()
        self.size = size
        self.k = line_length(size)
        self.render_mode = render_mode
        n2 = size * size
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0, 1, (size, size, 2), np.int8),
                    "action_mask": spaces.Box(0, 1, (n2,), np.int8),
                }
            )
            for agent in AGENTS
        }
        self.action_spaces = {agent: spaces.Discrete(n2) for agent in AGENTS}
        self.board = np.zeros((size, size), np.int8)
        self._flat = self.board.reshape(-1)
        # Per-viewer planes and the live mask, updated in place by each move.
        self._planes = {agent: np.zeros((size, size, 2), np.int8) for agent in AGENTS}
        self._mask = np.ones(n2, np.int8)
        self._no_moves = np.zeros(n2, np.int8)
        self._placed = 0
        self.winner: str | None = None
        self._has_reset = False
        self._reset_bookkeeping()

    def _reset_bookkeeping(self) -> None:
        self.agents = list(AGENTS) if self._has_reset else []
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self.agent_selection = AGENTS[0]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new empty board, X (player_0) to move. The game has no randomness; `seed`
        and `options` are accepted for the API (PettingZoo's api_test passes both) and unused
        (options must still be a dict or None)."""
        reset_options(options)
        self.board[:] = 0
        for planes in self._planes.values():
            planes[:] = 0
        self._mask[:] = 1
        self._placed = 0
        self.winner = None
        self._has_reset = True
        self._reset_bookkeeping()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if not self._has_reset:
            raise RuntimeError(NOT_RESET)
        mover = agent == self.agent_selection and not self.terminations.get(agent, True)
        return {
            "observation": self._planes[agent].copy(),
            "action_mask": self._mask.copy() if mover else self._no_moves.copy(),
        }

    def step(self, action: int | np.integer[Any] | None) -> None:
        if not self.agents:
            raise RuntimeError(
                "the game is over and every agent has left: call reset()"
                if self._has_reset
                else NOT_RESET
            )
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: None is only for agents whose game ended")
        n = self.size
        cell = action_index(action, n * n, "row * size + col")
        opponent = AGENTS[1] if agent == AGENTS[0] else AGENTS[0]
        side = 1 if agent == AGENTS[0] else 2
        self._cumulative_rewards[agent] = 0.0
        outcome = E.apply_move(self._flat, n, self.k, cell, side, self._placed)
        if outcome == ILLEGAL:
            self.rewards = {agent: -1.0, opponent: 1.0}
            self.infos[agent]["illegal_move"] = True
            self.winner = opponent
            self._end()
        else:
            self._placed += 1
            r, c = divmod(cell, n)
            self._planes[agent][r, c, 0] = 1
            self._planes[opponent][r, c, 1] = 1
            self._mask[cell] = 0
            if outcome == WIN:
                self.rewards = {agent: 1.0, opponent: -1.0}
                self.winner = agent
                self._end()
            elif outcome == DRAW:
                self.rewards = {agent: 0.0, opponent: 0.0}
                self._end()
            else:
                self.rewards = {agent: 0.0, opponent: 0.0}
        if self.terminations[agent]:
            self._accumulate_rewards()
        self.agent_selection = opponent
        if self.render_mode == "human":
            print(self._ansi())

    def _end(self) -> None:
        self.terminations = dict.fromkeys(AGENTS, True)
        for agent in AGENTS:
            self.infos[agent]["winner"] = self.winner

    def _ansi(self) -> str:
        return render_ansi(self.board, header=f"{self.agent_selection} to move")

    def render(self) -> str | np.ndarray | None:
        if self.render_mode == "ansi":
            return self._ansi()
        if self.render_mode == "rgb_array":
            return render_rgb(self.board)
        if self.render_mode == "human":
            print(self._ansi())
        return None

    def close(self) -> None:
        """Nothing to release."""

"""Two-player chess and Chess960 as a PettingZoo AEC env (`chess_v0`), encoded like `chess_v6`."""

from __future__ import annotations

from typing import Any

import chess
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from arcade_gym.chess.game import ChessGame
from arcade_gym.chess.positions import check_variant, start_board
from arcade_gym.chess.render import render_ansi
from arcade_gym.chess.rules import ACTION_SIZE, OBS_PLANES
from arcade_gym.core.actions import action_index
from arcade_gym.core.copying import KeepsViews
from arcade_gym.core.env import reset_options

AGENTS = ("player_0", "player_1")
"""player_0 plays white and player_1 black, as in PettingZoo's `chess_v6`."""


def env(
    variant: str = "standard",
    start: int | str | None = None,
    render_mode: str | None = None,
    max_plies: int | None = None,
) -> raw_env:
    """The env as users get it. `raw_env` checks call order and action bounds itself
    (PettingZoo's wrappers would add their cost to every step); `wrapped_env` stacks
    PettingZoo's wrappers on it for those who want them."""
    return raw_env(variant=variant, start=start, render_mode=render_mode, max_plies=max_plies)


def wrapped_env(**kwargs: Any) -> AECEnv[str, Any, Any]:
    """`raw_env(**kwargs)` behind PettingZoo's AssertOutOfBounds and OrderEnforcing wrappers."""
    inner: Any = wrappers.AssertOutOfBoundsWrapper(raw_env(**kwargs))
    return wrappers.OrderEnforcingWrapper(inner)


class raw_env(AECEnv[str, dict[str, np.ndarray], int], KeepsViews):  # noqa: N801 (PettingZoo's name)
    """Chess or Chess960 (python-chess rules), observed and acted on exactly as PettingZoo's
    `chess_v6` (an agent trained on one plays the other: `tests/chess/test_pettingzoo_parity.py`).

    Agents: "player_0" plays white and "player_1" black (in Chess960 too).
    Observation: Dict(observation=Box(0, 1, (8, 8, 111), bool), action_mask=Box(0, 1, (4672,),
        int8)). Planes, from the observer's side (the black agent sees the board mirrored
        rank-wise, its own pieces first): 0 our kingside castling right, 1 our queenside, 2 their
        kingside, 3 their queenside (all ones or all zeros; in standard chess these are chess_v6's
        h1 / a1 / h8 / a8 rook rights); 4 all ones for the black agent; 5 one square, number
        halfmove_clock // 2, set; 6 all ones; then the last 8 boards, newest first, 13 planes each
        (own P N B R Q K, opponent P N B R Q K, all ones when that position occurred before),
        white's pawn that just advanced two squares drawn on its first rank (black's on its
        eighth), zeros before the first move (as chess_v6: the start position is not in the
        history). The mask marks the legal moves of the agent to move, all zeros for the other.
    Action: Discrete(4672), AlphaZero's 8x8x73 move index as in chess_v6
        (`arcade_gym.chess.encoding`); a pawn reaching the last rank without an underpromotion
        plane promotes to a queen; castling is the king's two-square move in standard chess and
        king-takes-own-rook in Chess960.
    Reward: +1 to the winner and -1 to the loser at the end; 0 each on a draw. A masked action
        loses the game: -1 to the mover, +1 to the opponent, `infos[mover]["illegal_move"]`.
        An action outside Discrete(4672) raises ValueError (a non-integer TypeError).
    Termination: checkmate, stalemate, insufficient material, a position's third occurrence, 100
        halfmoves without a capture or pawn move (chess_v6 ends these draws one ply earlier, when
        they can be claimed), or an illegal move; both agents at once, `infos[agent]["result"]`
        ("1-0", "0-1", "1/2-1/2") and `["termination"]`. Truncation: after `max_plies` plies when
        set (never by default).
    Options: `variant="standard"|"chess960"`; `start`: a Chess960 index 0..959 (chess960), a FEN,
        or None (standard: the usual array; chess960: index 518). `reset(options={"start": ...})`
        overrides it for one game.
    Checks: `step` / `observe` before `reset`, and `step` after the game was cleared, raise
        RuntimeError.
    Versions: v0 (ruleset chess@1).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": ["ansi", "human"],
        "name": "chess_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        variant: str = "standard",
        start: int | str | None = None,
        render_mode: str | None = None,
        max_plies: int | None = None,
    ) -> None:
        check_variant(variant)
        start_board(variant, start)  # a bad start fails here, not at the first reset
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}"
            )
        if max_plies is not None and max_plies < 1:
            raise ValueError(f"max_plies must be a positive int or None, got {max_plies!r}")
        super().__init__()
        self.variant = variant
        self.start = start
        self.render_mode = render_mode
        self.max_plies = max_plies
        self.possible_agents = list(AGENTS)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0, 1, (8, 8, OBS_PLANES), np.bool_),
                    "action_mask": spaces.Box(0, 1, (ACTION_SIZE,), np.int8),
                }
            )
            for agent in AGENTS
        }
        self.action_spaces = {agent: spaces.Discrete(ACTION_SIZE) for agent in AGENTS}
        self.game = ChessGame(variant, start)
        self._has_reset = False
        self._reset_bookkeeping()

    def _reset_bookkeeping(self) -> None:
        self.agents = list(AGENTS) if self._has_reset else []
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self.agent_selection = AGENTS[0] if self.game.board.turn else AGENTS[1]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def board(self) -> chess.Board:
        """The python-chess board of the game (read it, do not push moves on it)."""
        return self.game.board

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """The start position again (or `options["start"]`). Chess has no randomness; `seed` is
        accepted for the API."""
        start = reset_options(options).get("start", self.start)
        self.game = ChessGame(self.variant, start)
        self._has_reset = True
        self._reset_bookkeeping()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if not self._has_reset:
            raise RuntimeError("call reset() before observe()")
        game = self.game
        mover = agent == self.agent_selection
        return {
            "observation": game.observation(0 if agent == AGENTS[0] else 1),
            "action_mask": game.mask() if mover else np.zeros(ACTION_SIZE, np.int8),
        }

    def step(self, action: int | np.integer[Any] | None) -> None:
        if not self.agents:
            raise RuntimeError(
                "the game is over and every agent has left: call reset()"
                if self._has_reset
                else "call reset() before step()"
            )
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: None is only for agents whose game ended")
        a = (
            action
            if type(action) is int and 0 <= action < ACTION_SIZE
            else action_index(action, ACTION_SIZE)
        )
        game = self.game
        opponent = AGENTS[1] if agent == AGENTS[0] else AGENTS[0]
        self._cumulative_rewards[agent] = 0.0
        move = game.move_of(a)
        if move is None:
            self.rewards = {agent: -1.0, opponent: 1.0}
            self.infos[agent]["illegal_move"] = True
            self._end("1-0" if agent == AGENTS[1] else "0-1", "illegal_move")
        else:
            game.play(move)
            if game.termination is not None:
                if game.winner is None:
                    self.rewards = {agent: 0.0, opponent: 0.0}
                else:
                    self.rewards = {agent: 1.0, opponent: -1.0}
                self._end(game.result, game.termination)
            else:
                self.rewards = {agent: 0.0, opponent: 0.0}
                if self.max_plies is not None and game.ply >= self.max_plies:
                    self.truncations = dict.fromkeys(AGENTS, True)
                    self._finish_infos("*", "max_plies")
        if self.terminations[agent] or self.truncations[agent]:
            self._accumulate_rewards()
        self.agent_selection = opponent
        if self.render_mode == "human":
            print(self._ansi())

    def _end(self, result: str, termination: str) -> None:
        self.terminations = dict.fromkeys(AGENTS, True)
        self._finish_infos(result, termination)

    def _finish_infos(self, result: str, termination: str) -> None:
        for agent in AGENTS:
            self.infos[agent]["result"] = result
            self.infos[agent]["termination"] = termination

    def _ansi(self) -> str:
        board = self.game.board
        side = "white" if board.turn else "black"
        return render_ansi(board, header=f"{self.variant}, ply {self.game.ply}, {side} to move")

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self._ansi()
        if self.render_mode == "human":
            print(self._ansi())
        return None

    def close(self) -> None:
        """Nothing to release."""

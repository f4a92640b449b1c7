"""The single-agent Gymnasium env of chess: the agent against one ladder opponent."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import chess
import numpy as np
from gymnasium import spaces

from arcade_gym.chess.encoding import action_to_move
from arcade_gym.chess.game import ChessGame
from arcade_gym.chess.opponents import RULES, make_rule
from arcade_gym.chess.positions import check_variant, start_board
from arcade_gym.chess.render import render_ansi, render_rgb
from arcade_gym.chess.rules import ACTION_SIZE, CHESS960_POSITIONS, OBS_PLANES
from arcade_gym.core.args import check_choice, check_int, check_render_mode
from arcade_gym.core.env import ArcadeEnv, StepResult, reset_options
from arcade_gym.core.seeding import seed_to_u64

AGENT_COLOURS = ("white", "black", "alternate")

Opponent = Callable[[chess.Board], chess.Move]


class ChessEnv(ArcadeEnv[np.ndarray]):
    """Chess or Chess960 (python-chess rules, `docs/rules/chess.md`) against a ladder opponent,
    with the observation and actions of PettingZoo's `chess_v6` (as `chess_v0` in
    `arcade_gym/chess/aec.py`), from the agent's side.

    Observation: Box(0, 1, (8, 8, 111), bool): chess_v6's planes as the agent's colour sees them
        (castling rights, colour, fifty-move counter, ones, then the last 8 boards with own
        pieces first; the black agent sees the board mirrored rank-wise).
    Action: MaskedDiscrete(4672), AlphaZero's 8x8x73 move index (`arcade_gym/chess/encoding.py`).
        `info["action_mask"]` / `action_masks()` mark the legal moves; `action_space.sample()`
        draws one. A masked action raises ValueError, or with `illegal_action="penalty"` leaves
        the position unchanged, pays `illegal_reward` (-1) and sets `info["illegal"]`
        (`"terminate"` also ends the episode). Out-of-range actions raise ValueError,
        non-integer ones TypeError. `observation="flat"` gives one float32 vector.
    Reward: +1 when the agent wins, -1 when it loses, 0 otherwise (draws included).
    Termination: checkmate, stalemate, insufficient material, a third repetition, 100 halfmoves
        without a capture or pawn move. Truncation: `max_plies` plies (none by default), or
        penalised moves using up what is left of them.
    Options: `variant="standard"|"chess960"`; `start`: a FEN or a Chess960 index, or None (the
        standard array; in Chess960 an index drawn from the episode's seed);
        `opponent="random"|"greedy"|"material-2ply"` (the weak ladder rungs of
        `arcade_gym/chess/opponents.py`, tie-breaks seeded per episode) or any callable
        `board -> move`, given a copy of the position without its move history (e.g. a
        Stockfish rung from `policies/engines/uci.py`: `UciEngine.play`; an object with
        `close()` is closed by `env.close()`); `agent_colour="white"|"black"|
        "alternate"`. `reset(options={"seed": ..., "start": ...})` names the episode's seed and
        start position. When the agent plays black, `reset` already holds the opponent's first
        move. `info`: `action_mask`, `agent_colour`, `opponent_move` (UCI, None before it moved),
        `fen`, `result` ("1-0", "0-1", "1/2-1/2", "*") and `termination`.
    Versions: v0 (ruleset chess@1).
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}  # noqa: RUF012
    option_keys = frozenset({"seed", "start"})
    action_layout = "(file * 8 + rank) * 73 + plane, AlphaZero's 8x8x73 encoding"
    variants = ({"variant": "standard"}, {"variant": "chess960"})

    def __init__(
        self,
        render_mode: str | None = None,
        *,
        variant: str = "standard",
        start: int | str | None = None,
        opponent: str | Opponent = "random",
        agent_colour: str = "white",
        max_plies: int | None = None,
        observation: str = "dict",
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
    ) -> None:
        check_variant(variant)
        start_board(variant, start)
        if isinstance(opponent, str):
            check_choice("opponent", opponent, RULES)
        elif not callable(opponent):
            raise TypeError(f"opponent must be a weak rung name or a callable, got {opponent!r}")
        check_choice("agent_colour", agent_colour, AGENT_COLOURS)
        if max_plies is not None:
            check_int("max_plies", max_plies, low=1)
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self.variant = variant
        self.start = start
        self.opponent = opponent
        self.agent_colour = agent_colour
        self.max_plies = max_plies
        self._setup_actions(
            ACTION_SIZE,
            np.zeros(ACTION_SIZE, np.int8),
            illegal_action=illegal_action,
            illegal_reward=illegal_reward,
        )
        self._setup_observation(spaces.Box(0, 1, (8, 8, OBS_PLANES), np.bool_), observation)
        self._episodes = 0
        self._next_start: int | str | None = None
        self.side = chess.WHITE
        self.opponent_move: str | None = None
        self.game = ChessGame(variant, start)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        self._next_start = reset_options(options).get("start", self.start)
        if self._next_start is not None:
            start_board(self.variant, self._next_start)
        if seed is not None:
            self._episodes = 0
        return super().reset(seed=seed, options=options)

    # --- the game's hooks -----------------------------------------------------------------------
    def _begin(self, seed: str | int) -> tuple[np.ndarray, dict[str, Any]]:
        u64 = seed_to_u64(seed)
        start = self._next_start
        if start is None and self.variant == "chess960":
            start = u64 % CHESS960_POSITIONS
        if self.agent_colour == "alternate":
            self.side = self._episodes % 2 == 0
        else:
            self.side = self.agent_colour == "white"
        self._episodes += 1
        self._choose: Opponent = (
            make_rule(self.opponent, u64) if isinstance(self.opponent, str) else self.opponent
        )
        self.game = ChessGame(self.variant, start)
        self.opponent_move = None
        if self.game.board.turn != self.side and not self.game.over:
            self._opponent_plays()
        self._sync_mask()
        return self._observation(), self._info()

    def _advance(self, action: int) -> StepResult:
        game = self.game
        move = game.move_of(action)
        assert move is not None  # the base checked the mask
        game.play(move)
        if not game.over:
            self._opponent_plays()
        self._sync_mask()
        reward = 0.0
        if game.winner is not None:
            reward = 1.0 if game.winner == self.side else -1.0
        truncated = not game.over and self.max_plies is not None and game.ply >= self.max_plies
        return self._observation(), reward, game.over, truncated, self._info()

    def _current(self) -> tuple[np.ndarray, dict[str, Any]]:
        return self._observation(), self._info()

    def _decisions_left(self) -> int | None:
        if self.max_plies is None:
            return None
        return max(0, (self.max_plies - self.game.ply + 1) // 2)

    def _describe_action(self, action: int) -> str:
        try:
            return f"{action_to_move(self.game.board, action).uci()}: not legal here"
        except ValueError as exc:
            return str(exc)

    def render(self) -> str | np.ndarray | None:
        if self.render_mode == "ansi":
            game = self.game
            status = game.result if game.over else ("white" if game.board.turn else "black")
            agent = "white" if self.side else "black"
            return render_ansi(game.board, header=f"{self.variant}, agent {agent}, {status}")
        if self.render_mode == "rgb_array":  # from the agent's side, its colour at the bottom
            return render_rgb(self.game.board, flipped=not self.side)
        return None

    def close(self) -> None:
        """Close a callable opponent that holds a resource (an engine process)."""
        closer = getattr(self.opponent, "close", None) or getattr(
            getattr(self.opponent, "__self__", None), "close", None
        )
        if callable(closer):
            closer()
        super().close()

    # --- helpers ------------------------------------------------------------------------------
    def _opponent_plays(self) -> None:
        game = self.game
        move = self._choose(game.board.copy(stack=False))
        if not game.is_legal(move):
            raise RuntimeError(
                f"the opponent chose {move.uci()}, which is not legal in {game.board.fen()}"
            )
        self.opponent_move = move.uci()
        game.play(move)

    def _sync_mask(self) -> None:
        self.game.mask(out=self._mask)

    def _observation(self) -> np.ndarray:
        return self.game.observation(0 if self.side else 1)

    def _info(self) -> dict[str, Any]:
        game = self.game
        return {
            "action_mask": self._mask.copy(),
            "agent_colour": "white" if self.side else "black",
            "opponent_move": self.opponent_move,
            "fen": game.board.fen(),
            "result": game.result,
            "termination": game.termination,
        }


__all__ = ["AGENT_COLOURS", "ChessEnv"]

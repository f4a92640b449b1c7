"""`Chess-v0` as a native vector env: N games against a weak rung, stepped by one numba call.

`gym.make_vec("arcade_gym/Chess-v0", num_envs=N, vectorization_mode="vector_entry_point")`.
The agent's move, the opponent's reply, the end rules and the observation planes are played
inside the kernels (`arcade_gym/chess/vector_kernels.py` on `board_kernels.py`,
`rule_kernels.py`, `rule_rng.py`), so no python-chess board is touched per step. Given the
same seeds, game i plays exactly what `ChessEnv` plays after `reset(seed=seed + i)`, autoreset
included (`arcade_gym/core/vector.py`); `tests/chess/test_vector.py` pins it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

import chess
import numpy as np
from gymnasium import spaces

from arcade_gym.chess.board_kernels import NO_SQUARE
from arcade_gym.chess.env import AGENT_COLOURS
from arcade_gym.chess.fen_kernel import FEN_BYTES, NAMES, uci_names, write_fens
from arcade_gym.chess.game import _placement
from arcade_gym.chess.movegen import MAX_MOVES, POS_WORDS
from arcade_gym.chess.opponents import RULES
from arcade_gym.chess.positions import check_variant, start_board
from arcade_gym.chess.rule_kernels import RULE_CODES
from arcade_gym.chess.rule_rng import stream_words
from arcade_gym.chess.rules import ACTION_SIZE, CHESS960_POSITIONS, HISTORY, OBS_PLANES
from arcade_gym.chess.vector_kernels import (
    C_COLOUR,
    C_DRAW_START,
    C_MAX_PLIES,
    C_RULE,
    DRAW_WORDS,
    KEY_WORDS,
    KEYS,
    S_AGENT_WHITE,
    S_END,
    S_EPISODES,
    S_OPPONENT,
    S_PLY,
    S_WINNER,
    ST,
    TERMINATIONS,
    reset_games,
    step_games,
)
from arcade_gym.core.args import check_choice, check_int
from arcade_gym.core.env import reset_options
from arcade_gym.core.vector import ArcadeVectorEnv, check_num_envs

MAX_START_CLOCK = 10**6
"""Largest halfmove clock / move number a start FEN may carry here (bounds `info["fen"]`)."""

_COLOURS = np.array(["black", "white"], object)
_RESULTS = np.array(["*", "1/2-1/2", "0-1", "1-0"], object)
_TERMINATIONS = np.array(TERMINATIONS, object)


def _words(board: chess.Board) -> np.ndarray:
    """A board as the kernels' position words (`ChessGame._refresh` builds the same)."""
    ep = board.ep_square
    return np.array(
        (
            *_placement(board),
            NO_SQUARE if ep is None else ep,
            board.castling_rights,
            board.turn,
            board.chess960,
        ),
        np.uint64,
    )


@cache
def _chess960_starts() -> tuple[np.ndarray, np.ndarray]:
    boards = [chess.Board.from_chess960_pos(i) for i in range(CHESS960_POSITIONS)]
    return np.stack([_words(b) for b in boards]), np.tile(np.array([0, 1], np.int64), (960, 1))


def _starts(variant: str, start: int | str | None) -> tuple[np.ndarray, np.ndarray]:
    """The start positions an episode draws from (one, or the 960 of Chess960) and their
    (halfmove clock, move number)."""
    if start is None and variant == "chess960":
        return _chess960_starts()
    board = start_board(variant, start)
    for name, value in (
        ("halfmove clock", board.halfmove_clock),
        ("move number", board.fullmove_number),
    ):
        if value >= MAX_START_CLOCK:
            raise ValueError(
                f"the start FEN's {name} is {value}; the vector env takes values below "
                f"{MAX_START_CLOCK} (use the single env for others)"
            )
    clocks = np.array([[board.halfmove_clock, board.fullmove_number]], np.int64)
    return _words(board)[None, :], clocks


def _seeded_games(seed: object, n: int) -> np.ndarray | None:
    """Games whose `reset(seed=...)` names a seed (their episode count restarts, as a single
    env's does); None when `seed` names none (or is malformed: the base refuses it)."""
    if isinstance(seed, int | np.integer) and not isinstance(seed, bool):
        return np.ones(n, np.bool_)
    if isinstance(seed, Sequence) and len(seed) == n:
        return np.array([s is not None for s in seed], np.bool_)
    return None


class ChessVectorEnv(ArcadeVectorEnv):
    """N games of `ChessEnv` (its spaces, opponents, rewards and end rules), one kernel a step.

    Observation: (N, 8, 8, 111) bool, the agent's chess_v6 planes (or (N, 7104) float32 with
    `observation="flat"`). Actions: (N,) ints of the 4672 move indices; `action_masks()` and
    `info["action_mask"]` (N, 4672). Info, per game as the single env names it:
    `agent_colour`, `opponent_move` (UCI, None before it moved), `fen`, `result`,
    `termination` (object arrays). Options: `variant`, `start` (one FEN or Chess960 index for
    every episode; per-episode starts and `reset(options=...)` belong to the single env),
    `opponent` ("random", "greedy" or "material-2ply": a callable opponent cannot run in the
    kernel, so it needs `make_vec(..., vectorization_mode="sync")`), `agent_colour`,
    `max_plies`, `observation`, `illegal_action`, `illegal_reward`.
    """

    def __init__(
        self,
        num_envs: int = 1,
        *,
        variant: str = "standard",
        start: int | str | None = None,
        opponent: str = "random",
        agent_colour: str = "white",
        max_plies: int | None = None,
        observation: str = "dict",
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        n = check_num_envs(num_envs)
        check_variant(variant)
        if not isinstance(opponent, str):
            raise ValueError(
                "the vector env plays only the weak rungs "
                f"{sorted(RULES)} inside its kernel; for a callable opponent use "
                'gym.make_vec(..., vectorization_mode="sync") of single envs'
            )
        check_choice("opponent", opponent, RULES)
        check_choice("agent_colour", agent_colour, AGENT_COLOURS)
        if max_plies is not None:
            check_int("max_plies", max_plies, low=1)
        if render_mode is not None:
            raise ValueError("the vector env does not render; render a single ChessEnv")
        self.variant, self.start, self.opponent = variant, start, opponent
        self.agent_colour, self.max_plies = agent_colour, max_plies
        self._starts, self._clocks = _starts(variant, start)
        self._cfg = np.zeros(4, np.int64)
        self._cfg[C_RULE] = RULE_CODES[opponent]
        self._cfg[C_COLOUR] = AGENT_COLOURS.index(agent_colour)
        self._cfg[C_MAX_PLIES] = max_plies or 0
        self._cfg[C_DRAW_START] = start is None and variant == "chess960"
        self._pos = np.zeros((n, POS_WORDS), np.uint64)
        self._st = np.zeros((n, ST), np.int64)
        self._hist = np.zeros((n, HISTORY, 10), np.uint64)
        self._keys = np.zeros((n, KEYS, KEY_WORDS), np.uint64)
        self._moves = np.zeros((n, MAX_MOVES), np.int32)
        self._acts = np.zeros((n, MAX_MOVES), np.int32)
        self._rng = np.zeros((n, 6), np.uint64)
        self._obs = np.zeros((n, 8, 8, OBS_PLANES), np.bool_)
        self._fen_bytes = np.zeros((n, FEN_BYTES), np.uint8)
        self._seeded: np.ndarray | None = None
        self._setup(
            n,
            ACTION_SIZE,
            np.zeros((n, ACTION_SIZE), np.int8),
            spaces.Box(0, 1, (8, 8, OBS_PLANES), np.bool_),
            observation=observation,
            illegal_action=illegal_action,
            illegal_reward=illegal_reward,
            seed_dtype=np.uint64,
        )
        self._seeds = np.zeros((n, self._seeds.shape[1], DRAW_WORDS), np.uint64)

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Any, dict[str, Any]]:
        self._seeded = None if reset_options(options) else _seeded_games(seed, self.num_envs)
        try:
            return super().reset(seed=seed, options=options)
        finally:
            self._seeded = None

    def plies(self) -> np.ndarray:
        """(N,) plies (both sides' moves) each game has had since its start position: what a
        ply count reads (`arcade-eval bench`'s plies per second), as `ChessGame.ply` per game."""
        plies: np.ndarray = self._st[:, S_PLY].copy()
        return plies

    # --- the base's hooks ---------------------------------------------------------------------
    def _draws(self, rng: np.random.Generator, k: int) -> np.ndarray:
        """k episodes as `ChessEnv` draws them: a raw 64-bit seed each, and the PCG64 stream
        the weak rung seeded from it (`make_rule(name, seed)`) starts with."""
        seeds = rng.bit_generator.random_raw(k)
        out = np.zeros((k, DRAW_WORDS), np.uint64)
        out[:, 0] = seeds
        for j, seed in enumerate(seeds.tolist()):
            out[j, 1:] = stream_words(seed)[:4]
        return out

    def _kernel_reset(self, games: np.ndarray) -> None:
        if self._seeded is not None:
            self._st[self._seeded, S_EPISODES] = 0
        reset_games(
            games.astype(np.int64), self._pos, self._st, self._hist, self._keys, self._moves,
            self._acts, self._rng, self._seeds, self._seed_pos, self._starts, self._clocks,
            self._cfg, self._masks, self._obs,
        )  # fmt: skip

    def _kernel_step(self, actions: np.ndarray) -> None:
        step_games(
            0, self.num_envs, actions, self._needs_reset, self._pos, self._st, self._hist,
            self._keys, self._moves, self._acts, self._rng, self._seeds, self._seed_pos,
            self._starts, self._clocks, self._cfg, self._masks, self._obs, self.rewards,
            self.terminations, self.truncations,
        )  # fmt: skip

    def _observations(self) -> np.ndarray:
        return self._out(self._obs)

    def _decisions_left(self) -> np.ndarray | None:
        if self.max_plies is None:
            return None
        left: np.ndarray = np.maximum(0, (self.max_plies - self._st[:, S_PLY] + 1) // 2)
        return left

    def _infos(self) -> dict[str, Any]:
        infos = super()._infos()
        st = self._st
        write_fens(self._pos, st, self._fen_bytes)
        opponent = st[:, S_OPPONENT]
        end = st[:, S_END]
        infos["agent_colour"] = _COLOURS[st[:, S_AGENT_WHITE]]
        infos["opponent_move"] = uci_names()[np.where(opponent >= 0, opponent & (NAMES - 1), NAMES)]
        infos["fen"] = np.char.decode(self._fen_bytes.view(f"S{FEN_BYTES}")[:, 0]).astype(object)
        infos["result"] = _RESULTS[np.where(end == 0, 0, st[:, S_WINNER] + 2)]
        infos["termination"] = _TERMINATIONS[end]
        ones = self._ones
        for key in ("agent_colour", "opponent_move", "fen", "result", "termination"):
            infos[f"_{key}"] = ones.copy()
        return infos


__all__ = ["ChessVectorEnv"]

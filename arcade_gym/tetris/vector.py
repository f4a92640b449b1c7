"""`Tetris-v3` and `TetrisPrimitive-v3` as native vector envs: N games in one numba call a step.

`gym.make_vec(ID, num_envs=N, vectorization_mode="vector_entry_point")` for either id. Given the
same seeds, game i plays exactly what the single env plays after `reset(seed=seed + i)`,
autoreset included (`arcade_gym/core/vector.py`). Rewards are the score deltas; Blitz,
`reward_fn` and questions belong to the single envs.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from arcade_gym.core.args import check_choice
from arcade_gym.core.batch_threads import MIN_GAMES_PER_THREAD, check_threads, run_sliced
from arcade_gym.core.vector import ArcadeVectorEnv, check_num_envs
from arcade_gym.tetris import candidates as C
from arcade_gym.tetris import engine as E
from arcade_gym.tetris.env import PRIMITIVE_CONTROLS, TetrisEnv, TetrisPrimitiveEnv
from arcade_gym.tetris.rules import (
    CLASSIC_START_LEVEL,
    END_NONE,
    END_TOP_OUT,
    HOLD_ACTION,
    N_ACTIONS,
    PIECE_CAP,
    PREVIEW,
    SCORING_GUIDELINE,
    SCORING_MODES,
    TICK_CAP,
)


@njit(cache=True)
def _new_game(
    seed: np.int64,
    board: np.ndarray,
    st: np.ndarray,
    seq: np.ndarray,
    cfg: np.ndarray,
    nxt: np.ndarray,
) -> None:
    """A new game from an episode seed; cfg = scoring, start level, piece cap, tick cap."""
    E.new_game(np.uint64(seed), board, st, seq, cfg[0], cfg[1], cfg[2], cfg[3])
    _preview(st, seq, nxt)


@njit(cache=True)
def _preview(st: np.ndarray, seq: np.ndarray, nxt: np.ndarray) -> None:
    q = st[E.S_QPOS]
    for k in range(PREVIEW):
        nxt[k] = seq[q + k]


@njit(cache=True)
def _ends(st: np.ndarray, i: int, term: np.ndarray, trunc: np.ndarray, reset: np.ndarray) -> None:
    end = st[E.S_END]
    if end != END_NONE:
        term[i] = end == END_TOP_OUT
        trunc[i] = end != END_TOP_OUT
        reset[i] = True


# --- primitive controls -------------------------------------------------------------------------
@njit(cache=True)
def primitive_reset(
    board: np.ndarray,
    st: np.ndarray,
    seq: np.ndarray,
    cfg: np.ndarray,
    seeds: np.ndarray,
    seed_pos: np.ndarray,
    games: np.ndarray,
    view: np.ndarray,
    nxt: np.ndarray,
) -> None:
    """New games in the listed slots, each from its next pre-drawn seed."""
    for j in range(games.shape[0]):
        i = games[j]
        _new_game(seeds[i, seed_pos[i]], board[i], st[i], seq[i], cfg, nxt[i])
        seed_pos[i] += 1
        E.primitive_view(board[i], st[i], view[i])


@njit(cache=True)
def primitive_step(
    board: np.ndarray,
    st: np.ndarray,
    seq: np.ndarray,
    cfg: np.ndarray,
    seeds: np.ndarray,
    seed_pos: np.ndarray,
    actions: np.ndarray,
    needs_reset: np.ndarray,
    view: np.ndarray,
    nxt: np.ndarray,
    rew: np.ndarray,
    term: np.ndarray,
    trunc: np.ndarray,
) -> None:
    """Reset the games that ended on the last step; apply one control to the others."""
    for i in range(actions.shape[0]):
        rew[i] = 0.0
        term[i] = False
        trunc[i] = False
        if needs_reset[i]:
            _new_game(seeds[i, seed_pos[i]], board[i], st[i], seq[i], cfg, nxt[i])
            seed_pos[i] += 1
            E.primitive_view(board[i], st[i], view[i])
            needs_reset[i] = False
            continue
        if actions[i] < 0:
            continue
        rew[i] = E.primitive_step_view(board[i], st[i], seq[i], actions[i], view[i])
        _preview(st[i], seq[i], nxt[i])
        _ends(st[i], i, term, trunc, needs_reset)


# --- placements ---------------------------------------------------------------------------------
# What a game keeps of its listed candidates between steps: per action index, the placement
# `engine.play_placement` needs (the rest of a candidate row is rebuilt from the board each step).
# The search's candidate rows and features live in one scratch pair per kernel call, hot in the
# cache, rather than ten kilobytes of int64 per game that every step would stream from memory.
P_X, P_ROT, P_Y_START, P_Y_LAND, P_SPIN = range(5)
PLAY_LEN = 5


@njit(cache=True)
def _keep_plays(st: np.ndarray, cinfo: np.ndarray, plays: np.ndarray) -> None:
    for k in range(st[E.S_NCAND]):
        a = cinfo[k, E.C_ACTION]
        plays[a, P_X] = cinfo[k, E.C_X]
        plays[a, P_ROT] = cinfo[k, E.C_ROT]
        plays[a, P_Y_START] = cinfo[k, E.C_Y_START]
        plays[a, P_Y_LAND] = cinfo[k, E.C_Y_LAND]
        plays[a, P_SPIN] = cinfo[k, E.C_SPIN]


@njit(cache=True)
def _placement_game(
    seed: np.int64,
    board: np.ndarray,
    st: np.ndarray,
    seq: np.ndarray,
    cfg: np.ndarray,
    nxt: np.ndarray,
    cinfo: np.ndarray,
    cfeat: np.ndarray,
    mask: np.ndarray,
    featmat: np.ndarray,
    plays: np.ndarray,
    work: np.ndarray,
    visited: np.ndarray,
) -> None:
    _new_game(seed, board, st, seq, cfg, nxt)
    C.list_candidates_into(board, st, seq, cinfo, cfeat, work, visited)
    C.fill_action_view(st, cinfo, cfeat, mask, featmat)
    C.fill_landing_columns(board, st, cinfo, featmat)
    _keep_plays(st, cinfo, plays)


@njit(cache=True)
def _scratch() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One kernel call's search buffers, candidate rows and features, and a placement row."""
    return (
        np.empty(C.WORK_LEN, np.int64),
        np.zeros(C.VISITED_LEN, np.int8),
        np.zeros((E.MAX_CANDIDATES, E.C_ACTION + 1), np.int64),
        np.zeros((E.MAX_CANDIDATES, E.FEATURES_LEN), np.int64),
        np.zeros(E.C_ACTION + 1, np.int64),
    )


@njit(cache=True)
def placement_reset(
    board: np.ndarray,
    st: np.ndarray,
    seq: np.ndarray,
    cfg: np.ndarray,
    seeds: np.ndarray,
    seed_pos: np.ndarray,
    games: np.ndarray,
    nxt: np.ndarray,
    plays: np.ndarray,
    mask: np.ndarray,
    featmat: np.ndarray,
) -> None:
    """New games in the listed slots, with their candidates listed."""
    work, visited, cinfo, cfeat, _ = _scratch()
    for j in range(games.shape[0]):
        i = games[j]
        _placement_game(
            seeds[i, seed_pos[i]], board[i], st[i], seq[i], cfg, nxt[i], cinfo, cfeat, mask[i],
            featmat[i], plays[i], work, visited,
        )  # fmt: skip
        seed_pos[i] += 1


@njit(cache=True, nogil=True)
def placement_step(
    lo: int,
    hi: int,
    board: np.ndarray,
    st: np.ndarray,
    seq: np.ndarray,
    cfg: np.ndarray,
    seeds: np.ndarray,
    seed_pos: np.ndarray,
    actions: np.ndarray,
    needs_reset: np.ndarray,
    nxt: np.ndarray,
    plays: np.ndarray,
    mask: np.ndarray,
    featmat: np.ndarray,
    rew: np.ndarray,
    term: np.ndarray,
    trunc: np.ndarray,
) -> None:
    """Games lo..hi-1: reset those that ended on the last step, play a placement (or hold) in the
    others (`candidates.placement_step_into`, the placement read from `plays`). Releases the GIL:
    disjoint slices may run on several threads at once."""
    work, visited, cinfo, cfeat, row = _scratch()
    for i in range(lo, hi):
        rew[i] = 0.0
        term[i] = False
        trunc[i] = False
        if needs_reset[i]:
            _placement_game(
                seeds[i, seed_pos[i]], board[i], st[i], seq[i], cfg, nxt[i], cinfo, cfeat,
                mask[i], featmat[i], plays[i], work, visited,
            )  # fmt: skip
            seed_pos[i] += 1
            needs_reset[i] = False
            continue
        a = actions[i]
        if a < 0:
            continue
        b, g, q = board[i], st[i], seq[i]
        if a == HOLD_ACTION:
            E.hold_piece(b, g, q)
        else:
            p = plays[i, a]
            row[E.C_X] = p[P_X]
            row[E.C_ROT] = p[P_ROT]
            row[E.C_Y_START] = p[P_Y_START]
            row[E.C_Y_LAND] = p[P_Y_LAND]
            row[E.C_SPIN] = p[P_SPIN]
            rew[i] = E.play_placement(b, g, q, row)
        E.end_tick(g)
        if g[E.S_END] == END_NONE:
            C.generate_candidates_into(b, g, q, cinfo, cfeat, work, visited)
        else:
            g[E.S_NCAND] = 0
        C.fill_action_view(g, cinfo, cfeat, mask[i], featmat[i])
        C.fill_landing_columns(b, g, cinfo, featmat[i])
        _keep_plays(g, cinfo, plays[i])
        _preview(g, q, nxt[i])
        _ends(g, i, term, trunc, needs_reset)


class _TetrisVector(ArcadeVectorEnv):
    """The arrays both Tetris vector envs keep: boards, state vectors, sequences, previews."""

    def _arrays(
        self, n: int, template: TetrisEnv | TetrisPrimitiveEnv, scoring: int, start: int
    ) -> None:
        game = template.game
        self._board = np.zeros((n, *game.board.shape), game.board.dtype)
        self._st = np.zeros((n, E.STATE_LEN), np.int64)
        self._seq = np.zeros((n, game.seq.shape[0]), game.seq.dtype)
        self._nxt = np.zeros((n, PREVIEW), np.int64)
        caps = int(game.st[E.S_PIECE_CAP]), int(game.st[E.S_TICK_CAP])
        self._cfg = np.array([scoring, start, *caps], np.int64)
        self._tick_cap = caps[1]

    def _draws(self, rng: np.random.Generator, k: int) -> np.ndarray:
        draws: np.ndarray = rng.integers(0, 2**63 - 1, size=k)
        return draws

    def _decisions_left(self) -> np.ndarray:
        left: np.ndarray = self._tick_cap - self._st[:, E.S_TICK]
        return left

    def _infos(self) -> dict[str, Any]:
        infos = super()._infos()
        infos["score"] = self._st[:, E.S_SCORE].copy()
        infos["lines"] = self._st[:, E.S_LINES].copy()
        return infos


class TetrisPrimitiveVectorEnv(_TetrisVector):
    """N games of `TetrisPrimitiveEnv` (spaces, rewards, ends, seeds) in one kernel call.

    Observation: Dict(board=(N, 20, 10) uint8, piece=(N, 4) int64, next=(N, 5) int64), or
    (N, D) float32 with `observation="flat"`. Actions: (N,) controls 0..5. Info: `action_mask`
    (all ones), `score`, `lines`.
    """

    def __init__(
        self,
        num_envs: int = 1,
        *,
        scoring: str = "classic",
        difficulty: str = "easy",
        max_pieces: int = PIECE_CAP,
        max_decisions: int = TICK_CAP,
        observation: str = "dict",
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        n = check_num_envs(num_envs)
        if render_mode is not None:
            raise ValueError("the vector env does not render; render a single TetrisPrimitiveEnv")
        template = TetrisPrimitiveEnv(
            scoring=scoring,
            difficulty=difficulty,
            max_pieces=max_pieces,
            max_decisions=max_decisions,
        )
        self._arrays(n, template, SCORING_MODES[scoring], CLASSIC_START_LEVEL[difficulty])
        self._view = np.zeros((n, *template._view.shape), np.uint8)
        self._setup(
            n,
            len(PRIMITIVE_CONTROLS),
            np.ones((n, len(PRIMITIVE_CONTROLS)), np.int8),
            template.observation_space,
            observation=observation,
            illegal_action=illegal_action,
            illegal_reward=illegal_reward,
            seed_dtype=np.int64,
        )

    def _kernel_reset(self, games: np.ndarray) -> None:
        primitive_reset(
            self._board, self._st, self._seq, self._cfg, self._seeds, self._seed_pos, games,
            self._view, self._nxt,
        )  # fmt: skip

    def _kernel_step(self, actions: np.ndarray) -> None:
        primitive_step(
            self._board, self._st, self._seq, self._cfg, self._seeds, self._seed_pos, actions,
            self._needs_reset, self._view, self._nxt, self.rewards, self.terminations,
            self.truncations,
        )  # fmt: skip

    def _observations(self) -> dict[str, np.ndarray]:
        return {
            "board": self._out(self._view),
            "piece": self._st[:, :4].copy(),
            "next": self._out(self._nxt),
        }


class TetrisVectorEnv(_TetrisVector):
    """N games of `TetrisEnv` (IQ mode: spaces, rewards, ends, seeds) in one kernel call.

    Observation: the single env's Dict batched (board (N, 20, 10), active (N,), hold (N,),
    next (N, 5), state (N, 4), placements (N, 45, 10), or (N, 45, 12) with
    `placement_features="extended"`: the afterstate features, the intended input), or (N, D)
    float32 with `observation="flat"`. Actions: (N,) placement indices.
    Info: `action_mask` (N, 45), `score`, `lines`.
    Threads: a step plays slices of at least 64 games on up to `threads` threads (default: one per
    available core; 1 keeps it on the calling thread); the results do not depend on it.
    """

    slice_games = MIN_GAMES_PER_THREAD
    """The smallest slice of games a thread steps (`threads`)."""

    def __init__(
        self,
        num_envs: int = 1,
        *,
        piece_cap: int = PIECE_CAP,
        tick_cap: int = TICK_CAP,
        observation: str = "dict",
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
        mode: str = "iq",
        render_mode: str | None = None,
        threads: int | None = None,
        placement_features: str = "basic",
    ) -> None:
        n = check_num_envs(num_envs)
        check_choice("mode (vector env)", mode, ("iq",))
        self.threads = check_threads(threads)
        if render_mode is not None:
            raise ValueError("the vector env does not render; render a single TetrisEnv")
        template = TetrisEnv(
            piece_cap=piece_cap, tick_cap=tick_cap, placement_features=placement_features
        )
        self._arrays(n, template, SCORING_GUIDELINE, 0)
        self._plays = np.zeros((n, N_ACTIONS, PLAY_LEN), np.int8)
        self._featmat = np.zeros((n, *template._featmat.shape), np.float32)
        self._setup(
            n,
            N_ACTIONS,
            np.zeros((n, N_ACTIONS), np.int8),
            template.observation_space,
            observation=observation,
            illegal_action=illegal_action,
            illegal_reward=illegal_reward,
            seed_dtype=np.int64,
        )

    def _kernel_reset(self, games: np.ndarray) -> None:
        placement_reset(
            self._board, self._st, self._seq, self._cfg, self._seeds, self._seed_pos, games,
            self._nxt, self._plays, self._masks, self._featmat,
        )  # fmt: skip

    def _kernel_step(self, actions: np.ndarray) -> None:
        def kernel(lo: int, hi: int) -> None:
            placement_step(
                lo, hi, self._board, self._st, self._seq, self._cfg, self._seeds, self._seed_pos,
                actions, self._needs_reset, self._nxt, self._plays, self._masks, self._featmat,
                self.rewards, self.terminations, self.truncations,
            )  # fmt: skip

        run_sliced(kernel, self.num_envs, self.threads, min_games=self.slice_games)

    def _observations(self) -> dict[str, np.ndarray]:
        st = self._st
        hold = st[:, E.S_HOLD]
        return {
            "board": (self._board != 0).view(np.uint8),
            "active": st[:, E.S_ACTIVE].copy(),
            "hold": np.where(hold < 0, 7, hold),
            "next": self._out(self._nxt),
            "state": st[:, [E.S_LEVEL, E.S_COMBO, E.S_B2B, E.S_CAN_HOLD]].astype(np.float32),
            "placements": self._out(self._featmat),
        }

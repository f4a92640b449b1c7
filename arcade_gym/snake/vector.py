"""`Snake-v0` as a native vector env: N games stepped by one numba call (lockstep only).

`gym.make_vec("arcade_gym/Snake-v0", num_envs=N, vectorization_mode="vector_entry_point")`.
Given the same seeds, game i plays exactly what `SnakeEnv` plays after `reset(seed=seed + i)`,
autoreset included (`arcade_gym/core/vector.py`). Rewards are the food eaten; `reward_fn`,
realtime mode and questions belong to the single env.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from arcade_gym.core.args import check_choice, check_int
from arcade_gym.core.batch_threads import check_threads, run_sliced
from arcade_gym.core.prefetch import prefetch_write
from arcade_gym.core.recycled import RecycledBuffers
from arcade_gym.core.vector import ArcadeVectorEnv, check_num_envs
from arcade_gym.snake import engine as E
from arcade_gym.snake.env import SnakeEnv
from arcade_gym.snake.rules import (
    DIFFICULTIES,
    END_NONE,
    END_WON,
    MAX_DECISIONS,
    N_DIRECTIONS,
    N_PLANES,
)

SEED_BLOCK = 256
"""Episode seeds pre-drawn per game: a random player's game lasts a few dozen moves, and each
block used up is a Python call (at 16 a game, those calls were a sixth of a 4,096-game step)."""
SLICE_GAMES = 1024
"""The smallest slice of games one thread steps (a game's step is a fraction of a microsecond,
a hand-off between threads tens of microseconds)."""
PREFETCH_AHEAD = 8
"""Games between the one a step draws and the one whose cells it prefetches."""
PREFETCH_CELLS = 6
"""Cells prefetched a game: the head end of its last drawing (the tail end is near them)."""


@njit(cache=True, inline="always")
def _draw(
    body: np.ndarray,
    st: np.ndarray,
    i: int,
    board: np.ndarray,
    drawn: np.ndarray,
    fresh: bool,
    length: np.ndarray,
    score: np.ndarray,
    mask: np.ndarray,
) -> None:
    """Game i's observation into row i of `board` (the (N, cells * 5) view of the planes):
    `drawn[i]` lists the cells the row's planes are not zero at (its count first), and only
    those are cleared before `engine.mark_planes` draws and records the new ones, unless `fresh`
    (a new buffer: the whole row is cleared). A step so writes a few cells a game, not 720
    floats."""
    if fresh:
        for x in range(board.shape[1]):
            board[i, x] = 0.0
    else:
        for j in range(1, drawn[i, 0] + 1):
            base = drawn[i, j] * N_PLANES
            for p in range(N_PLANES):
                board[i, base + p] = 0.0
    E.mark_planes(body[i], st[i], board[i], drawn[i])
    length[i, 0] = st[i, E.S_LENGTH]
    score[i] = st[i, E.S_SCORE]
    E.fill_mask(st[i], mask[i])


@njit(cache=True)
def reset_games(
    grid: np.ndarray,
    body: np.ndarray,
    st: np.ndarray,
    rng: np.ndarray,
    seeds: np.ndarray,
    seed_pos: np.ndarray,
    games: np.ndarray,
    board: np.ndarray,
    drawn: np.ndarray,
    fresh: bool,
    length: np.ndarray,
    score: np.ndarray,
    mask: np.ndarray,
) -> None:
    """New games in the listed slots, each from its next pre-drawn seed (`_draw` draws them)."""
    for j in range(games.shape[0]):
        i = games[j]
        E.reset(grid[i], body[i], st[i], rng[i], seeds[i, seed_pos[i]])
        seed_pos[i] += 1
        _draw(body, st, i, board, drawn, fresh, length, score, mask)


@njit(cache=True, nogil=True)
def step_games(
    lo: int,
    hi: int,
    grid: np.ndarray,
    body: np.ndarray,
    st: np.ndarray,
    rng: np.ndarray,
    seeds: np.ndarray,
    seed_pos: np.ndarray,
    actions: np.ndarray,
    needs_reset: np.ndarray,
    board: np.ndarray,
    drawn: np.ndarray,
    fresh: bool,
    length: np.ndarray,
    score: np.ndarray,
    mask: np.ndarray,
    rew: np.ndarray,
    term: np.ndarray,
    trunc: np.ndarray,
) -> None:
    """Games lo..hi-1: reset those that ended on the last step; move the others (action -1: leave
    it); then draw each into `board` (`_draw`: it may hold an older step's drawing). The cells a
    game `PREFETCH_AHEAD` games on will clear are prefetched (`arcade_gym/core/prefetch.py`).
    Releases the GIL: disjoint slices may run on several threads (each game touches its rows)."""
    for i in range(lo, hi):
        ahead = i + PREFETCH_AHEAD
        if ahead < hi and not fresh:
            rec = drawn[ahead]
            for q in range(1, min(rec[0], PREFETCH_CELLS) + 1):
                prefetch_write(board, ahead, rec[q] * N_PLANES)
        rew[i] = 0.0
        term[i] = False
        trunc[i] = False
        if needs_reset[i]:
            E.reset(grid[i], body[i], st[i], rng[i], seeds[i, seed_pos[i]])
            seed_pos[i] += 1
            needs_reset[i] = False
        elif actions[i] >= 0:
            eaten = E.play(grid[i], body[i], st[i], rng[i], actions[i])  # -1: already over
            rew[i] = eaten
            end = st[i, E.S_END]
            if eaten >= 0 and end != END_NONE:
                terminal = end <= END_WON  # wall, body and won come first in the END_* order
                term[i] = terminal
                trunc[i] = not terminal
                needs_reset[i] = True
        _draw(body, st, i, board, drawn, fresh, length, score, mask)


class SnakeVectorEnv(ArcadeVectorEnv):
    """N Snake games (`SnakeEnv`'s spaces, rewards and ends), stepped in one kernel call.

    Observation: Dict(board=(N, rows, cols, 5) float32, length=(N, 1) float32), or (N, D)
    float32 with `observation="flat"`. Actions: (N,) ints; the reversal is masked but legal, as
    in the single env. Info: `action_mask` (N, 4), `score` (N,) food eaten this episode.

    Buffers: with `copy=True` a step draws into a board array handed out a step or two before
    once the caller has let go of it (`arcade_gym/core/recycled.py`), changing only the cells
    that changed; with `copy=False` into the one live buffer. Either way a step writes a few
    cells a game, not the whole planes (at 4,096 games they are 12 MB, beyond the caches).

    Threads: with more than 1,024 games a step plays slices of at least 1,024 on up to
    `threads` threads (None, the default: one per available core; the results do not depend on
    it). Fewer games stay on the calling thread: there the hand-off cost more than it saved.
    """

    slice_games = SLICE_GAMES
    """The smallest slice of games a thread steps (`threads`)."""

    def __init__(
        self,
        num_envs: int = 1,
        *,
        difficulty: str = "easy",
        max_decisions: int = MAX_DECISIONS,
        max_steps_without_food: int | None = None,
        observation: str = "dict",
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        threads: int | None = None,
    ) -> None:
        n = check_num_envs(num_envs)
        check_choice("difficulty", difficulty, DIFFICULTIES)
        self.threads = check_threads(threads)
        if render_mode is not None:
            raise ValueError("the vector env does not render; render a single SnakeEnv")
        template = SnakeEnv(
            difficulty=difficulty,
            max_decisions=max_decisions,
            max_steps_without_food=max_steps_without_food,
        )
        spec = DIFFICULTIES[difficulty]
        cells = spec.rows * spec.cols
        self.difficulty = difficulty
        self.max_decisions = check_int("max_decisions", max_decisions)
        self._grid = np.zeros((n, cells), np.uint8)
        self._body = np.zeros((n, cells), np.int16)  # flat cells: at most 16 * 16
        self._st = np.tile(template.game.st, (n, 1))
        self._rng = np.zeros((n, 1), np.uint64)
        self._board = np.zeros((n, spec.rows, spec.cols, N_PLANES), np.float32)
        self._drawn = self._new_record()
        self._buffers = RecycledBuffers(self._new_buffer)
        self._length = np.zeros((n, 1), np.float32)
        self._score = np.zeros(n, np.int64)  # `info["score"]`, one contiguous copy a step
        masks = np.ones((n, N_DIRECTIONS), np.int8)
        self._setup(
            n,
            N_DIRECTIONS,
            masks,
            template.observation_space,
            observation=observation,
            illegal_action=illegal_action,
            illegal_reward=illegal_reward,
            seed_dtype=np.uint64,
            masked_actions_legal=True,
            seed_block=SEED_BLOCK,
        )

    def _draws(self, rng: np.random.Generator, k: int) -> np.ndarray:
        draws: np.ndarray = rng.bit_generator.random_raw(k)
        return draws

    def _new_record(self) -> np.ndarray:
        """Per game, the cells its planes in a buffer are drawn at (`_draw`): count, then cells."""
        return np.zeros((self._grid.shape[0], self._grid.shape[1] + 2), np.int16)

    def _new_buffer(self) -> tuple[np.ndarray, np.ndarray]:
        return np.empty_like(self._board), self._new_record()

    def _target(self, whole: bool) -> tuple[np.ndarray, np.ndarray, bool]:
        """The board buffer this call draws into, its record and whether it is new (`copy=False`:
        the live buffer; `copy=True`: one the caller let go of, or when only some games are
        drawn, a copy of the current one)."""
        if not self.copy:
            return self._board, self._drawn, False
        if not whole:
            board, drawn = self._board.copy(), self._drawn.copy()
            self._buffers.adopt(board, drawn)
            return board, drawn, False
        board, drawn, fresh = self._buffers.take(self._board)
        return board, drawn, fresh

    def _kernel_reset(self, games: np.ndarray) -> None:
        board, drawn, fresh = self._target(whole=games.shape[0] == self.num_envs)
        reset_games(
            self._grid, self._body, self._st, self._rng, self._seeds, self._seed_pos, games,
            board.reshape(self.num_envs, -1), drawn, fresh, self._length, self._score,
            self._masks,
        )  # fmt: skip
        self._board, self._drawn = board, drawn

    def _kernel_step(self, actions: np.ndarray) -> None:
        board, drawn, fresh = self._target(whole=True)
        rows = board.reshape(self.num_envs, -1)
        grid, body, st, rng, seeds, seed_pos = (
            self._grid, self._body, self._st, self._rng, self._seeds, self._seed_pos,
        )  # fmt: skip
        needs_reset, length, score = self._needs_reset, self._length, self._score
        masks = self._masks
        rew, term, trunc = self.rewards, self.terminations, self.truncations

        def kernel(lo: int, hi: int) -> None:
            step_games(
                lo, hi, grid, body, st, rng, seeds, seed_pos, actions, needs_reset, rows, drawn,
                fresh, length, score, masks, rew, term, trunc,
            )  # fmt: skip

        run_sliced(kernel, self.num_envs, self.threads, min_games=self.slice_games)
        self._board, self._drawn = board, drawn

    def _observations(self) -> dict[str, np.ndarray]:
        return {"board": self._board, "length": self._out(self._length)}  # `_target`

    def _decisions_left(self) -> np.ndarray | None:
        if not self.max_decisions:
            return None
        left: np.ndarray = self.max_decisions - self._st[:, E.S_DECISIONS]
        return left

    def _infos(self) -> dict[str, Any]:
        infos = super()._infos()
        infos["score"] = self._score.copy()
        return infos

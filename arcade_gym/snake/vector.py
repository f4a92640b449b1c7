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


@njit(cache=True)
def _reset_one(
    grid: np.ndarray,
    body: np.ndarray,
    st: np.ndarray,
    rng: np.ndarray,
    seeds: np.ndarray,
    seed_pos: np.ndarray,
    i: int,
    board: np.ndarray,
    length: np.ndarray,
    mask: np.ndarray,
) -> None:
    E.reset(grid[i], body[i], st[i], rng[i], seeds[i, seed_pos[i]])
    seed_pos[i] += 1
    E.observe(grid[i], body[i], st[i], board[i], length[i], mask[i])


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
    length: np.ndarray,
    mask: np.ndarray,
) -> None:
    """New games in the listed slots, each from its next pre-drawn seed."""
    for j in range(games.shape[0]):
        _reset_one(grid, body, st, rng, seeds, seed_pos, games[j], board, length, mask)


@njit(cache=True)
def step_games(
    grid: np.ndarray,
    body: np.ndarray,
    st: np.ndarray,
    rng: np.ndarray,
    seeds: np.ndarray,
    seed_pos: np.ndarray,
    actions: np.ndarray,
    needs_reset: np.ndarray,
    board: np.ndarray,
    length: np.ndarray,
    mask: np.ndarray,
    rew: np.ndarray,
    term: np.ndarray,
    trunc: np.ndarray,
    redraw: bool,
) -> None:
    """Reset the games that ended on the last step; move the others (action -1: leave it, and
    draw its planes again when `redraw`: `board` is a new array to fill for every game)."""
    for i in range(actions.shape[0]):
        rew[i] = 0.0
        term[i] = False
        trunc[i] = False
        if needs_reset[i]:
            _reset_one(grid, body, st, rng, seeds, seed_pos, i, board, length, mask)
            needs_reset[i] = False
            continue
        if actions[i] < 0:
            if redraw:
                E.observe(grid[i], body[i], st[i], board[i], length[i], mask[i])
            continue
        rew[i] = E.step_observe(
            grid[i], body[i], st[i], rng[i], actions[i], board[i], length[i], mask[i]
        )
        end = st[i, E.S_END]
        if end != END_NONE:
            terminal = end <= END_WON  # wall, body and won come first in the END_* order
            term[i] = terminal
            trunc[i] = not terminal
            needs_reset[i] = True


class SnakeVectorEnv(ArcadeVectorEnv):
    """N Snake games (`SnakeEnv`'s spaces, rewards and ends), stepped in one kernel call.

    Observation: Dict(board=(N, rows, cols, 5) float32, length=(N, 1) float32), or (N, D)
    float32 with `observation="flat"`. Actions: (N,) ints; the reversal is masked but legal, as
    in the single env. Info: `action_mask` (N, 4), `score` (N,) food eaten this episode.
    """

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
    ) -> None:
        n = check_num_envs(num_envs)
        check_choice("difficulty", difficulty, DIFFICULTIES)
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
        self._length = np.zeros((n, 1), np.float32)
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
        )
        self._needs_reset_games = np.zeros(0, np.int64)

    def _draws(self, rng: np.random.Generator, k: int) -> np.ndarray:
        draws: np.ndarray = rng.bit_generator.random_raw(k)
        return draws

    def _kernel_reset(self, games: np.ndarray) -> None:
        self._board = self._step_buffer(self._board, whole=games.shape[0] == self.num_envs)
        reset_games(
            self._grid, self._body, self._st, self._rng, self._seeds, self._seed_pos,
            games, self._board, self._length, self._masks,
        )  # fmt: skip

    def _kernel_step(self, actions: np.ndarray) -> None:
        board = self._step_buffer(self._board, whole=True)
        step_games(
            self._grid, self._body, self._st, self._rng, self._seeds, self._seed_pos, actions,
            self._needs_reset, board, self._length, self._masks, self.rewards,
            self.terminations, self.truncations, board is not self._board,
        )  # fmt: skip
        self._board = board

    def _observations(self) -> dict[str, np.ndarray]:
        return {"board": self._board, "length": self._out(self._length)}  # _step_buffer

    def _decisions_left(self) -> np.ndarray | None:
        if not self.max_decisions:
            return None
        left: np.ndarray = self.max_decisions - self._st[:, E.S_DECISIONS]
        return left

    def _infos(self) -> dict[str, Any]:
        infos = super()._infos()
        infos["score"] = self._st[:, E.S_SCORE].copy()
        return infos

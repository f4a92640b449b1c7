"""`Minesweeper-v0` as a native vector env: N boards stepped by one numba call.

`gym.make_vec("arcade_gym/Minesweeper-v0", num_envs=N, vectorization_mode="vector_entry_point")`.
Given the same seeds, game i plays exactly what `MinesweeperEnv` plays after
`reset(seed=seed + i)`, autoreset included (`arcade_gym/core/vector.py`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from arcade_gym.core.args import check_choice, check_int
from arcade_gym.core.vector import ArcadeVectorEnv, check_num_envs
from arcade_gym.minesweeper import engine as E
from arcade_gym.minesweeper.env import MinesweeperEnv
from arcade_gym.minesweeper.rules import CAPPED, DIFFICULTIES, MAX_DECISIONS, PLAYING


@njit(cache=True)
def _reset_one(
    field: np.ndarray,
    view: np.ndarray,
    st: np.ndarray,
    stack: np.ndarray,
    mask: np.ndarray,
    seeds: np.ndarray,
    seed_pos: np.ndarray,
    i: int,
) -> None:
    E.new_board(seeds[i, seed_pos[i]], field[i], view[i], st[i], stack[i], mask[i])
    seed_pos[i] += 1


@njit(cache=True)
def reset_games(
    field: np.ndarray,
    view: np.ndarray,
    st: np.ndarray,
    stack: np.ndarray,
    mask: np.ndarray,
    seeds: np.ndarray,
    seed_pos: np.ndarray,
    games: np.ndarray,
) -> None:
    """New boards in the listed slots, each from its next pre-drawn seed."""
    for j in range(games.shape[0]):
        _reset_one(field, view, st, stack, mask, seeds, seed_pos, games[j])


@njit(cache=True)
def step_games(
    field: np.ndarray,
    view: np.ndarray,
    st: np.ndarray,
    stack: np.ndarray,
    mask: np.ndarray,
    seeds: np.ndarray,
    seed_pos: np.ndarray,
    actions: np.ndarray,
    needs_reset: np.ndarray,
    rew: np.ndarray,
    term: np.ndarray,
    trunc: np.ndarray,
) -> None:
    """Reset the boards that ended on the last step; play the others (action -1: leave it)."""
    for i in range(actions.shape[0]):
        rew[i] = 0.0
        term[i] = False
        trunc[i] = False
        if needs_reset[i]:
            _reset_one(field, view, st, stack, mask, seeds, seed_pos, i)
            needs_reset[i] = False
            continue
        if actions[i] < 0:
            continue
        rew[i] = E.step(field[i], view[i], st[i], stack[i], mask[i], actions[i])
        status = st[i, E.S_STATUS]
        term[i] = status != PLAYING and status != CAPPED  # a mine, or solved
        trunc[i] = status == CAPPED
        needs_reset[i] = term[i] or trunc[i]


class MinesweeperVectorEnv(ArcadeVectorEnv):
    """N games of `MinesweeperEnv` (spaces, rewards, ends, seeds) in one kernel call.

    Observation: (N, rows, cols) int8 visible boards, or (N, D) float32 with
    `observation="flat"`. Actions: (N,) ints, reveal `i` or flag `rows*cols + i`. Info:
    `action_mask` (N, 2*rows*cols), `score` (N,) safe cells revealed.
    """

    def __init__(
        self,
        num_envs: int = 1,
        *,
        difficulty: str = "easy",
        max_decisions: int = MAX_DECISIONS,
        observation: str = "dict",
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        n = check_num_envs(num_envs)
        check_choice("difficulty", difficulty, DIFFICULTIES)
        self.max_decisions = check_int("max_decisions", max_decisions, low=1)
        if render_mode is not None:
            raise ValueError("the vector env does not render; render a single MinesweeperEnv")
        template = MinesweeperEnv(difficulty=difficulty, max_decisions=max_decisions)
        game = template.game
        self.difficulty = difficulty
        self.rows, self.cols = game.rows, game.cols
        self._field = np.tile(game.field, (n, 1))
        self._view = np.tile(game.view, (n, 1))
        self._st = np.tile(game.st, (n, 1))
        self._stack = np.zeros((n, game.stack.shape[0]), game.stack.dtype)
        self._setup(
            n,
            game.mask.shape[0],
            np.tile(game.mask, (n, 1)),
            template.observation_space,
            observation=observation,
            illegal_action=illegal_action,
            illegal_reward=illegal_reward,
            seed_dtype=np.uint64,
        )

    def _draws(self, rng: np.random.Generator, k: int) -> np.ndarray:
        draws: np.ndarray = rng.bit_generator.random_raw(k)
        return draws

    def _kernel_reset(self, games: np.ndarray) -> None:
        reset_games(
            self._field, self._view, self._st, self._stack, self._masks, self._seeds,
            self._seed_pos, games,
        )  # fmt: skip

    def _kernel_step(self, actions: np.ndarray) -> None:
        step_games(
            self._field, self._view, self._st, self._stack, self._masks, self._seeds,
            self._seed_pos, actions, self._needs_reset, self.rewards, self.terminations,
            self.truncations,
        )  # fmt: skip

    def _observations(self) -> np.ndarray:
        return self._out(self._view.reshape(self.num_envs, self.rows, self.cols))

    def _decisions_left(self) -> np.ndarray:
        left: np.ndarray = self.max_decisions - self._st[:, E.S_DECISIONS]
        return left

    def _infos(self) -> dict[str, np.ndarray]:
        infos = super()._infos()
        infos["score"] = self._st[:, E.S_REVEALED].copy()
        return infos

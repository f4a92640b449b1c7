"""`Sudoku-v0` as a native vector env: N grids stepped by one numba call.

`gym.make_vec("arcade_gym/Sudoku-v0", num_envs=N, vectorization_mode="vector_entry_point")`.
Given the same seeds, game i plays exactly what `SudokuEnv` plays after `reset(seed=seed + i)`,
autoreset included (`arcade_gym/core/vector.py`): a fresh minimal puzzle from each episode seed
(`set=None`), or the set grid the seed picks (`set="v1"`, optionally one `tier`). Generated grids
of a wanted tier need the grader, which runs in Python: use the single env for those.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from arcade_gym.core.vector import ArcadeVectorEnv, check_num_envs
from arcade_gym.sudoku import engine as E
from arcade_gym.sudoku.env import SudokuEnv
from arcade_gym.sudoku.game import N_ACTIONS
from arcade_gym.sudoku.rules import CELLS
from arcade_gym.sudoku.sets import set_grids

CORRECT, WRONG = 0, 1


@njit(cache=True)
def _new_grid(
    i: int,
    seed: np.uint64,
    pool_puzzles: np.ndarray,
    pool_solutions: np.ndarray,
    board: np.ndarray,
    cand: np.ndarray,
    mask: np.ndarray,
    solution: np.ndarray,
    counts: np.ndarray,
) -> None:
    """Start game i: the set grid `seed` picks, or (empty pool) a puzzle generated from it."""
    # Grids copied in loops: a row assignment compiles numba's shape-error message.
    if pool_puzzles.shape[0] > 0:
        k = int(seed % np.uint64(pool_puzzles.shape[0]))
        for c in range(board.shape[1]):
            board[i, c] = pool_puzzles[k, c]
            solution[i, c] = pool_solutions[k, c]
    else:
        puzzle = E.new_puzzle(seed, solution[i])
        for c in range(board.shape[1]):
            board[i, c] = puzzle[c]
    E.fill_mask(board[i], cand[i], mask[i])
    counts[i, CORRECT] = 0
    counts[i, WRONG] = 0


@njit(cache=True)
def reset_games(
    pool_puzzles: np.ndarray,
    pool_solutions: np.ndarray,
    board: np.ndarray,
    cand: np.ndarray,
    mask: np.ndarray,
    solution: np.ndarray,
    counts: np.ndarray,
    seeds: np.ndarray,
    seed_pos: np.ndarray,
    games: np.ndarray,
) -> None:
    """New grids in the listed slots, each from its next pre-drawn seed."""
    for j in range(games.shape[0]):
        i = games[j]
        _new_grid(
            i, seeds[i, seed_pos[i]], pool_puzzles, pool_solutions, board, cand, mask, solution,
            counts,
        )  # fmt: skip
        seed_pos[i] += 1


@njit(cache=True)
def step_games(
    pool_puzzles: np.ndarray,
    pool_solutions: np.ndarray,
    board: np.ndarray,
    cand: np.ndarray,
    mask: np.ndarray,
    solution: np.ndarray,
    counts: np.ndarray,
    seeds: np.ndarray,
    seed_pos: np.ndarray,
    actions: np.ndarray,
    needs_reset: np.ndarray,
    rew: np.ndarray,
    term: np.ndarray,
    trunc: np.ndarray,
) -> None:
    """Reset the grids that ended on the last step; play the others (action -1: leave it)."""
    for i in range(actions.shape[0]):
        rew[i] = 0.0
        term[i] = False
        trunc[i] = False
        if needs_reset[i]:
            _new_grid(
                i, seeds[i, seed_pos[i]], pool_puzzles, pool_solutions, board, cand, mask,
                solution, counts,
            )  # fmt: skip
            seed_pos[i] += 1
            needs_reset[i] = False
            continue
        if actions[i] < 0:
            continue
        reward, legal = E.step(board[i], cand[i], mask[i], solution[i], actions[i])
        rew[i] = reward
        counts[i, CORRECT if reward > 0 else WRONG] += 1
        term[i] = legal == 0
        needs_reset[i] = term[i]


class SudokuVectorEnv(ArcadeVectorEnv):
    """N games of `SudokuEnv` (spaces, rewards, ends, seeds) in one kernel call.

    Observation: Dict(board=(N, 9, 9) int8, candidates=(N, 9, 9, 9) int8), or (N, D) float32 with
    `observation="flat"`. Actions: (N,) ints, `(row * 9 + col) * 9 + digit - 1`. Info:
    `action_mask` (N, 729), `correct` and `wrong` (N,) placements so far.
    """

    def __init__(
        self,
        num_envs: int = 1,
        *,
        set: str | None = None,
        tier: int | None = None,
        observation: str = "dict",
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        n = check_num_envs(num_envs)
        if render_mode is not None:
            raise ValueError("the vector env does not render; render a single SudokuEnv")
        template = SudokuEnv(set=set, tier=tier)
        if set is None and tier is not None:
            raise ValueError(
                "generated grids of a given tier need the grader (Python): use the single env, "
                "or set='v1' for the set's grids of that tier"
            )
        self.grid_set, self.tier = template.grid_set, template.tier
        pool = [] if set is None else set_grids(set, tier)
        self._pool_puzzles = _digits([g["puzzle"] for g in pool])
        self._pool_solutions = _digits([g["solution"] for g in pool])
        self._board = np.zeros((n, CELLS), np.int8)
        self._cand = np.zeros((n, CELLS), np.int32)
        self._solution = np.zeros((n, CELLS), np.int8)
        self._counts = np.zeros((n, 2), np.int64)
        self._setup(
            n,
            N_ACTIONS,
            np.zeros((n, N_ACTIONS), np.int8),
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
            self._pool_puzzles, self._pool_solutions, self._board, self._cand, self._masks,
            self._solution, self._counts, self._seeds, self._seed_pos, games,
        )  # fmt: skip

    def _kernel_step(self, actions: np.ndarray) -> None:
        step_games(
            self._pool_puzzles, self._pool_solutions, self._board, self._cand, self._masks,
            self._solution, self._counts, self._seeds, self._seed_pos, actions,
            self._needs_reset, self.rewards, self.terminations, self.truncations,
        )  # fmt: skip

    def _observations(self) -> dict[str, np.ndarray]:
        n = self.num_envs
        return {
            "board": self._out(self._board.reshape(n, 9, 9)),
            "candidates": self._out(self._masks.reshape(n, 9, 9, 9)),
        }

    def _infos(self) -> dict[str, np.ndarray]:
        infos = super()._infos()
        infos["correct"] = self._counts[:, CORRECT].copy()
        infos["wrong"] = self._counts[:, WRONG].copy()
        return infos


def _digits(grids: list[str]) -> np.ndarray:
    """(k, 81) int8 from 81-character grid strings."""
    if not grids:
        return np.zeros((0, CELLS), np.int8)
    raw = np.frombuffer("".join(grids).encode(), np.uint8).reshape(len(grids), CELLS)
    return (raw - 48).astype(np.int8)


def warmup() -> None:
    """Compile the batched kernels (both grid sources)."""
    for grid_set in (None, "v1"):
        env = SudokuVectorEnv(2, set=grid_set)
        env.reset(seed=0)
        env.step(np.array([int(np.flatnonzero(m)[0]) for m in env._masks]))

"""`arcade-eval bench` counts what its figures say (issue 23, item 4): scripted runs with fixed
action sequences, their steps, plies, dead steps and resets counted by hand."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from arcade_gym.core.counting import AecCounter, EnvCounter, StepUnit, Tally, VectorCounter
from arcade_gym.core.throughput import single_runner
from arcade_gym.minesweeper.bench import STEP_UNITS as MINESWEEPER_UNITS
from arcade_gym.multiagent import tictactoe_v0
from arcade_gym.tictactoe.bench import STEP_UNITS as TICTACTOE_UNITS

RIGHT = 1


def first_empty(obs: np.ndarray, mask: np.ndarray) -> int:
    """A sparring partner that always takes the lowest empty cell (so a game is hand-countable)."""
    return int(np.flatnonzero(mask)[0])


def test_tictactoe_v0_counts_agent_moves_as_steps_and_both_sides_as_plies() -> None:
    env = gym.make("arcade_gym/TicTacToe-v0", opponent=first_empty)
    counter = EnvCounter(env, TICTACTOE_UNITS["TicTacToe-v0"], seed=0)
    # Game 1: X4 O0, X8 O1, X2 O3, X6 (X wins 2-4-6): 4 agent moves, 7 plies, then a reset.
    # Game 2: X0 O1, X3 O2, X6 (X wins 0-3-6): 3 moves, 5 plies, a reset.
    # Game 3: X8 O0: 1 move, 2 plies, still playing.
    for cell in (4, 8, 2, 6, 0, 3, 6, 8):
        counter.step(cell)
    assert counter.tally == Tally(steps=8, resets=2, dead=0, plies=14)


def test_a_vector_env_does_not_count_a_slot_s_autoreset_step() -> None:
    # Easy Snake starts with its head at column 4 of 8, heading right: the 4th move right
    # leaves the board. NEXT_STEP: moves 1-4 count, the 5th call only restarts the game.
    # 12 calls per game: 4 counted, 1 dead, 4 counted, 1 dead, 2 counted.
    envs = gym.make_vec("arcade_gym/Snake-v0", num_envs=3, vectorization_mode="vector_entry_point")
    counter = VectorCounter(envs, seed=0)
    for _ in range(12):
        counter.step(np.full(3, RIGHT))
    assert counter.tally == Tally(steps=3 * 10, resets=3 * 2, dead=3 * 2, plies=0)


def test_same_step_autoreset_counts_every_call_and_each_ending_as_a_reset() -> None:
    envs = gym.make_vec(
        "arcade_gym/Snake-v0",
        num_envs=2,
        vectorization_mode="vector_entry_point",
        autoreset_mode=AutoresetMode.SAME_STEP,
    )
    counter = VectorCounter(envs, seed=0)
    for _ in range(12):  # a game ends on calls 4, 8 and 12, restarted within the same call
        counter.step(np.full(2, RIGHT))
    assert counter.tally == Tally(steps=2 * 12, resets=2 * 3, dead=0, plies=0)


def test_the_vector_tictactoe_env_counts_plies_from_its_boards() -> None:
    envs = gym.make_vec(
        "arcade_gym/TicTacToe-v0", num_envs=4, vectorization_mode="vector_entry_point"
    )
    counter = VectorCounter(envs, TICTACTOE_UNITS["TicTacToe-v0"], seed=3)
    envs.action_space.seed(0)
    expected = Tally()
    for _ in range(40):
        masks = counter.infos["action_mask"]
        before = np.asarray(counter.obs).reshape(4, -1).sum(axis=1)
        resetting = counter.resetting.copy()
        counter.step(envs.action_space.sample(mask=masks))
        after = np.asarray(counter.obs).reshape(4, -1).sum(axis=1)
        # by hand: a game that was restarting moved nothing; any other made one agent move and
        # put one or two stones on its board (the partner does not reply to a winning move)
        moved = ~resetting
        assert set((after - before)[moved].tolist()) <= {1, 2}
        expected.steps += int(moved.sum())
        expected.dead += int(resetting.sum())
        expected.resets += int(resetting.sum())
        expected.plies += int((after - before)[moved].sum())
    assert counter.tally == expected
    assert expected.resets > 0 and expected.plies > expected.steps


def test_the_aec_count_is_plies_without_the_finished_agents_dead_steps() -> None:
    counter = AecCounter(tictactoe_v0.env(size=3), seed=0)
    # X0 O3 X1 O4 X2: X wins the top row in 5 plies; then each of the two finished agents
    # takes its dead step(None) and the game restarts; then X4: one more ply.
    for cell in (0, 3, 1, 4, 2):
        assert counter.mask() is not None
        counter.step(cell)
    while counter.mask() is None:
        counter.step(None)
    counter.step(4)
    assert counter.tally == Tally(steps=6, resets=1, dead=2, plies=6)


class _Recorder(gym.Wrapper[Any, Any, Any, Any]):
    """Keeps every action stepped."""

    def __init__(self, env: gym.Env[Any, Any]) -> None:
        super().__init__(env)
        self.actions: list[int] = []

    def step(self, action: Any) -> Any:
        self.actions.append(int(action))
        return self.env.step(action)


@pytest.mark.parametrize("difficulty", ["easy", "hard"])
def test_the_minesweeper_figure_counts_reveals_only(difficulty: str) -> None:
    env = _Recorder(gym.make("arcade_gym/Minesweeper-v0", difficulty=difficulty))
    counter = EnvCounter(env, MINESWEEPER_UNITS["Minesweeper-v0"], seed=0)
    run = single_runner(counter, seed=0)
    run(0.0)  # one batch of 256 random steps
    cells = len(counter.info["action_mask"]) // 2
    assert counter.tally.steps == len(env.actions) >= 256
    assert max(env.actions) < cells  # never a flag toggle
    assert counter.tally.resets > 0  # random reveals hit mines: games restart, uncounted


class _Counting:
    """A vector env whose ply counter lives in its own state (a view the step changes)."""

    num_envs = 2

    def __init__(self) -> None:
        self.metadata: dict[str, Any] = {}
        self.plies = np.zeros(2, np.int64)

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        return self.plies, {}

    def step(self, actions: np.ndarray) -> tuple[Any, ...]:
        self.plies += 2  # the agent's move and the reply
        no = np.zeros(2, np.bool_)
        return self.plies, np.zeros(2), no, no, {}


def test_plies_read_from_the_env_s_own_state_are_counted() -> None:
    unit = StepUnit("x", vector_plies=lambda envs, obs: envs.plies[:])  # a view, no copy
    counter = VectorCounter(_Counting(), unit)
    for _ in range(3):
        counter.step(np.zeros(2, np.int64))
    assert counter.tally == Tally(steps=6, resets=0, dead=0, plies=12)

"""The Snake-v0 vector env plays the same games on one thread or several (`threads`): more than
`SLICE_GAMES` games are stepped in slices on a thread pool (`arcade_gym/core/batch_threads.py`),
and what each game plays, the boards handed out included, does not depend on it."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest

import arcade_gym  # noqa: F401  (registers the envs)
from arcade_gym.core.batch_threads import available_cores
from arcade_gym.snake.vector import SLICE_GAMES

N = 2 * SLICE_GAMES + 37  # three slices of unequal size


def _make(n: int, threads: Any, **kw: Any) -> Any:
    return gym.make_vec(
        "arcade_gym/Snake-v0",
        num_envs=n,
        vectorization_mode="vector_entry_point",
        threads=threads,
        **kw,
    )


def _trajectory(threads: int, steps: int, **kw: Any) -> list[Any]:
    envs = _make(N, threads, **kw)
    obs, info = envs.reset(seed=7)
    rng = np.random.default_rng(2)
    seen: list[Any] = [obs["board"].copy(), info["action_mask"]]
    for _ in range(steps):
        obs, reward, terminated, truncated, info = envs.step(rng.integers(0, 4, N))
        seen += [obs["board"].copy(), obs["length"], reward, terminated, truncated]
        seen += [info["action_mask"], info["score"]]
    return seen


@pytest.mark.parametrize("kw", [{}, {"difficulty": "hard", "copy": False}])
def test_threads_do_not_change_what_the_games_play(kw: dict[str, Any]) -> None:
    one = _trajectory(1, 25, **kw)
    for threads in (2, 3):
        many = _trajectory(threads, 25, **kw)
        assert len(one) == len(many)
        for a, b in zip(one, many, strict=True):
            np.testing.assert_array_equal(a, b)


def test_a_threaded_batch_plays_what_single_envs_play() -> None:
    envs = _make(N, 2)
    watched = [0, SLICE_GAMES - 1, SLICE_GAMES, N - 1]  # both sides of each slice boundary
    singles = {i: gym.make("arcade_gym/Snake-v0").unwrapped for i in watched}
    obs, _ = envs.reset(seed=21)
    expected = {i: env.reset(seed=21 + i)[0] for i, env in singles.items()}
    ended = dict.fromkeys(watched, False)
    rng = np.random.default_rng(5)
    for step in range(60):
        for i, single_obs in expected.items():
            np.testing.assert_array_equal(obs["board"][i], single_obs["board"], f"{step}, {i}")
        actions = rng.integers(0, 4, N)
        obs, rewards, terms, truncs, _ = envs.step(actions)
        for i, env in singles.items():
            if ended[i]:  # NEXT_STEP autoreset: this step started the next game
                expected[i] = env.reset()[0]
                ended[i] = False
                continue
            single_obs, reward, term, trunc, _ = env.step(int(actions[i]))
            assert (rewards[i], terms[i], truncs[i]) == (reward, term, trunc), (step, i)
            expected[i] = single_obs
            ended[i] = term or trunc


@pytest.mark.parametrize("bad", [0, -1, 2.0, "2", True])
def test_bad_thread_counts_are_refused(bad: object) -> None:
    with pytest.raises((TypeError, ValueError), match="threads"):
        _make(2, bad)


def test_the_default_is_one_thread_per_core() -> None:
    envs = gym.make_vec("arcade_gym/Snake-v0", num_envs=2, vectorization_mode="vector_entry_point")
    assert envs.unwrapped.threads == available_cores()

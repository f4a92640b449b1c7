"""The TicTacToe-v0 vector env plays the same games on one thread or several (`threads`), and a
threaded batch plays what single envs play, game for game (slices of games on a thread pool:
`arcade_gym/core/batch_threads.py`)."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest

import arcade_gym  # noqa: F401  (registers the envs)
from arcade_gym.tictactoe.vector import SLICE_GAMES

N = 2 * SLICE_GAMES + 37  # three slices of unequal size on two or three threads


def _make(n: int, threads: int, **kw: Any) -> Any:
    return gym.make_vec(
        "arcade_gym/TicTacToe-v0",
        num_envs=n,
        vectorization_mode="vector_entry_point",
        threads=threads,
        **kw,
    )


def _trajectory(threads: int, steps: int, **kw: Any) -> list[np.ndarray]:
    envs = _make(N, threads, **kw)
    obs, info = envs.reset(seed=5)
    envs.action_space.seed(3)
    rng = np.random.default_rng(1)
    seen = [obs, info["action_mask"]]
    for _ in range(steps):
        actions = envs.action_space.sample()
        if rng.random() < 0.5:  # also a draw of our own
            legal = [np.flatnonzero(m) for m in info["action_mask"]]
            actions = np.array([rng.choice(x) if x.size else 0 for x in legal])
        obs, reward, terminated, truncated, info = envs.step(actions)
        seen += [obs, reward, terminated, truncated, info["action_mask"]]
    return seen


@pytest.mark.parametrize(
    "kw",
    [
        {},
        {"size": 5, "opponent": "greedy", "agent_mark": "alternate"},
        {"size": 10, "agent_mark": "O"},
    ],
)
def test_threads_do_not_change_what_the_games_play(kw: dict[str, Any]) -> None:
    steps = 30 if kw.get("size", 3) == 3 else 12
    one = _trajectory(1, steps, **kw)
    for threads in (2, 3):
        many = _trajectory(threads, steps, **kw)
        assert len(one) == len(many)
        for a, b in zip(one, many, strict=True):
            np.testing.assert_array_equal(a, b)


def test_a_threaded_batch_plays_what_single_envs_play() -> None:
    envs = _make(N, 2)
    watched = [0, SLICE_GAMES - 1, SLICE_GAMES, N - 1]  # both sides of each slice boundary
    singles = {i: gym.make("arcade_gym/TicTacToe-v0").unwrapped for i in watched}
    obs, info = envs.reset(seed=21)
    expected = {i: env.reset(seed=21 + i) for i, env in singles.items()}
    ended = dict.fromkeys(watched, False)
    for step in range(40):
        for i, (single_obs, single_info) in expected.items():
            np.testing.assert_array_equal(obs[i], single_obs, f"step {step}, game {i}")
            np.testing.assert_array_equal(info["action_mask"][i], single_info["action_mask"])
        actions = envs.action_space.sample()
        obs, rewards, terms, truncs, info = envs.step(actions)
        for i, env in singles.items():
            if ended[i]:  # NEXT_STEP autoreset: this step started the next game
                expected[i] = env.reset()
                ended[i] = False
                continue
            single_obs, reward, term, trunc, single_info = env.step(int(actions[i]))
            assert (rewards[i], terms[i], truncs[i]) == (reward, term, trunc), (step, i)
            expected[i] = (single_obs, single_info)
            ended[i] = term or trunc


@pytest.mark.parametrize("bad", [0, -1, 2.0, "2", True])
def test_bad_thread_counts_are_refused(bad: object) -> None:
    with pytest.raises((TypeError, ValueError), match="threads"):
        _make(2, bad)  # type: ignore[arg-type]


def test_the_default_is_the_calling_thread_and_none_is_one_per_core() -> None:
    default = gym.make_vec(
        "arcade_gym/TicTacToe-v0", num_envs=2, vectorization_mode="vector_entry_point"
    )
    assert default.unwrapped.threads == 1
    assert _make(2, None).unwrapped.threads >= 1  # type: ignore[arg-type]

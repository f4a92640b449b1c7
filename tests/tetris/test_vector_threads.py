"""The Tetris-v3 vector env plays the same games on one thread or several (`threads`), and
`arcade_gym/core/batch_threads.py` covers every game exactly once."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import arcade_gym  # noqa: F401  (registers the envs)
from arcade_gym.core.batch_threads import MIN_GAMES_PER_THREAD, check_threads, run_sliced


def _trajectory(threads: int, n: int, steps: int) -> list[np.ndarray]:
    envs = gym.make_vec(
        "arcade_gym/Tetris-v3", num_envs=n, vectorization_mode="vector_entry_point", threads=threads
    )
    obs, info = envs.reset(seed=5)
    rng = np.random.default_rng(1)
    seen = [obs["placements"], info["action_mask"]]
    for _ in range(steps):
        masks = info["action_mask"]
        # A game that just ended has no legal action: the next step resets it, ignoring it.
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        obs, reward, terminated, truncated, info = envs.step(actions)
        seen += [obs["board"], obs["placements"], reward, terminated, truncated, info["score"]]
    return seen


def test_threads_do_not_change_what_the_games_play() -> None:
    n = 3 * MIN_GAMES_PER_THREAD + 5  # slices of unequal size on two and three threads
    one = _trajectory(1, n, 40)
    for threads in (2, 3):
        many = _trajectory(threads, n, 40)
        assert all(np.array_equal(a, b) for a, b in zip(one, many, strict=True))


def test_run_sliced_covers_every_game_once() -> None:
    for n in (1, MIN_GAMES_PER_THREAD, 2 * MIN_GAMES_PER_THREAD + 1, 1000):
        for threads in (1, 2, 5):
            counts = np.zeros(n, np.int64)

            def kernel(lo: int, hi: int, counts: np.ndarray = counts) -> None:
                counts[lo:hi] += 1

            run_sliced(kernel, n, threads)
            assert counts.tolist() == [1] * n


def test_a_failing_slice_is_raised_after_every_slice_finished() -> None:
    done: list[int] = []

    def kernel(lo: int, hi: int) -> None:
        done.append(lo)
        if lo == 0:
            raise RuntimeError("slice failed")

    with pytest.raises(RuntimeError, match="slice failed"):
        run_sliced(kernel, 4 * MIN_GAMES_PER_THREAD, 4)
    assert len(done) == 4


@pytest.mark.parametrize("bad", [0, -1, 2.0, "2", True])
def test_bad_thread_counts_are_refused(bad: object) -> None:
    with pytest.raises((TypeError, ValueError), match="threads"):
        check_threads(bad)
    with pytest.raises((TypeError, ValueError), match="threads"):
        gym.make_vec(
            "arcade_gym/Tetris-v3", num_envs=2, vectorization_mode="vector_entry_point", threads=bad
        )


def test_default_threads_is_one_per_available_core() -> None:
    assert check_threads(None) >= 1

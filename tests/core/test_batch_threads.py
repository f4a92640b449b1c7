"""`arcade_gym/core/batch_threads.py`: the slices cover every game exactly once on any thread
count, a failing slice is raised only after the others finished, and `threads` is checked."""

from __future__ import annotations

import numpy as np
import pytest

from arcade_gym.core.batch_threads import (
    MIN_GAMES_PER_THREAD,
    available_cores,
    check_threads,
    run_sliced,
)


def test_run_sliced_covers_every_game_once() -> None:
    for n in (1, MIN_GAMES_PER_THREAD, 2 * MIN_GAMES_PER_THREAD + 1, 1000):
        for threads in (1, 2, 5):
            for min_games in (MIN_GAMES_PER_THREAD, 256):
                counts = np.zeros(n, np.int64)

                def kernel(lo: int, hi: int, counts: np.ndarray = counts) -> None:
                    counts[lo:hi] += 1

                run_sliced(kernel, n, threads, min_games=min_games)
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


@pytest.mark.parametrize("bad", [0, -1, 2.0, "2", True, 1025])
def test_bad_thread_counts_are_refused(bad: object) -> None:
    with pytest.raises((TypeError, ValueError), match="threads"):
        check_threads(bad)


def test_none_is_one_thread_per_available_core() -> None:
    assert check_threads(None) == available_cores() >= 1
    assert check_threads(3) == 3

"""Executors play every item once, report each in the driver, and stop at the first error."""

from __future__ import annotations

import threading

import pytest

from evaluation.core.executor import ExecutorError, LocalExecutor, RayExecutor, make_executor


def square(x: int) -> int:
    return x * x


def fail_on_three(x: int) -> int:
    if x == 3:
        raise ValueError("three")
    return x


@pytest.mark.parametrize("concurrency", [1, 3])
def test_local_executor_plays_every_item_once(concurrency: int) -> None:
    seen: dict[int, int] = {}
    lock = threading.Lock()

    def done(item: int, result: int) -> None:
        with lock:
            assert item not in seen
            seen[item] = result

    LocalExecutor(concurrency).run(square, list(range(10)), done)
    assert seen == {x: x * x for x in range(10)}


@pytest.mark.parametrize("concurrency", [1, 2])
def test_local_executor_propagates_the_first_error(concurrency: int) -> None:
    with pytest.raises(ValueError, match="three"):
        LocalExecutor(concurrency).run(fail_on_three, [1, 2, 3, 4], lambda *_: None)


def test_bad_executor_choices_are_user_errors() -> None:
    with pytest.raises(ExecutorError, match="concurrency"):
        make_executor("local", concurrency=0)
    with pytest.raises(ExecutorError, match="--executor ray"):
        make_executor("local", address="10.0.0.1:6379")
    with pytest.raises(ExecutorError, match="one of"):
        make_executor("dask")


def test_ray_executor_runs_tasks_and_returns_their_errors_as_themselves() -> None:
    ray = pytest.importorskip("ray")
    try:
        executor = RayExecutor(num_cpus=2)
        seen: dict[int, int] = {}
        executor.run(square, [1, 2, 3], lambda item, result: seen.__setitem__(item, result))
        assert seen == {1: 1, 2: 4, 3: 9}
        with pytest.raises(ValueError, match="three"):
            executor.run(fail_on_three, [1, 3], lambda *_: None)
    finally:
        ray.shutdown()

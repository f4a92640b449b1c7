"""`arcade_gym/core/recycled.py`: a buffer comes back only once nobody but the pool holds it."""

from __future__ import annotations

import numpy as np

from arcade_gym.core.recycled import POOL_SIZE, RecycledBuffers


def _pool() -> tuple[RecycledBuffers, list[int]]:
    made: list[int] = []

    def make() -> tuple[np.ndarray, int]:
        made.append(len(made))
        return np.zeros(4), made[-1]

    return RecycledBuffers(make), made


def test_a_dropped_buffer_comes_back_with_its_companion() -> None:
    pool, made = _pool()
    first, tag, fresh = pool.take(None)
    assert fresh and tag == 0
    first_id = id(first)
    second, _, fresh = pool.take(first)  # `first` is still held here
    assert fresh and second is not first
    del first
    third, tag, fresh = pool.take(second)  # `second` is the current one: not reused
    assert not fresh and id(third) == first_id and tag == 0
    assert made == [0, 1]


def test_held_arrays_views_and_containers_are_never_reused() -> None:
    pool, made = _pool()
    latest = [pool.take(None)[0]]  # the array handed out last, as a caller would hold it
    keep = []
    for hold in (
        lambda a: a[1:],
        lambda a: {"board": a},
        lambda a: [a],
        lambda a: memoryview(a),
    ):
        keep.append(hold(latest.pop()))
        taken = pool.take(None)
        latest.append(taken[0])
        assert taken[2]  # fresh: every earlier array is still held one way or another
    assert len(made) == 5


def test_the_pool_keeps_a_few_buffers_and_lets_the_caller_own_the_rest() -> None:
    pool, made = _pool()
    held = [pool.take(None)[0] for _ in range(POOL_SIZE + 3)]
    assert len(made) == POOL_SIZE + 3
    assert len(pool._entries) == POOL_SIZE
    before = [a.copy() for a in held]
    for a in held:  # the caller writes into its arrays; the pool never hands them out again
        a += 1
    assert all(np.array_equal(a, b + 1) for a, b in zip(held, before, strict=True))

"""Run a batch kernel over slices of the games on several threads (numba `nogil` kernels).

Why threads from Python rather than numba's `prange`: the only parallel layer installed here is
GNU OpenMP, which kills a forked child that runs a parallel kernel after its parent did, and
numba's own work queue must not be entered from two threads at once. A `nogil` kernel called on
disjoint slices from a small thread pool has neither problem, and each game is still played by
exactly the same code, so the results do not depend on the thread count. The pool is made
lazily per process (a forked child builds its own).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from arcade_gym.core.args import check_int

MIN_GAMES_PER_THREAD = 64
"""Smaller slices are not worth a thread hand-off (a few microseconds each)."""

_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None
_pool_owner = (0, 0)  # (pid, workers) the pool was made for


def available_cores() -> int:
    """Cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def check_threads(threads: object) -> int:
    """The `threads` option of a vector env: None for one per available core, else an int >= 1."""
    if threads is None:
        return available_cores()
    return check_int("threads", threads, low=1, high=1024)


def _executor(workers: int) -> ThreadPoolExecutor:
    global _pool, _pool_owner
    with _lock:
        if _pool is None or _pool_owner[0] != os.getpid() or _pool_owner[1] < workers:
            _pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="arcade-batch")
            _pool_owner = (os.getpid(), workers)
        return _pool


def run_sliced(kernel: Callable[[int, int], None], n: int, threads: int) -> None:
    """`kernel(lo, hi)` over disjoint slices covering games 0..n-1: up to `threads` slices of at
    least `MIN_GAMES_PER_THREAD` games, all but the last on pool threads, the last on this one."""
    slices = min(threads, n // MIN_GAMES_PER_THREAD)
    if slices <= 1:
        kernel(0, n)
        return
    bounds = [n * k // slices for k in range(slices + 1)]
    pool = _executor(slices - 1)
    futures = [pool.submit(kernel, bounds[k], bounds[k + 1]) for k in range(slices - 1)]
    try:
        kernel(bounds[-2], bounds[-1])
    finally:
        for future in futures:
            future.result()

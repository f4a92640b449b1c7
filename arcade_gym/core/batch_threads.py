"""Run a batch kernel over slices of the games on several threads (numba `nogil` kernels).

Why threads from Python rather than numba's `prange`: the only parallel layer installed here is
GNU OpenMP, which kills a forked child that runs a parallel kernel after its parent did, and
numba's own work queue must not be entered from two threads at once. A `nogil` kernel called on
disjoint slices from a small thread pool has neither problem, and each game is still played by
exactly the same code, so the results do not depend on the thread count. The pool is made
lazily per process (a forked child builds its own). The vector envs that use it: Tetris-v3 (a
placement costs tens of microseconds), TicTacToe-v0 and Snake-v0 (a step costs well under a
microsecond a game, so their slices are larger: `min_games`).
"""

from __future__ import annotations

import itertools
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from arcade_gym.core.args import check_int

MIN_GAMES_PER_THREAD = 64
"""The smallest slice of games worth a hand-off between threads (a few microseconds each)."""

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


def run_sliced(
    kernel: Callable[[int, int], None],
    n: int,
    threads: int,
    *,
    min_games: int = MIN_GAMES_PER_THREAD,
    per_thread: int = 8,
) -> None:
    """`kernel(lo, hi)` over disjoint slices covering games 0..n-1, on up to `threads` threads
    (this one included).

    The slices are small (about `per_thread` per thread, at least `min_games` games) and each
    thread takes the next one free until none is left: on a shared machine a thread that is not
    scheduled for a while does not hold the whole step back. A game whose step is cheap wants
    larger slices (each slice is one call into a kernel, a few microseconds).
    """
    size = max(min_games, n // (per_thread * threads))
    slices = -(-n // size)
    workers = min(threads, slices)
    if workers <= 1:
        kernel(0, n)
        return
    bounds = [min(k * size, n) for k in range(slices + 1)]
    taken = itertools.count()  # next() is atomic under the GIL

    def work() -> None:
        while (k := next(taken)) < slices:
            kernel(bounds[k], bounds[k + 1])

    pool = _executor(workers - 1)
    futures = [pool.submit(work) for _ in range(workers - 1)]
    failed = True
    try:
        work()
        failed = False
    finally:
        for future in futures:
            # Every slice is taken once work() returns: a helper the machine has not scheduled
            # yet has nothing left to do, so it is cancelled rather than waited for (under load
            # that wait is a time slice). After a failure every helper finishes its slices.
            if failed or not future.cancel():
                future.result()

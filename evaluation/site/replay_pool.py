"""Replays exported on a pool of processes, ahead of the pages that show them.

Exporting a replay (`evaluation/core/replay_export.py`: the game re-played by the rules, a frame a
decision) takes seconds for a long game and is most of a site build's time; games are independent,
so `SiteBuild.prepare_replays` exports many at once, one process per core, and keeps each result
for the `SiteBuild.replay` call that shows it. A worker runs the very function the builder runs
in-process, so a page does not depend on which process (or how many) exported it.

Workers are spawned, not forked: a fresh interpreter is safe whatever the parent runs (the threads
of `arcade-eval serve`, a numba parallel layer). As with any spawned process, the parent's main
module is imported again in each worker (under another name), so a script that builds a site
keeps its work under `if __name__ == "__main__":`. A spawned interpreter knows no benchmark, so it
is given the parent's registry (`registrations`, pickled). Ctrl-C is the parent's to handle:
workers ignore it and stop when the parent closes the pool. When the pool cannot start or breaks
(a registry that does not pickle, a worker killed), the items not done are left out and the
builder exports them in-process, as it would without a pool.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from evaluation.core import registry

T = TypeVar("T")
R = TypeVar("R")


class ReplayPool:
    """`workers` spawned processes, started on the first `run` and kept until `close`."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: Any = None  # concurrent.futures.ProcessPoolExecutor, imported when needed
        self._broken = False

    def run(self, work: Callable[[T], R], items: Sequence[T]) -> Iterator[tuple[T, R]]:
        """`(item, work(item))` for each of `items`, in the order they finish (`work` a
        module-level function; its result pickles). An item whose worker raised, or that a
        broken pool never ran, is not yielded; after a break the pool yields nothing."""
        from concurrent.futures import as_completed
        from concurrent.futures.process import BrokenProcessPool

        pool = self._start()
        if pool is None:
            return
        futures = {}
        try:
            futures = {pool.submit(work, item): item for item in items}
            for future in as_completed(futures):
                try:
                    result = future.result()
                except BrokenProcessPool:
                    self._broken = True
                    return
                except Exception:  # the builder redoes it in-process, raising there
                    continue
                yield futures[future], result
        except BrokenProcessPool:
            self._broken = True
        finally:
            for future in futures:
                future.cancel()  # a consumer that stops early leaves no work queued

    def close(self) -> None:
        """Stop the workers (each finishes the item it is on); `run` may start them again."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def _start(self) -> Any:
        if self._broken or self._pool is not None:
            return None if self._broken else self._pool
        from concurrent.futures import ProcessPoolExecutor
        from multiprocessing import get_context

        try:
            known = pickle.dumps(registry.registrations())
        except (pickle.PicklingError, TypeError, AttributeError):
            self._broken = True  # a benchmark registered with a local function: work in-process
            return None
        self._pool = ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=get_context("spawn"),
            initializer=_start_worker,
            initargs=(known,),
        )
        return self._pool


def _start_worker(known: bytes) -> None:
    """A worker's set-up: the parent's benchmarks registered, Ctrl-C left to the parent."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    registry.register_all(pickle.loads(known))

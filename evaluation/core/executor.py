"""Where the games of a run are played: threads in this process, or Ray tasks on one machine or a
cluster (`--executor ray [--address ADDR]`, the optional `ray` extra).

A runner hands over a top-level function and picklable items (one per game); each game writes its
own log and result into the run directory, so the outcome does not depend on the executor or the
order games finish in. `on_done` runs in the driver as each game finishes (manifest, progress).
The first error stops the run: games not started are cancelled, running ones finish first.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Any, Protocol, TypeVar

T = TypeVar("T")
R = TypeVar("R")

EXECUTORS = ("local", "ray")


class ExecutorError(Exception):
    """A user error choosing the executor (one line that names the fix)."""


class Executor(Protocol):
    """Plays the games of a run."""

    name: str

    def run(
        self, fn: Callable[[T], R], items: Sequence[T], on_done: Callable[[T, R], None]
    ) -> None:
        """`fn(item)` for every item; `on_done(item, result)` in the driver as each finishes."""


class LocalExecutor:
    """Up to `concurrency` games at once on threads of this process (1: one after another)."""

    name = "local"

    def __init__(self, concurrency: int = 1) -> None:
        if concurrency < 1:
            raise ExecutorError(f"--concurrency must be >= 1, got {concurrency}")
        self.concurrency = concurrency

    def run(
        self, fn: Callable[[T], R], items: Sequence[T], on_done: Callable[[T, R], None]
    ) -> None:
        if self.concurrency == 1:
            for item in items:
                on_done(item, fn(item))
            return
        pool = ThreadPoolExecutor(max_workers=self.concurrency, thread_name_prefix="game")
        futures: dict[Future[R], T] = {pool.submit(fn, item): item for item in items}
        try:
            pending = set(futures)
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    on_done(futures[future], future.result())
        except BaseException:
            for future in futures:
                future.cancel()
            raise
        finally:
            pool.shutdown(wait=True)


class RayExecutor:
    """Each game is a Ray task: a local Ray instance by default, or the cluster at `address`.

    The function and the items travel by pickle, so a runner passes a top-level function and
    plain data (the policy is built inside the task). Exceptions come back as their own type.
    """

    name = "ray"

    def __init__(self, address: str | None = None, num_cpus: int | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise ExecutorError(
                "--executor ray needs Ray: pip install -e '.[ray]' (or pip install ray)"
            ) from None
        self._ray = ray
        if not ray.is_initialized():
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            if address:
                kwargs["address"] = address
            elif num_cpus is not None:
                kwargs["num_cpus"] = num_cpus
            try:
                ray.init(**kwargs)
            except Exception as exc:  # a wrong address, a cluster that is down
                raise ExecutorError(f"cannot start or reach Ray ({exc}); check --address") from None

    def run(
        self, fn: Callable[[T], R], items: Sequence[T], on_done: Callable[[T, R], None]
    ) -> None:
        ray = self._ray
        remote = ray.remote(max_retries=0)(_apply)
        refs = {remote.remote(fn, item): item for item in items}
        pending = list(refs)
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    try:
                        result = ray.get(ref)
                    except ray.exceptions.RayTaskError as error:
                        raise error.as_instanceof_cause() from None
                    on_done(refs[ref], result)
        except BaseException:
            for ref in pending:
                ray.cancel(ref)
            raise


def _apply(fn: Callable[[T], R], item: T) -> R:
    """What a Ray task runs: `fn` travels by pickle (a partial or any top-level callable)."""
    return fn(item)


def make_executor(
    name: str, *, concurrency: int = 1, address: str | None = None
) -> LocalExecutor | RayExecutor:
    """The executor a command line asked for."""
    if name == "local":
        if address:
            raise ExecutorError("--address is for --executor ray")
        return LocalExecutor(concurrency)
    if name == "ray":
        return RayExecutor(address, None if address else max(concurrency, 1))
    raise ExecutorError(f"--executor must be one of {', '.join(EXECUTORS)}, got {name!r}")


def add_executor_options(parser: argparse.ArgumentParser) -> None:
    """`--concurrency`, `--executor` and `--address`, spelled the same by every benchmark."""
    parser.add_argument(
        "--concurrency",
        type=int,
        default=1,
        help="games played at once (threads, or Ray CPUs for a local Ray; default 1); results "
        "equal a serial run",
    )
    parser.add_argument(
        "--executor",
        choices=EXECUTORS,
        default="local",
        help="where games run: local (this process) or ray (Ray tasks; pip install -e '.[ray]')",
    )
    parser.add_argument(
        "--address", metavar="ADDR", help="a Ray cluster to join (with --executor ray)"
    )

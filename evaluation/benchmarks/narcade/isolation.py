"""One process per model: an executor for `evaluation/core/grid.py:play_grid` that plays each
model's games in a fresh spawned process of its own, so a model's memory, threads and hung calls
die with it.

Models play one after another; inside a model's process up to `concurrency` games run at once
(threads, `evaluation/core/executor.py:LocalExecutor`), so a stopped model's later games are
skipped there (the grid's per-process record of stopped policies). Each finished game comes back
to the driver at once (the grid saves it and writes the manifest there). Ctrl-C reaches the
model's process too: it leaves its game interrupted and ends; the driver waits for it, then
stops. A model's process ends when the run that started it is gone. A process that dies (killed,
out of memory) loses only its unfinished games: they stay missing and `crashed` names the exit
code.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
import time
import traceback
from collections.abc import Callable, Hashable, Sequence
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from evaluation.core.episode import RunStoppedError
from evaluation.core.executor import LocalExecutor

T = TypeVar("T")
R = TypeVar("R")

GRACE_SECONDS = 15.0
"""How long a model's process may take to write its partial results after Ctrl-C."""
EXIT_INTERRUPTED = 130


def model_of(item: Any) -> Hashable:
    """The model a grid task belongs to (the first part of its key)."""
    return item.key[0]


class IsolatedExecutor:
    """Plays the items of each group (`group(item)`, by default the model) in a process of their
    own, up to `concurrency` at once inside it."""

    name = "isolated"

    def __init__(self, concurrency: int = 1, group: Callable[[Any], Hashable] = model_of) -> None:
        self.concurrency = concurrency
        self.group = group
        self.crashed: dict[Hashable, int] = {}
        """Groups whose process died before it finished, with its exit code."""

    def run(
        self, fn: Callable[[T], R], items: Sequence[T], on_done: Callable[[T, R], None]
    ) -> None:
        groups: dict[Hashable, list[T]] = {}
        for item in items:
            groups.setdefault(self.group(item), []).append(item)
        for name, members in groups.items():
            self._run_group(name, fn, members, on_done)

    def _run_group(
        self,
        name: Hashable,
        fn: Callable[[T], R],
        items: list[T],
        on_done: Callable[[T, R], None],
    ) -> None:
        ctx = multiprocessing.get_context("spawn")
        ours, theirs = ctx.Pipe(duplex=False)
        process = ctx.Process(
            target=_worker,
            args=(theirs, fn, items, self.concurrency, os.getpid()),
            name="narcade-model",
        )
        process.start()
        theirs.close()
        try:
            while True:
                try:
                    message = ours.recv()
                except EOFError:  # the process died without a word
                    process.join()
                    code = process.exitcode
                    self.crashed[name] = EXIT_INTERRUPTED if code is None else code
                    return
                kind = message[0]
                if kind == "done":
                    on_done(items[message[1]], message[2])
                elif kind == "raise":
                    process.join(GRACE_SECONDS)
                    raise _rebuilt(message[1])
                else:
                    process.join()
                    return
        except KeyboardInterrupt:
            process.join(GRACE_SECONDS)  # Ctrl-C reached it too: let it write what it played
            _drain(ours, items, on_done)  # games it finished meanwhile are kept
            raise
        except BaseException:
            process.join(GRACE_SECONDS)
            raise
        finally:
            if process.is_alive():
                process.terminate()
                process.join(5.0)
            ours.close()


def _drain(conn: Connection, items: list[T], on_done: Callable[[T, R], None]) -> None:
    """Deliver the results a stopping process sent but the driver has not read yet."""
    try:
        while conn.poll():
            message = conn.recv()
            if message[0] == "done":
                on_done(items[message[1]], message[2])
    except (EOFError, OSError):
        return


def _indexed(fn: Callable[[T], R], pair: tuple[int, T]) -> tuple[int, R]:
    return pair[0], fn(pair[1])


def _worker(
    conn: Connection, fn: Callable[[Any], Any], items: list[Any], concurrency: int, parent: int
) -> None:
    """A model's process: play the items, send each result as it finishes, then the end."""
    _exit_with_parent(parent)
    lock = threading.Lock()

    def send(pair: tuple[int, Any], outcome: tuple[int, Any]) -> None:
        with lock:
            conn.send(("done", outcome[0], outcome[1]))

    try:
        LocalExecutor(concurrency).run(
            lambda pair: _indexed(fn, pair), list(enumerate(items)), send
        )
    except BaseException as exc:
        if not isinstance(exc, KeyboardInterrupt | SystemExit | RunStoppedError):
            traceback.print_exc(limit=5, file=sys.stderr)
        conn.send(("raise", _portable(exc)))
        return
    conn.send(("end",))


def _portable(exc: BaseException) -> tuple[type[BaseException], tuple[Any, ...], dict[str, Any]]:
    """An exception as (type, args, attributes): rebuilt in the driver even when its type's
    constructor takes other arguments than `args` (e.g. `RunStoppedError(reason, decisions)`)."""
    import pickle

    state = (type(exc), exc.args, dict(vars(exc)))
    try:
        pickle.dumps(state)
    except Exception:
        return RuntimeError, (f"{type(exc).__name__}: {exc}",), {}
    return state


def _rebuilt(state: tuple[type[BaseException], tuple[Any, ...], dict[str, Any]]) -> BaseException:
    kind, args, attributes = state
    exc = kind.__new__(kind)
    exc.args = args
    vars(exc).update(attributes)
    return exc


def _exit_with_parent(parent: int) -> None:
    """A model's process ends when the run that started it is gone (killed without a chance
    to stop its children), so a resumed run never races an orphan."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(EXIT_INTERRUPTED)

    threading.Thread(target=watch, name="narcade-parent-watch", daemon=True).start()

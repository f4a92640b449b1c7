"""Carries an episode's model requests to the Inspect sample that plays it.

The one episode loop is synchronous and asks async policies on its own background loop
(`evaluation/core/policy_call.py`), while Inspect's model API must be awaited inside the sample's
task: its context holds the sample's transcript, limits and active model. So the solver plays the
episode on a thread of its own (`play_in_thread`) and each model request is sent back to Inspect's
event loop, where it runs as a task in the sample's context (`ModelBridge.call`). Cancelling the
request (the benchmark's deadline ran out) cancels that task. When the sample ends early (Inspect
cancelled it), the bridge is closed: the request in flight is cancelled and it, like any later
one, stops the game (`SampleEndedError`: the log ends `stopped`, never scored).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from policies.base import RunStopError

T = TypeVar("T")
ENDED = "the Inspect sample playing this game has ended"


class SampleEndedError(RunStopError):
    """The Inspect sample that plays this game has ended: the game stops (set aside, not scored)."""


class ModelBridge:
    """Runs coroutines on the event loop and in the context the bridge was made in (a solver).

    `failure` keeps the first exception a model call raised (an Inspect limit, a provider error),
    so the solver can hand Inspect its own exception once the game has been set aside."""

    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.context = contextvars.copy_context()
        self.failure: BaseException | None = None
        self.closed = False
        self._pending: set[concurrent.futures.Future[Any]] = set()
        self._lock = threading.Lock()

    async def call(self, make: Callable[[], Coroutine[Any, Any, T]]) -> T:
        """Await `make()` on the bridge's loop in the bridge's context, from any other loop; a
        cancelled caller cancels it."""

        async def in_context() -> T:
            task = asyncio.get_running_loop().create_task(make(), context=self.context)
            return await task

        with self._lock:
            if self.closed:
                raise SampleEndedError(ENDED)
            future = asyncio.run_coroutine_threadsafe(in_context(), self.loop)
            self._pending.add(future)
        try:
            return await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            caller = asyncio.current_task()
            if self.closed and (caller is None or not caller.cancelling()):
                raise SampleEndedError(ENDED) from None  # cancelled by `close`, not the caller
            raise
        except Exception as exc:
            if self.failure is None:
                self.failure = exc
            raise
        finally:
            with self._lock:
                self._pending.discard(future)

    def close(self) -> None:
        """No further requests, and the one in flight is cancelled: the sample is over."""
        with self._lock:
            self.closed = True
            pending = list(self._pending)
        for future in pending:
            future.cancel()


async def play_in_thread(play: Callable[[], T], bridge: ModelBridge) -> T:
    """Run `play()` (a whole episode) on its own thread and await its result without blocking the
    loop; the bridge is closed when the episode ends or the awaiting sample is cancelled."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[T] = loop.create_future()

    def deliver(set_result: Callable[[Any], None], value: Any) -> None:
        if not done.done():
            set_result(value)

    def run() -> None:
        try:
            value = play()
        except BaseException as exc:  # handed to the awaiting solver, raised there
            loop.call_soon_threadsafe(deliver, done.set_exception, exc)
        else:
            loop.call_soon_threadsafe(deliver, done.set_result, value)

    thread = threading.Thread(target=run, name="inspect-episode", daemon=True)
    thread.start()
    try:
        return await done
    finally:
        bridge.close()

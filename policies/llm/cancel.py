"""Cancelling a call from outside: a signal that aborts the request when it fires.

Blitz cancels a call when the piece locks; cancelling the request task closes its connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Awaitable
from typing import Any, TypeVar

from policies.llm.errors import CallCancelledError

T = TypeVar("T")

CancelSignal = asyncio.Event | threading.Event
"""What a caller sets to cancel a call: an asyncio event, or a threading event from another
thread."""


async def race_cancel(work: Awaitable[T], cancel: CancelSignal) -> T:
    """Await `work` unless `cancel` fires first, in which case the request task is cancelled
    (closing its connection) and CallCancelledError is raised."""
    task: asyncio.Future[T] = asyncio.ensure_future(work)
    waiter: asyncio.Future[None] = asyncio.ensure_future(wait_signal(cancel))
    try:
        either: list[asyncio.Future[Any]] = [task, waiter]
        await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
    finally:
        waiter.cancel()
        if not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
    if task.cancelled():
        raise CallCancelledError("the call was cancelled before the model answered")
    return task.result()


async def wait_signal(cancel: CancelSignal) -> None:
    """Return once `cancel` is set."""
    if isinstance(cancel, asyncio.Event):
        await cancel.wait()
        return
    while not cancel.is_set():  # a threading.Event cannot be awaited: poll it
        await asyncio.sleep(0.02)

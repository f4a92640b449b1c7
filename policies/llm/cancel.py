"""Cancelling a call from outside: a signal that aborts the request when it fires.

Blitz cancels a call when the piece locks; cancelling the request task closes its connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from typing import Any

from policies.llm.errors import CallCancelledError
from policies.llm.responses import ChatReply

CancelSignal = asyncio.Event | threading.Event
"""What a caller sets to cancel a call: an asyncio event, or a threading event from another
thread."""


async def race_cancel(work: Any, cancel: CancelSignal) -> ChatReply:
    """Await `work` unless `cancel` fires first, in which case the request task is cancelled
    (closing its connection) and CallCancelledError is raised."""
    task: asyncio.Task[ChatReply] = asyncio.ensure_future(work)
    waiter = asyncio.ensure_future(_wait_signal(cancel))
    try:
        await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        waiter.cancel()
        if not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
    if task.cancelled():
        raise CallCancelledError("the call was cancelled before the model answered")
    return task.result()


async def _wait_signal(cancel: CancelSignal) -> None:
    if isinstance(cancel, asyncio.Event):
        await cancel.wait()
        return
    while not cancel.is_set():  # a threading.Event cannot be awaited: poll it
        await asyncio.sleep(0.02)

"""An optional requests-per-minute limit per model (`requests_per_minute` in the registry).

Requests to one model are spaced at least `60 / rpm` seconds apart, across every policy, game,
thread and event loop of the process that calls the same model at the same server (one limiter
per (base URL, model id), `limiter_for`). A request waits for its slot; a slot that comes after
the caller's deadline is a service failure (`local-limit`): our limit, not the model, ran out
the time. Every attempt, retries included, takes a slot.
"""

from __future__ import annotations

import asyncio
import threading
import time

from policies.llm.errors import ServiceFailure


class RateLimiter:
    """Evenly spaced slots: at most `rpm` requests in any minute, no bursts."""

    def __init__(self, rpm: float) -> None:
        if not rpm > 0:
            raise ValueError(f"requests_per_minute must be positive, got {rpm!r}")
        self.rpm = rpm
        self.interval = 60.0 / rpm
        self._next = 0.0
        self._lock = threading.Lock()

    def reserve(self, deadline: float | None = None) -> float:
        """Book the next slot and return how long to wait for it; ServiceFailure (booking
        nothing) when the slot would come after `deadline` (a `time.monotonic()` instant)."""
        with self._lock:
            now = time.monotonic()
            slot = max(now, self._next)
            if deadline is not None and slot >= deadline:
                raise ServiceFailure(
                    f"the requests-per-minute limit ({self.rpm:g}/min) leaves no slot before "
                    "the deadline",
                    reason="local-limit",
                )
            self._next = slot + self.interval
            return slot - now

    async def wait(self, deadline: float | None = None) -> None:
        """Wait for a slot (cancellable)."""
        delay = self.reserve(deadline)
        if delay > 0:
            await asyncio.sleep(delay)


_limiters: dict[tuple[str, str, float], RateLimiter] = {}
_limiters_lock = threading.Lock()


def limiter_for(base_url: str, model: str, rpm: float) -> RateLimiter:
    """The process-wide limiter of one model at one server."""
    key = (base_url, model, rpm)
    with _limiters_lock:
        limiter = _limiters.get(key)
        if limiter is None:
            limiter = _limiters[key] = RateLimiter(rpm)
        return limiter

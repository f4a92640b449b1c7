"""One decision of any policy, made safe: a timeout, cancellation, and nothing escapes.

A policy's exception, hang, garbage or NaN must cost it one decision, never crash the run.
Synchronous policies (`act`) run on a persistent worker thread, so a call can be abandoned when it
outlives its timeout: the context's `cancelled` event is set and the worker is replaced (the old
one exits whenever the policy returns). Asynchronous policies (`act_async`, or an `async def
act`) run on one background event loop under `asyncio.wait_for`, so a timeout really cancels the
coroutine (and with it any network request it awaits).

The overhead is a thread handoff (a few tens of microseconds), measured by
`python -m evaluation.core.policy_call`.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import inspect
import math
import queue
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

from policies.base import (
    AsyncPolicy,
    DecisionContext,
    Policy,
    PolicyKind,
    RunStopError,
    ServiceFailureError,
)

CallStatus = Literal["ok", "error", "timeout", "service", "stop"]
"""`service`: a failure on our side (`policies.base.ServiceFailureError`), never the policy's fault;
`stop`: the run must stop now, resumably (`policies.base.RunStopError`, e.g. a cost cap)."""

ASYNC_GRACE_S = 0.25
"""How long past its timeout an async call may take to wind down before the loop is presumed
blocked (a policy that sleeps synchronously inside `async def`) and replaced."""

_ERROR_CHARS = 300


@dataclass(frozen=True)
class CallOutcome:
    """What one call produced: the raw answer (unvalidated) or why there is none.

    `latency_ms` runs from the question reaching the policy to its answer (or exception) coming
    back; for a timeout it is the time waited. Only `status == "ok"` calls carry an answer, which
    may still be any junk: judging it is the validator's job.
    """

    answer: Any
    status: CallStatus
    error: str | None
    latency_ms: float

    @property
    def completed(self) -> bool:
        """Whether the policy returned (an answer of any quality) within its time."""
        return self.status == "ok"


def failure_status(exc: BaseException) -> CallStatus:
    """How an exception out of a policy counts: the policy's error, our service's, or a stop."""
    if isinstance(exc, ServiceFailureError):
        return "service"
    if isinstance(exc, RunStopError):
        return "stop"
    return "error"


def describe_exception(exc: BaseException) -> str:
    """`Type: message`, bounded, and safe even when `str(exc)` itself raises."""
    try:
        text = str(exc)
    except Exception:
        text = "<unprintable message>"
    name = type(exc).__name__
    out = f"{name}: {text}" if text else name
    return out if len(out) <= _ERROR_CHARS else out[: _ERROR_CHARS - 3] + "..."


# --------------------------------------------------------------------------------------------
# Synchronous policies: a pool of persistent worker threads (one is used at a time per caller).
# --------------------------------------------------------------------------------------------


class _Job:
    __slots__ = ("answer", "done", "error", "fn", "latency_ms", "status")

    def __init__(self, fn: Callable[[], Any]) -> None:
        self.fn = fn
        self.done = threading.Event()
        self.answer: Any = None
        self.error: str | None = None
        self.status: CallStatus = "error"
        self.latency_ms = 0.0


class _Worker:
    """A daemon thread running jobs one after another until it is retired."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="policy-worker", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            t0 = time.perf_counter()
            try:
                job.answer = job.fn()
            except BaseException as exc:  # a policy's SystemExit is its failure, not ours
                job.error = describe_exception(exc)
                job.status = failure_status(exc)
            job.latency_ms = (time.perf_counter() - t0) * 1000.0
            job.done.set()

    def submit(self, job: _Job) -> None:
        self._jobs.put(job)

    def retire(self) -> None:
        """Exit after the current job (an abandoned, hung call keeps its thread until then)."""
        self._jobs.put(None)


_idle_workers: list[_Worker] = []
_workers_lock = threading.Lock()


def _acquire_worker() -> _Worker:
    with _workers_lock:
        if _idle_workers:
            return _idle_workers.pop()
    return _Worker()


def _release_worker(worker: _Worker) -> None:
    with _workers_lock:
        _idle_workers.append(worker)


def _call_sync(
    act: Callable[[Any, DecisionContext], Any],
    question: Any,
    ctx: DecisionContext,
    timeout_s: float | None,
) -> CallOutcome:
    job = _Job(lambda: act(question, ctx))
    worker = _acquire_worker()
    t0 = time.perf_counter()
    worker.submit(job)
    try:
        finished = job.done.wait(timeout_s)
    except BaseException:  # Ctrl-C while waiting: tell the policy, drop its worker, re-raise
        ctx.cancelled.set()
        worker.retire()
        raise
    if not finished:
        ctx.cancelled.set()
        worker.retire()
        waited = (time.perf_counter() - t0) * 1000.0
        return CallOutcome(None, "timeout", _timeout_text(timeout_s), waited)
    _release_worker(worker)
    if job.error is not None:
        return CallOutcome(None, job.status, job.error, job.latency_ms)
    if inspect.isawaitable(job.answer):
        _discard_awaitable(job.answer)
        error = "act returned an awaitable; declare it `async def act` or implement act_async"
        return CallOutcome(None, "error", error, job.latency_ms)
    return CallOutcome(job.answer, "ok", None, job.latency_ms)


def _discard_awaitable(value: Any) -> None:
    """Close an un-awaited coroutine so Python does not warn about it."""
    close = getattr(value, "close", None)
    if callable(close):
        with contextlib.suppress(Exception):
            close()


# --------------------------------------------------------------------------------------------
# Asynchronous policies: one background event loop.
# --------------------------------------------------------------------------------------------


class _PolicyTimeoutError(Exception):
    """A TimeoutError raised by the policy itself (kept apart from the harness's own timeout)."""


class _Loop:
    """An event loop running forever on a daemon thread."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name="policy-loop", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_forever()
        finally:
            self.loop.close()

    def abandon(self) -> None:
        """Stop once the loop unblocks and its calls have wound down (each has its own timeout;
        the stuck one was cancelled); new calls go to a fresh loop meanwhile."""

        async def drain() -> None:
            me = asyncio.current_task()
            while any(task is not me for task in asyncio.all_tasks()):
                await asyncio.sleep(0.05)
            self.loop.stop()

        asyncio.run_coroutine_threadsafe(drain(), self.loop)


_loop: _Loop | None = None
_loop_lock = threading.Lock()


def _get_loop() -> _Loop:
    global _loop
    with _loop_lock:
        if _loop is None:
            _loop = _Loop()
        return _loop


def _replace_loop(stuck: _Loop) -> None:
    global _loop
    with _loop_lock:
        if _loop is stuck:
            _loop = None
    stuck.abandon()


async def _reraise_own_timeout(awaitable: Awaitable[Any]) -> Any:
    try:
        return await awaitable
    except TimeoutError as exc:
        raise _PolicyTimeoutError(describe_exception(exc)) from exc


async def _run_async(
    act: Callable[[Any, DecisionContext], Any],
    question: Any,
    ctx: DecisionContext,
    timeout_s: float | None,
) -> CallOutcome:
    cancelled = asyncio.Event()
    ctx.async_cancelled = cancelled
    t0 = time.perf_counter()
    try:
        result = act(question, ctx)
    except BaseException as exc:  # raised before the first await
        return CallOutcome(None, failure_status(exc), describe_exception(exc), _ms(t0))
    try:
        if inspect.isawaitable(result):
            result = await asyncio.wait_for(_reraise_own_timeout(result), timeout_s)
    except TimeoutError:
        cancelled.set()
        ctx.cancelled.set()
        return CallOutcome(None, "timeout", _timeout_text(timeout_s), _ms(t0))
    except _PolicyTimeoutError as exc:
        return CallOutcome(None, "error", str(exc), _ms(t0))
    except asyncio.CancelledError as exc:
        task = asyncio.current_task()
        if task is not None and task.cancelling():
            raise  # the harness itself cancelled this call (Ctrl-C): let it go
        return CallOutcome(None, "error", describe_exception(exc), _ms(t0))
    except BaseException as exc:
        return CallOutcome(None, failure_status(exc), describe_exception(exc), _ms(t0))
    return CallOutcome(result, "ok", None, _ms(t0))


def _ms(t0: float) -> float:
    return (time.perf_counter() - t0) * 1000.0


def _call_async(
    act: Callable[[Any, DecisionContext], Any],
    question: Any,
    ctx: DecisionContext,
    timeout_s: float | None,
) -> CallOutcome:
    runner = _get_loop()
    t0 = time.perf_counter()
    future = asyncio.run_coroutine_threadsafe(
        _run_async(act, question, ctx, timeout_s), runner.loop
    )
    guard = None if timeout_s is None else timeout_s + ASYNC_GRACE_S
    try:
        return future.result(guard)
    except concurrent.futures.TimeoutError:
        # wait_for could not fire: the policy blocks the loop (or ignores cancellation).
        future.cancel()
        ctx.cancelled.set()
        _replace_loop(runner)
        return CallOutcome(None, "timeout", _timeout_text(timeout_s), _ms(t0))
    except concurrent.futures.CancelledError:
        ctx.cancelled.set()
        return CallOutcome(None, "error", "the call was cancelled", _ms(t0))
    except BaseException:  # Ctrl-C while waiting: cancel the coroutine, re-raise
        future.cancel()
        ctx.cancelled.set()
        raise


# --------------------------------------------------------------------------------------------
# The entry point
# --------------------------------------------------------------------------------------------


def _timeout_text(timeout_s: float | None) -> str:
    return f"no answer within {(timeout_s or 0.0) * 1000.0:.6g} ms"


def _resolve(policy: object) -> tuple[Callable[[Any, DecisionContext], Any], bool] | str:
    """The callable to use and whether it is async, or why the policy cannot be called."""
    try:
        act_async = getattr(policy, "act_async", None)
        if callable(act_async):
            return act_async, True
        act = getattr(policy, "act", None)
        if callable(act):
            return act, inspect.iscoroutinefunction(act)
    except Exception as exc:
        return f"policy could not be inspected: {describe_exception(exc)}"
    return f"{type(policy).__name__} has neither act nor act_async"


def call_policy(
    policy: Policy | AsyncPolicy, question: Any, ctx: DecisionContext, timeout_ms: float | None
) -> CallOutcome:
    """Ask `policy` one question within `timeout_ms` (None: no limit). Never raises, except that
    a KeyboardInterrupt while waiting cancels the call and propagates.

    On a timeout `ctx.cancelled` is set (and `ctx.async_cancelled` for async policies).
    """
    if timeout_ms is not None and not (isinstance(timeout_ms, int | float) and timeout_ms >= 0):
        raise ValueError(f"timeout_ms must be a number >= 0 or None, got {timeout_ms!r}")
    if timeout_ms is not None and math.isinf(timeout_ms):
        timeout_ms = None
    timeout_s = None if timeout_ms is None else timeout_ms / 1000.0
    resolved = _resolve(policy)
    if isinstance(resolved, str):
        return CallOutcome(None, "error", resolved, 0.0)
    act, is_async = resolved
    if is_async:
        return _call_async(act, question, ctx, timeout_s)
    return _call_sync(act, question, ctx, timeout_s)


def _measure_overhead(n: int = 5000) -> dict[str, float]:
    """Median microseconds `call_policy` adds around an instant policy (sync and async)."""

    class _Instant:
        slug = name = description = "instant"
        kind: PolicyKind = "baseline"
        adapter_version = "1"

        def act(self, question: Any, ctx: DecisionContext) -> Any:
            return question

    class _InstantAsync(_Instant):
        async def act_async(self, question: Any, ctx: DecisionContext) -> Any:
            return question

    out: dict[str, float] = {}
    policies: list[tuple[str, Policy | AsyncPolicy]] = [
        ("sync", _Instant()),
        ("async", _InstantAsync()),
    ]
    for label, policy in policies:
        samples = []
        for _ in range(n):
            ctx = DecisionContext.with_budget(1000.0)
            t0 = time.perf_counter()
            outcome = call_policy(policy, None, ctx, 1000.0)
            total = (time.perf_counter() - t0) * 1000.0
            samples.append((total - outcome.latency_ms) * 1000.0)
        samples.sort()
        out[f"{label}_median_us"] = samples[len(samples) // 2]
        out[f"{label}_p99_us"] = samples[int(len(samples) * 0.99)]
    return out


if __name__ == "__main__":
    for key, value in _measure_overhead().items():
        print(f"{key}: {value:.1f}")

"""call_policy: every way a policy can misbehave is recorded as an outcome, never raised."""

from __future__ import annotations

import asyncio
import math
import threading
import time
from typing import Any

import pytest

from arcade_gym.tetris.contract import AgentAnswer, AgentInput
from arcade_gym.tetris.game import TetrisGame
from evaluation.core.policy_call import CallOutcome, call_policy
from policies.base import DecisionContext, PolicyIdentity


@pytest.fixture(scope="module")
def question() -> AgentInput:
    return TetrisGame("seed-01").question("IQ")


def _ctx(budget_ms: float | None = 1000.0) -> DecisionContext:
    return DecisionContext.with_budget(budget_ms)


class _Base(PolicyIdentity):
    def __init__(self) -> None:
        super().__init__(slug="t", name="T", description="test policy", kind="baseline")


class First(_Base):
    def act(self, q: AgentInput, ctx: DecisionContext) -> Any:
        return AgentAnswer.single(q.state_hash, q.legal[0])


class Raising(_Base):
    def act(self, q: AgentInput, ctx: DecisionContext) -> Any:
        raise RuntimeError("boom")


class Returning(_Base):
    def __init__(self, value: Any) -> None:
        super().__init__()
        self.value = value

    def act(self, q: AgentInput, ctx: DecisionContext) -> Any:
        return self.value


class Hanging(_Base):
    """Sleeps up to `seconds`, waking early when the harness cancels the call."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.seconds = seconds
        self.saw_cancel = threading.Event()

    def act(self, q: AgentInput, ctx: DecisionContext) -> Any:
        if ctx.cancelled.wait(self.seconds):
            self.saw_cancel.set()
        return AgentAnswer.single(q.state_hash, q.legal[0])


class AsyncFirst(_Base):
    async def act_async(self, q: AgentInput, ctx: DecisionContext) -> Any:
        await asyncio.sleep(0)
        return AgentAnswer.single(q.state_hash, q.legal[0])


class AsyncSlow(_Base):
    def __init__(self) -> None:
        super().__init__()
        self.cancelled = threading.Event()

    async def act_async(self, q: AgentInput, ctx: DecisionContext) -> Any:
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            self.cancelled.set()
            raise
        return None


def test_a_fast_sync_policy_answers_ok_with_its_latency(question: AgentInput) -> None:
    outcome = call_policy(First(), question, _ctx(), 1000.0)
    assert outcome.status == "ok" and outcome.completed and outcome.error is None
    assert isinstance(outcome.answer, AgentAnswer)
    assert outcome.answer.state_hash == question.state_hash
    assert 0.0 <= outcome.latency_ms < 1000.0


def test_an_exception_is_recorded_not_raised(question: AgentInput) -> None:
    outcome = call_policy(Raising(), question, _ctx(), 1000.0)
    assert outcome == CallOutcome(None, "error", "RuntimeError: boom", outcome.latency_ms)


@pytest.mark.parametrize("exc", [KeyboardInterrupt, SystemExit, MemoryError])
def test_a_policy_raising_base_exceptions_is_its_own_error(
    question: AgentInput, exc: type[BaseException]
) -> None:
    class Weird(_Base):
        def act(self, q: AgentInput, ctx: DecisionContext) -> Any:
            raise exc()

    outcome = call_policy(Weird(), question, _ctx(), 1000.0)
    assert outcome.status == "error" and exc.__name__ in (outcome.error or "")


def test_an_exception_with_an_unprintable_message_is_still_recorded(question: AgentInput) -> None:
    class NastyError(Exception):
        def __str__(self) -> str:
            raise ValueError("no")

    class Policy(_Base):
        def act(self, q: AgentInput, ctx: DecisionContext) -> Any:
            raise NastyError()

    outcome = call_policy(Policy(), question, _ctx(), 1000.0)
    assert outcome.status == "error" and "NastyError" in (outcome.error or "")


def test_a_hung_policy_is_abandoned_cancelled_and_replaced(question: AgentInput) -> None:
    hanging = Hanging(5.0)
    ctx = _ctx(50.0)
    t0 = time.perf_counter()
    outcome = call_policy(hanging, question, ctx, 50.0)
    assert outcome.status == "timeout" and outcome.answer is None
    assert "50 ms" in (outcome.error or "")
    assert time.perf_counter() - t0 < 2.0
    assert ctx.cancelled.is_set()
    assert hanging.saw_cancel.wait(2.0)  # the policy polled ctx.cancelled and stopped
    # A sleeper that ignores cancellation keeps its thread; the next call gets a fresh worker.
    stubborn = Hanging(0.0)
    stubborn.act = lambda q, ctx: time.sleep(1.0)  # type: ignore[method-assign]
    assert call_policy(stubborn, question, _ctx(30.0), 30.0).status == "timeout"
    t0 = time.perf_counter()
    assert call_policy(First(), question, _ctx(), 1000.0).status == "ok"
    assert time.perf_counter() - t0 < 0.5


@pytest.mark.parametrize(
    "junk",
    [None, "not json", b"\xff\xfe", 42, float("nan"), object(), {"choice": float("inf")}, [1, 2]],
)
def test_garbage_comes_back_as_an_ok_answer_for_the_validator(
    question: AgentInput, junk: Any
) -> None:
    outcome = call_policy(Returning(junk), question, _ctx(), 1000.0)
    assert outcome.status == "ok"
    assert outcome.answer is junk or (
        isinstance(junk, float) and math.isnan(outcome.answer)  # NaN is not itself
    )


def test_no_timeout_means_wait_as_long_as_it_takes(question: AgentInput) -> None:
    outcome = call_policy(Hanging(0.05), question, _ctx(None), None)
    assert outcome.status == "ok" and outcome.latency_ms >= 40.0


def test_a_bad_timeout_is_the_callers_mistake(question: AgentInput) -> None:
    with pytest.raises(ValueError, match="timeout_ms"):
        call_policy(First(), question, _ctx(), -1.0)


def test_an_object_that_cannot_act_is_an_error(question: AgentInput) -> None:
    outcome = call_policy(object(), question, _ctx(), 1000.0)  # type: ignore[arg-type]
    assert outcome.status == "error" and "neither act nor act_async" in (outcome.error or "")


def test_a_sync_act_returning_a_coroutine_is_an_error_without_warnings(
    question: AgentInput, recwarn: pytest.WarningsRecorder
) -> None:
    class Confused(_Base):
        def act(self, q: AgentInput, ctx: DecisionContext) -> Any:
            return asyncio.sleep(0)

    outcome = call_policy(Confused(), question, _ctx(), 1000.0)
    assert outcome.status == "error" and "async def act" in (outcome.error or "")
    assert not [w for w in recwarn if "never awaited" in str(w.message)]


def test_an_async_policy_answers_ok(question: AgentInput) -> None:
    outcome = call_policy(AsyncFirst(), question, _ctx(), 1000.0)
    assert outcome.status == "ok" and isinstance(outcome.answer, AgentAnswer)


def test_async_def_act_is_run_on_the_event_loop(question: AgentInput) -> None:
    class AsyncAct(_Base):
        async def act(self, q: AgentInput, ctx: DecisionContext) -> Any:
            await asyncio.sleep(0)
            assert ctx.async_cancelled is not None
            return "from the loop"

    outcome = call_policy(AsyncAct(), question, _ctx(), 1000.0)  # type: ignore[arg-type]
    assert (outcome.status, outcome.answer) == ("ok", "from the loop")


def test_a_slow_async_policy_is_really_cancelled(question: AgentInput) -> None:
    slow = AsyncSlow()
    ctx = _ctx(50.0)
    t0 = time.perf_counter()
    outcome = call_policy(slow, question, ctx, 50.0)
    assert outcome.status == "timeout"
    assert time.perf_counter() - t0 < 1.0
    assert slow.cancelled.wait(1.0)  # CancelledError reached the coroutine
    assert ctx.cancelled.is_set()
    assert ctx.async_cancelled is not None and ctx.async_cancelled.is_set()


def test_an_async_exception_and_an_own_timeout_error_are_errors(question: AgentInput) -> None:
    class AsyncRaising(_Base):
        def __init__(self, exc: BaseException) -> None:
            super().__init__()
            self.exc = exc

        async def act_async(self, q: AgentInput, ctx: DecisionContext) -> Any:
            raise self.exc

    for exc, name in [
        (ValueError("bad"), "ValueError: bad"),
        (TimeoutError("upstream"), "TimeoutError: upstream"),
        (asyncio.CancelledError(), "CancelledError"),
    ]:
        outcome = call_policy(AsyncRaising(exc), question, _ctx(), 1000.0)
        assert (outcome.status, outcome.error) == ("error", name)


def test_an_async_policy_blocking_the_loop_times_out_and_the_loop_is_replaced(
    question: AgentInput,
) -> None:
    class Blocking(_Base):
        async def act_async(self, q: AgentInput, ctx: DecisionContext) -> Any:
            time.sleep(0.6)  # blocks the event loop: wait_for cannot fire
            return None

    t0 = time.perf_counter()
    assert call_policy(Blocking(), question, _ctx(20.0), 20.0).status == "timeout"
    assert time.perf_counter() - t0 < 0.55
    t0 = time.perf_counter()
    assert call_policy(AsyncFirst(), question, _ctx(), 1000.0).status == "ok"
    assert time.perf_counter() - t0 < 0.3  # a fresh loop, not the blocked one


def test_calls_from_several_threads_do_not_mix_answers(question: AgentInput) -> None:
    results: dict[int, Any] = {}

    def worker(i: int) -> None:
        for _ in range(20):
            outcome = call_policy(Returning(i), question, _ctx(), 1000.0)
            assert outcome.answer == i
        results[i] = True

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10.0)
    assert sorted(results) == [0, 1, 2, 3]

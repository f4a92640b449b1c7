"""The one episode loop of every benchmark: ask, call, judge, apply, record; the same loop replays.

A benchmark describes one game under its protocol as an `Episode` (the question, how an answer is
judged and applied, its clock) plus `Rules` (what counts as unusable, how many in a row end the
game, the decision cap) and hands it to `play_episode` with a `Caller` and a `Sink`:

- playing: `LiveCaller` asks the policy (deadlines and cancellation from `policy_call`) and the
  `EventLog` sink writes each decision as it is made;
- verifying: `RecordedCaller` hands back the recorded calls and the `Comparer` sink checks each
  decision the loop derives against the recorded one, so a recording is trusted only if this
  very loop turns its answers into the same game (`evaluation/core/verify.py`).

Failures on our side never count against a policy: a `service` call (and a timeout, under
`Rules.timeout_aborts`) aborts the game (`GameAbortedError`; the log ends with an `aborted` result
line, the run sets it aside and replays it on resume) and a `stop` call ends the run resumably
(`RunStoppedError`). Ctrl-C leaves an `interrupted` result line.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from arcade_gym.core.clock import Clock, WallClock
from evaluation.core.eventlog import from_jsonable, to_jsonable
from evaluation.core.policy_call import CallOutcome, call_policy
from policies.base import DecisionContext

WALL_CLOCK_KEYS = frozenset({"latencyMs", "startedAt", "finishedAt", "fromCache"})
"""Telemetry that measures wall time, or differs between a run and its cached re-run: kept out of
logs (see `Call.record`)."""

INCOMPLETE_ENDS = ("interrupted", "aborted", "stopped")
"""End reasons of a result line that mark a game as not finished (never counted, replayed)."""


@dataclass(frozen=True)
class Rules:
    """A benchmark's protocol rules that the loop enforces, as data.

    `unusable` are the judgement classes that count towards `unusable_limit` in a row (the game
    then ends with `failure_end`); `neutral` classes neither count nor reset the streak; any other
    class resets it. `max_decisions` caps the calls of one episode (`cap_end`), `max_seconds` its
    wall time (`time_end`). `timeout_aborts`: a call that outlives its limit is a failure on our
    side (the limit is a safety net, the policy may think as long as its settings allow), so it
    aborts the game as a `service` call does instead of being judged (chess, Sudoku).
    """

    unusable: frozenset[str] = frozenset({"invalid", "error", "timeout"})
    unusable_limit: int | None = None
    failure_end: str = "adapter failure"
    neutral: frozenset[str] = frozenset()
    max_decisions: int | None = None
    cap_end: str = "decision cap"
    max_seconds: float | None = None
    time_end: str = "time cap"
    timeout_aborts: bool = False


Q = TypeVar("Q")
"""A benchmark's question type (its contract model)."""
A = TypeVar("A")
"""A benchmark's judged answer: what `judge` read from a policy's reply and hands `apply` (a
move, a placement, an action index). The raw reply stays `Any`: a policy may return anything."""
_NO_VERDICT: Any = None
"""`Judged.verdict` of a status that carries none (typed Any, so it fits every `A`)."""


@dataclass
class Judged(Generic[A]):
    """An answer judged against its question: `status` is the class the rules count (valid,
    invalid, stale, timeout, error, ...); `verdict` is the game's own verdict object, left None
    when the status carries none (read it only for a status that does); a bare `Judged` is
    `Judged[Any]`."""

    status: str
    verdict: A = _NO_VERDICT
    reason: str | None = None


class Episode(Protocol[Q, A]):
    """One game under a benchmark's protocol (see `docs/adding-a-benchmark.md`), asking questions
    of type `Q` and playing answers judged as `A`: `judge` is handed back the very question
    `question()` asked, and `apply` the very verdict `judge` gave."""

    rules: Rules
    realtime: bool
    """Whether the game's clock runs while the policy thinks (the elapsed time is applied)."""

    @property
    def over(self) -> bool:
        """Whether the game has ended (by its rules or by `force_end`)."""

    def question(self) -> Q:
        """The next question (a contract model)."""

    def call_limit_ms(self) -> float | None:
        """How long the next call may take (None: no limit)."""

    def judge(self, call: CallOutcome, question: Q) -> Judged[A]:
        """Judge a call against the question it answered; never raises."""

    def apply(self, judged: Judged[A], elapsed_ms: float | None) -> dict[str, Any]:
        """Play the judged answer; returns the decision's own event fields (JSON data)."""

    def force_end(self, reason: str) -> None:
        """End the game from outside (caps, streaks)."""

    def result(self) -> dict[str, Any]:
        """The result line's fields (`endReason` first) once the game is over."""


@dataclass(frozen=True)
class Call:
    """One call as the loop saw it: the policy's outcome, plus the game time that passed (realtime
    episodes) and per-call telemetry the policy reported (tokens, cost, retries, raw reply)."""

    outcome: CallOutcome
    elapsed_ms: float | None = None
    telemetry: Mapping[str, Any] | None = None
    cached: bool = False
    """Whether the reply came from a response cache (`--cache`): it took no model time."""

    @property
    def latency_ms(self) -> float | None:
        """The model's latency as tables show it: None for a call that did not complete and for
        a reply served from the cache (a cached re-run must not report the cache's 0.3 ms)."""
        if self.cached or self.outcome.status != "ok":
            return None
        return self.outcome.latency_ms

    def record(self) -> dict[str, Any]:
        """The `call` block of a decision event. Wall-clock measurements (latency) are left out:
        they go to results, so the same seed and the same answers give a byte-identical log
        (a cached or distributed re-run included)."""
        o = self.outcome
        block: dict[str, Any] = {
            "status": o.status,
            "answer": to_jsonable(o.answer) if o.status == "ok" else None,
            "error": o.error,
            "elapsedMs": self.elapsed_ms,
        }
        if self.telemetry:
            usage = {k: v for k, v in self.telemetry.items() if k not in WALL_CLOCK_KEYS}
            block["usage"] = to_jsonable(usage)
        return block


class Caller(Protocol):
    """Where answers come from: a live policy, or a recording."""

    def call(self, question: Any, limit_ms: float | None, realtime: bool) -> Call:
        """The answer to one question."""


class LiveCaller:
    """Asks a live policy under its deadline; in realtime episodes `clock` measures the game time
    that passed (at least the limit when the call timed out). `wire(answer, question)`, when
    given, turns an answer into the JSON form it is judged and recorded in (benchmarks whose
    answers are not wire models), so a replay judges exactly what the game judged."""

    def __init__(
        self,
        policy: Any,
        clock: Clock | None = None,
        *,
        wire: Callable[[Any, Any], Any] | None = None,
    ) -> None:
        self.policy = policy
        self.clock: Clock = clock if clock is not None else WallClock()
        self.wire = wire

    def call(self, question: Any, limit_ms: float | None, realtime: bool) -> Call:
        ctx = DecisionContext.with_budget(None if realtime else limit_ms)
        if realtime:
            self.clock.start()
        outcome = call_policy(self.policy, question, ctx, limit_ms)
        elapsed: float | None = None
        if realtime:
            elapsed = float(self.clock.elapsed_ms())
            if outcome.status == "timeout" and limit_ms is not None:
                elapsed = max(elapsed, limit_ms)
        if self.wire is not None and outcome.status == "ok":
            outcome = dataclasses.replace(outcome, answer=self.wire(outcome.answer, question))
        telemetry = _telemetry(self.policy)
        return Call(outcome, elapsed, telemetry, _from_cache(self.policy, telemetry))


def _from_cache(policy: Any, telemetry: Mapping[str, Any] | None) -> bool:
    """Whether the policy's last reply came from its response cache: said by its telemetry
    (`fromCache`) or by its last call record (`policies/llm/telemetry.py:LLMCall.from_cache`)."""
    if telemetry is not None and telemetry.get("fromCache") is True:
        return True
    return getattr(getattr(policy, "last_call", None), "from_cache", False) is True


def _telemetry(policy: Any) -> Mapping[str, Any] | None:
    """What the policy reports about its last call (`pop_telemetry()`), if it reports anything."""
    pop = getattr(policy, "pop_telemetry", None)
    if not callable(pop):
        return None
    try:
        value = pop()
    except Exception:
        return None
    return value if isinstance(value, Mapping) else None


class RecordedCaller:
    """Hands back recorded calls in order (verification and resume checks)."""

    def __init__(self, events: Sequence[Mapping[str, Any]]) -> None:
        self.events = list(events)
        self.index = 0

    def call(self, question: Any, limit_ms: float | None, realtime: bool) -> Call:
        if self.index >= len(self.events):
            raise RecordingEndsError(self.index)
        block = self.events[self.index].get("call")
        self.index += 1
        if not isinstance(block, Mapping):
            raise MismatchError(self.index - 1, "a decision without a call block")
        status = block.get("status")
        if status not in ("ok", "error", "timeout"):
            raise MismatchError(self.index - 1, f"unknown call status {status!r}")
        if status != "ok" and block.get("answer") is not None:
            raise MismatchError(self.index - 1, f"a {status} call with an answer recorded")
        elapsed = block.get("elapsedMs")
        if elapsed is not None and not (isinstance(elapsed, int | float) and elapsed >= 0):
            raise MismatchError(self.index - 1, f"elapsedMs must be a number >= 0, got {elapsed!r}")
        if realtime and elapsed is None:
            raise MismatchError(self.index - 1, "a realtime decision without elapsedMs")
        outcome = CallOutcome(
            from_jsonable(block.get("answer")),
            status,
            block.get("error"),
            math.nan,  # latency is measured, never recorded in the log
        )
        usage = block.get("usage")
        return Call(outcome, None if elapsed is None else float(elapsed), usage)


class RecordingEndsError(Exception):
    """The replayed game asks for a decision the recording does not have."""

    def __init__(self, decisions: int) -> None:
        super().__init__(f"the recording ends after {decisions} decisions")
        self.decisions = decisions


class MismatchError(Exception):
    """A recording that does not replay: `decision` is where it first diverges (None: not in a
    decision)."""

    def __init__(self, decision: int | None, message: str) -> None:
        super().__init__(message)
        self.decision = decision
        self.message = message


class Sink(Protocol):
    """Where decisions and the result go: a log being written, or a recording being checked."""

    def decision(self, event: dict[str, Any]) -> None: ...

    def result(self, event: dict[str, Any]) -> None: ...


@dataclass
class Comparer:
    """Checks each derived event against the recorded one, failing at the first difference."""

    events: Sequence[Mapping[str, Any]]
    recorded_result: Mapping[str, Any] | None
    seen: int = 0
    result_event: dict[str, Any] | None = field(default=None, init=False)

    def decision(self, event: dict[str, Any]) -> None:
        recorded = self.events[self.seen]
        _compare(self.seen, event, recorded)
        self.seen += 1

    def result(self, event: dict[str, Any]) -> None:
        self.result_event = event
        if self.recorded_result is None:
            return
        _compare(None, event, self.recorded_result, what="result")


EXPLANATIONS = frozenset({"reason", "notes"})
"""Keys of free text written for people (why an answer was refused): recorded, not re-derived,
since an answer that had no JSON form replays as a stand-in whose description differs."""


def _same(a: Any, b: Any) -> bool:
    """JSON equality: 1 == 1.0, but a boolean is never a number; explanations are skipped."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        keys = a.keys() - EXPLANATIONS
        return keys == b.keys() - EXPLANATIONS and all(_same(a[k], b[k]) for k in keys)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _compare(
    decision: int | None, derived: Mapping[str, Any], recorded: Mapping[str, Any], what: str = ""
) -> None:
    for key in derived:  # keys only a recording has are not derived, so not compared
        if key == "call" or key in EXPLANATIONS:
            continue  # the call is the recording itself; times are not re-derived
        if not _same(derived.get(key), recorded.get(key)):
            label = f"{what} {key}".strip()
            raise MismatchError(
                decision,
                f"{label}: recorded {recorded.get(key)!r}, replay gives {derived.get(key)!r}",
            )


class GameAbortedError(Exception):
    """A failure on our side ended the game; it must be set aside and played again."""

    def __init__(self, reason: str, decisions: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.decisions = decisions


class RunStoppedError(Exception):
    """The run must stop now (cost cap, refused key); the game is set aside, the run resumable."""

    def __init__(self, reason: str, decisions: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.decisions = decisions


@dataclass
class Played:
    """What `play_episode` returns: the result line and the decisions made."""

    result: dict[str, Any]
    decisions: int


def play_episode(
    episode: Episode[Q, A],
    caller: Caller,
    sink: Sink,
    *,
    on_decision: Callable[[Call, Judged[A], dict[str, Any]], None] | None = None,
    now: Callable[[], float] = time.perf_counter,
) -> Played:
    """Play `episode` to its end, asking `caller` and recording into `sink`.

    Each decision event is `{"type": "decision", "n", "call": {...}, **episode fields}`; the
    result line is `{"type": "result", **episode.result()}`. Raises `GameAbortedError` /
    `RunStoppedError` after writing an incomplete result line; Ctrl-C writes an `interrupted` one
    and propagates.
    """
    rules = episode.rules
    streak = 0
    n = 0
    t0 = now()
    try:
        while not episode.over:
            if rules.max_decisions is not None and n >= rules.max_decisions:
                episode.force_end(rules.cap_end)
                break
            if rules.max_seconds is not None and now() - t0 >= rules.max_seconds:
                episode.force_end(rules.time_end)
                break
            question = episode.question()
            call = caller.call(question, episode.call_limit_ms(), episode.realtime)
            status = call.outcome.status
            reason = call.outcome.error or status
            if status == "timeout" and rules.timeout_aborts:
                status, reason = "service", f"timeout: {reason}"
            if status in ("service", "stop"):
                ending = "aborted" if status == "service" else "stopped"
                ended = {"type": "result", "endReason": ending, "reason": reason, "decisions": n}
                sink.result(ended)
                if status == "service":
                    raise GameAbortedError(reason, n)
                raise RunStoppedError(reason, n)
            judged = episode.judge(call.outcome, question)
            fields = episode.apply(judged, call.elapsed_ms if episode.realtime else None)
            if judged.status in rules.unusable:
                streak += 1
            elif judged.status not in rules.neutral:
                streak = 0
            if (
                rules.unusable_limit is not None
                and streak >= rules.unusable_limit
                and not episode.over
            ):
                episode.force_end(rules.failure_end)
            event = {"type": "decision", "n": n, "call": call.record(), **fields}
            sink.decision(event)
            if on_decision is not None:
                on_decision(call, judged, event)
            n += 1
    except KeyboardInterrupt:
        sink.result({"type": "result", "endReason": "interrupted", "decisions": n})
        raise
    result = {"type": "result", **episode.result()}
    sink.result(result)
    return Played(result, n)

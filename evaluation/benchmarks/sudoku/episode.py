"""One grid as an episode of the one loop (`evaluation/core/episode.py`).

The grid is sent once. A reply with no readable grid (`invalid`) gets one retry; any readable grid
is the answer and is graded cell by cell (`scoring.score_answer`), whatever it holds. A policy
error ends the grid unsolved, without a retry (it is not a formatting slip). A failure on our
side (`service`, `stop`) aborts the grid: never counted, played again on resume
(`docs/rules/failures.md`). A timeout is one (protocol `sudoku-protocol@2`): the model "can
think as long as its settings allow", so `--timeout-s` is only a safety net against a request
that hangs (`Rules.timeout_aborts`).

Answers are recorded, and judged, in one JSON form (`wire_answer`): `{"grid": 81 digits,
"confidence": number or null}` or `{"unreadable": reason}`, so `arcade-eval verify` re-judges
exactly what was played.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from arcade_gym.sudoku.contract import SudokuQuestion, SudokuVerdict, validate
from arcade_gym.sudoku.rules import GRADER_VERSION
from evaluation.benchmarks.sudoku.defaults import BENCHMARK_ID, DEFAULT_TIMEOUT_MS, MAX_ATTEMPTS
from evaluation.benchmarks.sudoku.scoring import GridScore, score_answer
from evaluation.core.episode import Call, Judged, LiveCaller, Rules, play_episode
from evaluation.core.eventlog import GameLog, header_event
from evaluation.core.policy_call import CallOutcome
from evaluation.core.policy_identity import policy_identity
from policies.base import DecisionContext

PROTOCOL_VERSION = "sudoku-protocol@2"
"""A timeout aborts the grid and results carry the accuracy by tier needed (`byNeed`); logs made
before (no `protocol` in their header, a timeout left the grid unsolved) are not replayed."""
RECORD_KEYS = ("id", "tier", "puzzle", "solution")
"""The fields of a set record a log header carries (checked against the set on replay)."""


def wire_answer(answer: object, question: object = None) -> dict[str, Any]:
    """The JSON form an answer is recorded and judged in (see the module docstring). An LLM
    lane's `{"unreadable": why}` keeps its reason."""
    if isinstance(answer, Mapping) and "grid" not in answer and "unreadable" in answer:
        return {"unreadable": str(answer["unreadable"])[:500]}
    verdict = validate(answer)
    if verdict.usable:
        return {"grid": verdict.grid, "confidence": verdict.confidence}
    return {"unreadable": verdict.reason or "no readable grid"}


class WireAnswers:
    """A policy whose answers come in their recorded form (what `verify` compares with)."""

    def __init__(self, policy: Any) -> None:
        self.policy = policy

    def act(self, question: SudokuQuestion, ctx: DecisionContext) -> Any:
        return wire_answer(self.policy.act(question, ctx))


class GridEpisode:
    """One grid: at most two calls (the retry), then the grade."""

    rules = Rules(unusable=frozenset(), timeout_aborts=True)  # the retry rule is the episode's
    realtime = False

    def __init__(
        self,
        record: dict[str, Any],
        set_version: str,
        timeout_ms: float | None = DEFAULT_TIMEOUT_MS,
    ) -> None:
        self.record = record
        self.timeout_ms = timeout_ms
        self._question = SudokuQuestion.from_puzzle(record["puzzle"], record["id"], set_version)
        self.attempts = 0
        self.score: GridScore | None = None
        self.end_reason: str | None = None

    @property
    def over(self) -> bool:
        return self.end_reason is not None

    def question(self) -> SudokuQuestion:
        return self._question

    def call_limit_ms(self) -> float | None:
        return self.timeout_ms

    def judge(self, call: CallOutcome, question: Any) -> Judged:
        if call.status != "ok":  # a timeout never gets here (it aborts the grid)
            return Judged("error", None, f"{call.status}: {call.error}")
        verdict = validate(call.answer)
        return Judged("valid" if verdict.usable else "invalid", verdict, verdict.reason)

    def apply(self, judged: Judged, elapsed_ms: float | None) -> dict[str, Any]:
        self.attempts += 1
        verdict: SudokuVerdict | None = judged.verdict
        if judged.status == "valid" and verdict is not None:
            self.score = score_answer(self.record, verdict.grid, verdict.confidence)
            self.end_reason = "answered"
        elif judged.status != "invalid" or self.attempts >= MAX_ATTEMPTS:
            self.score = score_answer(self.record, None, None)
            self.end_reason = "unreadable" if judged.status == "invalid" else judged.status
        fields: dict[str, Any] = {
            "gridId": self.record["id"],
            "attempt": self.attempts,
            "status": judged.status,
            "reason": judged.reason,
            "answer": verdict.grid if verdict is not None else None,
            "confidence": verdict.confidence if verdict is not None else None,
        }
        if self.score is not None:
            fields["outcome"] = self.score.outcome
            fields["cellsRight"] = self.score.cells_right
        return fields

    def force_end(self, reason: str) -> None:
        if self.end_reason is None:
            self.end_reason = reason
            self.score = score_answer(self.record, None, None)

    def result(self) -> dict[str, Any]:
        score = self.score if self.score is not None else score_answer(self.record, None, None)
        return {
            "endReason": self.end_reason,
            "score": int(score.solved),
            "attempts": self.attempts,
            **score.to_dict(),
        }


def settings_of(record: dict[str, Any], timeout_ms: float | None) -> dict[str, Any]:
    """The header settings a grid is rebuilt from (checked against the set on replay)."""
    return {"grid": {k: record[k] for k in RECORD_KEYS}, "timeoutMs": timeout_ms}


def play_sudoku_grid(
    policy: Any,
    record: dict[str, Any],
    log_path: str | Path,
    *,
    set_version: str,
    timeout_ms: float | None = DEFAULT_TIMEOUT_MS,
) -> dict[str, Any]:
    """Play one grid, recording it at `log_path` (which must not exist yet).

    Returns the result line's fields plus `calls`: per call its `latencyMs` (wall time, which a
    replay cannot re-derive) and the policy's usage (tokens, cost) when it reports any. Raises
    `GameAbortedError` / `RunStoppedError` for failures on our side and propagates Ctrl-C, after
    the log's incomplete result line.
    """
    episode = GridEpisode(record, set_version, timeout_ms)
    calls: list[dict[str, Any]] = []

    def count(call: Call, judged: Judged, event: dict[str, Any]) -> None:
        ms = call.outcome.latency_ms  # not timed when the reply came from the response cache
        timed = math.isfinite(ms) and not call.cached
        entry: dict[str, Any] = {"latencyMs": round(ms, 3) if timed else None}
        usage = event["call"].get("usage")
        if usage:
            entry["usage"] = usage
        calls.append(entry)

    with GameLog(log_path) as log:
        log.write(
            header_event(
                benchmark=BENCHMARK_ID,
                versions={
                    "protocol": PROTOCOL_VERSION,
                    "set": set_version,
                    "grader": GRADER_VERSION,
                },
                seed=str(record["seed"]),
                policy=policy_identity(policy),
                settings=settings_of(record, timeout_ms),
            )
        )
        played = play_episode(
            episode,
            LiveCaller(policy, wire=wire_answer),
            log,
            on_decision=count,
        )
    result = {k: v for k, v in played.result.items() if k != "type"}
    return {**result, "calls": calls}

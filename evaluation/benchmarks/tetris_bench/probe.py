"""The probe: ten fixed positions where a careful brain can avoid adding a hole.

A brain passes when, on every position and under both candidate orders (as generated, and
reversed), the placement it chooses adds no hole. Hold is not offered, so every answer places.
An LLM brain's report also says what its twenty calls used: tokens in and out, and the cost
(`n/a` when no call was priced).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arcade_gym.seeds import load_json
from arcade_gym.tetris.contract import AgentInput, validate
from arcade_gym.tetris.game import TetrisGame
from evaluation.core.episode import LiveCaller
from evaluation.core.money import usd

PROBE_FILE = "tetris/probe-v1.json"


@dataclass(frozen=True)
class ProbeCase:
    """One position under one candidate order, and what the brain did with it."""

    position: str
    order: str  # "as-listed" | "reversed"
    chosen: tuple[int, int] | None
    adds_hole: bool
    verdict: str
    reason: str | None

    @property
    def passed(self) -> bool:
        return self.chosen is not None and not self.adds_hole


@dataclass(frozen=True)
class ProbeUsage:
    """What a brain's calls reported: tokens and dollars (None: no call was priced)."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float | None = None

    def add(self, telemetry: Any) -> ProbeUsage:
        """These totals plus one call's telemetry (`promptTokens`, `completionTokens`,
        `costUsd`; anything else is ignored)."""
        if not isinstance(telemetry, dict):
            return self
        cost = _number(telemetry.get("costUsd"))
        return ProbeUsage(
            self.calls + 1,
            self.prompt_tokens + int(_number(telemetry.get("promptTokens")) or 0),
            self.completion_tokens + int(_number(telemetry.get("completionTokens")) or 0),
            self.cost_usd if cost is None else (self.cost_usd or 0.0) + cost,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "calls": self.calls,
            "promptTokens": self.prompt_tokens,
            "completionTokens": self.completion_tokens,
            "costUsd": self.cost_usd,
        }

    def text(self) -> str:
        """`tokens 1,234 in / 56 out, cost $0.0012` (a dash for a brain that reports none)."""
        if not self.calls:
            return "tokens —, cost —"
        return (
            f"tokens {self.prompt_tokens:,} in / {self.completion_tokens:,} out, "
            f"cost {usd(self.cost_usd)}"
        )


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        return None
    return float(value)


@dataclass(frozen=True)
class ProbeReport:
    """All twenty cases of one brain, and what its calls used."""

    brain: str
    probe_set: str
    cases: list[ProbeCase]
    usage: ProbeUsage = ProbeUsage()

    @property
    def passed(self) -> bool:
        return all(case.passed for case in self.cases)

    def to_dict(self) -> dict[str, Any]:
        return {
            "brain": self.brain,
            "probeSet": self.probe_set,
            "passed": self.passed,
            "usage": self.usage.to_dict(),
            "cases": [
                {
                    "position": c.position,
                    "order": c.order,
                    "chosen": None
                    if c.chosen is None
                    else {"x": c.chosen[0], "rotation": c.chosen[1]},
                    "addsHole": c.adds_hole,
                    "verdict": c.verdict,
                    "reason": c.reason,
                    "passed": c.passed,
                }
                for c in self.cases
            ],
        }


def probe_questions() -> tuple[str, list[tuple[str, AgentInput]]]:
    """The probe set's id and its questions (position id, question as listed)."""
    data = load_json(PROBE_FILE)
    out = []
    for position in data["positions"]:
        game = TetrisGame.from_position(
            position["rows"], position["active"], position["next"], can_hold=False
        )
        out.append((position["id"], game.question()))
    return data["probeSet"], out


def _reversed(question: AgentInput) -> AgentInput:
    candidates = list(reversed(question.candidates))
    return question.model_copy(
        update={"candidates": candidates, "legal": [c.placement for c in candidates]}
    )


def run_probe(policy: Any, *, budget_ms: float = 20_000) -> ProbeReport:
    """Ask the brain every probe question in both orders; record what it chose and what its
    calls reported (through the episode loop's caller, so the telemetry is read one way)."""
    probe_set, questions = probe_questions()
    cases: list[ProbeCase] = []
    caller = LiveCaller(policy)
    usage = ProbeUsage()
    for position_id, question in questions:
        holes_now = question.features.holes
        for order, q in (("as-listed", question), ("reversed", _reversed(question))):
            call = caller.call(q, budget_ms, False)
            outcome = call.outcome
            if call.telemetry is not None:
                usage = usage.add(dict(call.telemetry))
            verdict = validate(outcome.answer, q)
            chosen = None
            adds_hole = False
            if verdict.usable and verdict.placement is not None:
                chosen = (verdict.placement.x, verdict.placement.rotation)
                picked = next(c for c in q.candidates if c.placement == verdict.placement)
                adds_hole = picked.features.holes > holes_now
            reason = verdict.reason if outcome.status == "ok" else outcome.error
            status = verdict.status if outcome.status == "ok" else outcome.status
            cases.append(ProbeCase(position_id, order, chosen, adds_hole, status, reason))
    return ProbeReport(getattr(policy, "slug", "?"), probe_set, cases, usage)


def format_report(report: ProbeReport) -> str:
    """One line per case and a verdict line."""
    lines = [f"probe {report.probe_set}: brain {report.brain}"]
    for c in report.cases:
        what = "no answer" if c.chosen is None else f"x={c.chosen[0]} rot={c.chosen[1]}"
        mark = "ok  " if c.passed else "FAIL"
        detail = "adds a hole" if c.adds_hole else (c.reason or "")
        lines.append(f"  {mark} {c.position} {c.order:<9} {what:<14} {detail}")
    if report.usage.calls:
        lines.append(f"  {report.usage.text()}")
    lines.append("PASSED" if report.passed else "FAILED")
    return "\n".join(lines)


def format_summary(reports: list[ProbeReport]) -> str:
    """One line per brain: cases passed, tokens and cost (several brains probed at once)."""
    width = max(len(r.brain) for r in reports)
    lines = [f"probe summary ({len(reports)} brains)"]
    for r in reports:
        passed = sum(c.passed for c in r.cases)
        verdict = "PASSED" if r.passed else "FAILED"
        lines.append(
            f"  {r.brain:<{width}}  {passed:>2}/{len(r.cases)} {verdict}  {r.usage.text()}"
        )
    return "\n".join(lines)

"""The probe: ten fixed positions where a careful brain can avoid adding a hole.

A brain passes when, on every position and under both candidate orders (as generated, and
reversed), the placement it chooses adds no hole. Hold is not offered, so every answer places.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arcade_gym.seeds import load_json
from arcade_gym.tetris.contract import AgentInput, validate
from arcade_gym.tetris.game import TetrisGame
from evaluation.core.policy_call import call_policy
from policies.base import DecisionContext

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
class ProbeReport:
    """All twenty cases of one brain."""

    brain: str
    probe_set: str
    cases: list[ProbeCase]

    @property
    def passed(self) -> bool:
        return all(case.passed for case in self.cases)

    def to_dict(self) -> dict[str, Any]:
        return {
            "brain": self.brain,
            "probeSet": self.probe_set,
            "passed": self.passed,
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
    """Ask the brain every probe question in both orders; record what it chose."""
    probe_set, questions = probe_questions()
    cases: list[ProbeCase] = []
    for position_id, question in questions:
        holes_now = question.features.holes
        for order, q in (("as-listed", question), ("reversed", _reversed(question))):
            outcome = call_policy(policy, q, DecisionContext.with_budget(budget_ms), budget_ms)
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
    return ProbeReport(getattr(policy, "slug", "?"), probe_set, cases)


def format_report(report: ProbeReport) -> str:
    """One line per case and a verdict line."""
    lines = [f"probe {report.probe_set}: brain {report.brain}"]
    for c in report.cases:
        what = "no answer" if c.chosen is None else f"x={c.chosen[0]} rot={c.chosen[1]}"
        mark = "ok  " if c.passed else "FAIL"
        detail = "adds a hole" if c.adds_hole else (c.reason or "")
        lines.append(f"  {mark} {c.position} {c.order:<9} {what:<14} {detail}")
    lines.append("PASSED" if report.passed else "FAILED")
    return "\n".join(lines)

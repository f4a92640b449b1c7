"""The probe: ten fixed positions where a careful brain adds no hole, in both candidate orders."""

from __future__ import annotations

import pytest

from arcade_gym.tetris.contract import AgentAnswer, AgentInput
from evaluation.benchmarks.tetris_bench.probe import probe_questions, run_probe
from policies.base import DecisionContext
from policies.tetris import make_brain


def test_every_probe_position_has_a_hole_free_candidate_and_no_hold() -> None:
    probe_set, questions = probe_questions()
    assert probe_set == "probe-v1" and len(questions) == 10
    for _, q in questions:
        assert not q.can_hold
        holes = q.features.holes
        assert any(c.features.holes <= holes for c in q.candidates)
        assert any(c.features.holes > holes for c in q.candidates)


@pytest.mark.parametrize("slug", ["heuristic", "search"])
def test_the_heuristic_and_search_brains_pass_the_probe(slug: str) -> None:
    report = run_probe(make_brain(slug))
    assert len(report.cases) == 20
    assert report.passed, [c for c in report.cases if not c.passed]


class _HoleDigger:
    """Always picks a candidate that adds a hole: the brain the probe exists to catch."""

    slug = name = "digger"
    description = "adds holes"
    kind = "baseline"
    adapter_version = "1"

    def act(self, q: AgentInput, ctx: DecisionContext) -> AgentAnswer:
        worst = max(q.candidates, key=lambda c: c.features.holes)
        return AgentAnswer.single(q.state_hash, worst.placement)


def test_a_brain_that_adds_holes_fails_and_the_report_names_the_cases() -> None:
    report = run_probe(_HoleDigger())
    assert not report.passed
    assert all(c.adds_hole for c in report.cases)
    assert report.to_dict()["passed"] is False

"""The suite runner with stand-in benchmarks: each part gets what the others left of the cap, a
stop ends the suite resumably, a resume keeps finished parts without entering them again."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from evaluation.core.errors import RunError
from evaluation.core.registry import Benchmark, Replay
from evaluation.suite import runner
from evaluation.suite.part import Cell, Headline, Part, SuiteRequest

CALLS: list[tuple[str, float | None]] = []


def _benchmark(name: str, spend: float, *, stop_above: float | None = None) -> Benchmark:
    def play(request: SuiteRequest) -> Part:
        CALLS.append((name, request.max_cost_usd))
        request.output_dir.mkdir(parents=True, exist_ok=True)
        stopped = stop_above is not None and (request.max_cost_usd or 0) < stop_above
        cells = [Cell(p, p, headlines=[Headline("score", 1.0)]) for p in request.policies]
        part = Part(name, "stopped" if stopped else "complete", int(stopped), cells, "")
        part.spent_usd = min(spend, request.max_cost_usd or spend)
        part.stop_reason = "CostCapReached: the next call could pass it" if stopped else None
        return part

    def replay(contents: Any) -> Replay:
        raise ValueError("nothing to replay")

    return Benchmark(name, "", (name,), lambda sub: None, replay, suite=play)


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> None:
    made = [_benchmark("a", 0.3), _benchmark("b", 0.3, stop_above=0.5), _benchmark("c", 0.1)]
    monkeypatch.setattr(runner, "benchmarks", lambda: made)
    CALLS.clear()


def _settings() -> runner.SuiteSettings:
    return runner.SuiteSettings(("random",), "quick", ("a", "b", "c"))


def test_each_part_gets_what_the_others_left_and_a_stop_ends_the_suite(
    fake: None, tmp_path: Path
) -> None:
    out = runner.run_suite(_settings(), tmp_path, cap_usd=0.7, say=lambda line: None)
    assert [("a", 0.7), ("b", pytest.approx(0.4))] == CALLS
    assert out.stopped is not None and out.stopped.benchmark == "b"
    assert out.missing == ["b", "c"] and out.spent_usd <= 0.7
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["status"] == "interrupted" and manifest["costCapUsd"] == 0.7

    CALLS.clear()  # a raised cap: the finished part is kept, not entered again
    out = runner.run_suite(_settings(), tmp_path, cap_usd=2.0, say=lambda line: None)
    assert [("b", pytest.approx(1.7)), ("c", pytest.approx(1.4))] == CALLS
    assert out.stopped is None and out.missing == []
    assert json.loads((tmp_path / "manifest.json").read_text())["status"] == "complete"


def test_another_suite_in_the_directory_is_refused(fake: None, tmp_path: Path) -> None:
    runner.run_suite(_settings(), tmp_path, say=lambda line: None)
    other = runner.SuiteSettings(("heuristic",), "quick", ("a", "b", "c"))
    with pytest.raises(RunError, match="holds another run"):
        runner.run_suite(other, tmp_path, say=lambda line: None)


def test_an_unknown_benchmark_names_the_known_ones(fake: None) -> None:
    with pytest.raises(RunError, match="choose from a, b, c"):
        runner.choose("a,zzz")

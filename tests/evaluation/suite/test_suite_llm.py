"""An LLM suite against a chat server on 127.0.0.1: one --max-cost-usd across the benchmarks
(stops resumable, in one line naming the suite's own resume command), and a scorecard with the
tokens and cost of every benchmark."""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest

from evaluation import cli
from evaluation.core.verify import verify_paths
from tests.evaluation.model_server import Endpoint, endpoint

BENCHMARKS = "ttt-arena,sudoku"
"""Two benchmarks whose reference built-ins are quick (Tetris Bench's `search` takes a while)."""


@pytest.fixture
def model() -> Iterator[Endpoint]:
    with endpoint() as live:
        yield live


def _argv(models: Path, run: Path, *more: str, benchmarks: str = BENCHMARKS) -> list[str]:
    return [
        "suite", "--policy", "llm:mock", "--models-file", str(models),
        "--benchmarks", benchmarks, "--output-dir", str(run), "--quiet", *more,
    ]  # fmt: skip


def _card(run: Path) -> dict:
    return json.loads((run / "scorecard.json").read_text())


@pytest.mark.slow
def test_one_cost_cap_across_the_suite(
    model: Endpoint, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    models = model.models_file(tmp_path)
    free = tmp_path / "free"
    assert cli.main(_argv(models, free)) == 0
    capsys.readouterr()
    cells = _card(free)["rows"][0]["cells"]
    costs = {name: cell["costUsd"] for name, cell in cells.items()}
    for cell in cells.values():  # tokens and cost for every benchmark
        assert cell["status"] == "ok" and cell["costUsd"] > 0
        assert cell["promptTokens"] > 0 and cell["completionTokens"] > 0
    assert "in / " in (free / "scorecard.md").read_text()

    cap = round(costs["ttt-arena"] / 2, 6)  # stops inside the first benchmark
    run = tmp_path / "run"
    asked = model.state.completions
    assert cli.main(_argv(models, run, "--max-cost-usd", str(cap))) == 1
    out = capsys.readouterr()
    lines = [line for line in out.err.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in out.err, lines
    line = lines[0]
    assert line.startswith(f"stopped: the cost cap --max-cost-usd {cap:g} is reached")
    resume = shlex.split(line.rsplit(": ", 1)[1])
    assert resume[:2] == ["arcade-eval", "suite"]
    assert resume[resume.index("--max-cost-usd") + 1] == f"{cap * 2:g}"
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["status"] == "interrupted" and manifest["spentUsd"] <= cap
    assert _card(run)["rows"][0]["cells"]["sudoku"]["status"] == "not started"

    again = model.state.completions
    assert cli.main(_argv(models, run, "--max-cost-usd", str(cap))) == 1  # same cap: at once
    assert [x for x in capsys.readouterr().err.splitlines() if x.strip()] == [line]
    assert model.state.completions - again <= 1  # at most the pre-flight

    assert cli.main(_argv(models, run, "--max-cost-usd", "1")) == 0
    capsys.readouterr()
    cells = _card(run)["rows"][0]["cells"]
    assert all(cell["status"] == "ok" and cell["costUsd"] > 0 for cell in cells.values())
    assert all(report.ok for report in verify_paths([run]))
    assert model.state.completions > asked


@pytest.mark.slow
def test_the_cap_left_by_one_benchmark_is_what_the_next_one_gets(
    model: Endpoint, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    models = model.models_file(tmp_path)
    pair = "ttt-arena,narcade"
    free = tmp_path / "free"
    assert cli.main(_argv(models, free, benchmarks=pair)) == 0
    capsys.readouterr()
    costs = {n: c["costUsd"] for n, c in _card(free)["rows"][0]["cells"].items()}
    assert costs["narcade"] > costs["ttt-arena"] / 2

    cap = round(costs["ttt-arena"] * 1.5, 6)  # all of the arena, part of NARCADE
    run = tmp_path / "run"
    assert cli.main(_argv(models, run, "--max-cost-usd", str(cap), benchmarks=pair)) == 1
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(err) == 1 and err[0].startswith(f"stopped: the cost cap --max-cost-usd {cap:g}")
    parts = json.loads((run / "manifest.json").read_text())["parts"]
    assert parts["ttt-arena"]["status"] == "complete"
    assert parts["narcade"]["status"] == "stopped"
    assert parts["narcade"]["spent_usd"] > 0
    assert sum(p["spent_usd"] for p in parts.values()) <= cap

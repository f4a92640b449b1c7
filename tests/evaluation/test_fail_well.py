"""LLM runs that fail well, through `arcade-eval` against a model server on 127.0.0.1 that the
test kills mid-run and brings back (`tests/evaluation/model_server.py`):

- a dead endpoint stops the run after 3 games in a row aborted on our side: exit 1, one line
  naming the cause and the exact resume command; that command (server back) finishes the run and
  every log verifies (Tetris Bench, the tic-tac-toe arena and Sudoku, through the one
  `play_grid`);
- a resume with a changed temperature is refused in one line naming it, exit 2, no traceback;
- the cost cap stops the run in one line naming the cap and the amount spent, and repeating
  the command stops again at once with the same line.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest

from evaluation import cli
from evaluation.core.verify import verify_paths
from tests.evaluation.model_server import Endpoint, endpoint

RUNS = {
    "tetris-bench": ["--seeds", "4", "--modes", "iq", "--budget-ms", "1500"],
    "ttt-arena": ["--timeout-ms", "1000"],
    "sudoku": ["--tiers", "1", "--timeout-ms", "1500"],
    "narcade": [
        "--games",
        "snake",
        "--episodes",
        "5",
        "--mode",
        "lockstep",
        "--max-decisions",
        "4",
        "--timeout-ms",
        "1500",
        "--in-process",
    ],
}
"""Each benchmark's command, kept quick (a dead endpoint costs a game its deadline)."""
KILL_AFTER = {"tetris-bench": 6, "ttt-arena": 40, "sudoku": 3, "narcade": 6}
"""Completions (the pre-flight included) before the server dies: inside the first game of Tetris
Bench, after some arena positions, after two Sudoku grids."""


@pytest.fixture
def model() -> Iterator[Endpoint]:
    with endpoint() as live:
        yield live


def _command(bench: str, models: Path) -> list[str]:
    return [bench, "--policy", "llm:mock", *RUNS[bench], "--models-file", str(models), "--quiet"]


def _one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, lines
    assert "Traceback" not in err
    return lines[0]


@pytest.mark.parametrize(
    "bench",
    [
        "tetris-bench",
        pytest.param("ttt-arena", marks=pytest.mark.slow),
        pytest.param("sudoku", marks=pytest.mark.slow),
        pytest.param("narcade", marks=pytest.mark.slow),
    ],
)
def test_a_dead_endpoint_stops_the_run_and_the_printed_command_finishes_it(
    bench: str, model: Endpoint, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "run"
    models = model.models_file(tmp_path)
    model.kill_after(KILL_AFTER[bench])
    argv = [*_command(bench, models), "--output-dir", str(run)]
    assert cli.main(argv) == 1
    line = _one_line(capsys.readouterr().err)
    prefix = "arcade-eval narcade: " if bench == "narcade" else ""  # NARCADE names itself
    assert line.startswith(f"{prefix}stopped: 3 games of llm:mock in a row were aborted by")
    assert "cannot reach" in line and "nothing was counted against the policy" in line
    resume = shlex.split(line.split("resume with: ", 1)[1])
    assert resume == ["arcade-eval", *argv]
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["status"] == "interrupted" and "in a row" in manifest["stopReason"]
    assert manifest["missing"] and len(manifest["aborted"]) == 3

    model.revive()
    assert cli.main(resume[1:]) == 0
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["status"] == "complete" and not manifest["missing"]
    reports = verify_paths([run / "logs"])
    assert reports and all(report.ok for report in reports)
    capsys.readouterr()
    assert cli.main(["verify", str(run / "logs")]) == 0  # as a user checks it


@pytest.mark.slow
def test_the_resume_command_names_the_output_directory_it_chose(
    model: Endpoint,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A run given no --output-dir gets one; the printed command names it, so it resumes."""
    monkeypatch.chdir(tmp_path)
    models = model.models_file(tmp_path)
    model.kill_after(KILL_AFTER["tetris-bench"])
    argv = _command("tetris-bench", models)
    assert cli.main(argv) == 1
    resume = shlex.split(_one_line(capsys.readouterr().err).split("resume with: ", 1)[1])
    assert resume[:-2] == ["arcade-eval", *argv] and resume[-2] == "--output-dir"
    assert (tmp_path / resume[-1] / "manifest.json").is_file()


@pytest.mark.parametrize(
    ("bench", "more"),
    [
        ("tetris-bench", ["--seeds", "1", "--modes", "iq"]),
        ("sudoku", ["--tiers", "1"]),
        ("ttt-arena", []),
    ],
)
def test_a_resume_with_a_changed_temperature_is_one_line_naming_it(
    bench: str,
    more: list[str],
    model: Endpoint,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    run = tmp_path / "run"
    models = model.models_file(tmp_path, temperature=0.0)
    argv = [bench, "--policy", "llm:mock", *more, "--models-file", str(models)]
    argv += ["--output-dir", str(run), "--quiet"]
    assert cli.main(argv) == 0
    capsys.readouterr()
    model.models_file(tmp_path, temperature=0.7)
    assert cli.main(argv) == 2
    line = _one_line(capsys.readouterr().err)
    assert line.startswith(f"arcade-eval {bench}: ")
    assert "llm:mock: temperature 0.0 -> 0.7" in line and "restore them to resume" in line


def test_the_cost_cap_stops_in_one_line_naming_the_cap_and_the_spent_amount(
    model: Endpoint, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "run"
    models = model.models_file(tmp_path)
    argv = ["tetris-bench", "--policy", "llm:mock", "--seeds", "2", "--modes", "iq"]
    argv += ["--models-file", str(models), "--max-cost-usd", "0.002", "--output-dir", str(run)]
    argv += ["--quiet"]
    assert cli.main(argv) == 1
    line = _one_line(capsys.readouterr().err)
    assert line.startswith("stopped: the cost cap --max-cost-usd 0.002 is reached ($0.00")
    spent = json.loads((run / "manifest.json").read_text())["spentUsd"]
    assert 0 < spent <= 0.002
    assert "spent of $0.0020" in line and "raise the cap" in line
    resume = shlex.split(line.rsplit(": ", 1)[1])
    assert resume[resume.index("--max-cost-usd") + 1] == "0.004"

    asked = model.state.completions
    assert cli.main(argv) == 1  # the same cap: the same line at once
    assert _one_line(capsys.readouterr().err) == line
    assert model.state.completions - asked <= 1  # at most the pre-flight


def test_narcade_says_its_cost_cap_stop_the_same_way(
    model: Endpoint, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "run"
    models = model.models_file(tmp_path)
    argv = [*_command("narcade", models), "--max-cost-usd", "0.0002", "--output-dir", str(run)]
    assert cli.main(argv) == 1
    line = _one_line(capsys.readouterr().err)
    assert line.startswith("arcade-eval narcade: stopped: the cost cap --max-cost-usd 0.0002 is")
    assert "spent of $0.00020" in line and "--max-cost-usd 0.0004" in line

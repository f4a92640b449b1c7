"""`arcade-eval suite` as a user meets it: a policy with no route is "not applicable" (never a
failure), and bad requests are one line, exit 2, no traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaluation import cli


def _err_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in err, lines
    return lines[0]


def test_no_route_is_not_applicable_never_a_failure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "run"
    argv = ["suite", "--policy", "solver", "--benchmarks", "sudoku,chess-ladder", "--quiet"]
    assert cli.main([*argv, "--output-dir", str(run)]) == 0
    out = capsys.readouterr().out
    assert "| solver | 100.0 [85.7, 100.0] (norm 100) | not applicable |" in out
    card = json.loads((run / "scorecard.json").read_text())
    chess = card["rows"][0]["cells"]["chess-ladder"]
    assert chess["status"] == "not applicable" and "not a chess built-in" in chess["note"]
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["parts"]["chess-ladder"]["status"] == "not applicable"
    assert not (run / "chess-ladder").exists()  # nothing was started for it
    assert cli.main([*argv, "--output-dir", str(run)]) == 0  # resumed: both parts kept
    assert json.loads((run / "scorecard.json").read_text()) == card


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--policy", "llm:no-such-model"], "arcade-eval suite: llm:no-such-model: unknown model"),
        (
            ["--policy", "random", "--benchmarks", "tetris-bench,x"],
            "--benchmarks x: choose from tetris-bench, ttt-arena",
        ),
        ([], "give --policy SPEC"),
        (["--policy", "random", "--max-cost-usd", "0"], "--max-cost-usd must be a positive"),
        (
            ["--policy", "random", "--max-cost-usd", "1", "--executor", "ray"],
            "needs --executor local",
        ),
    ],
)
def test_a_bad_request_is_one_line(
    argv: list[str], says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    command = ["suite", *argv] + ([] if "--benchmarks" in argv else ["--benchmarks", "sudoku"])
    assert cli.main([*command, "--output-dir", str(tmp_path / "run"), "--quiet"]) == 2
    assert says in _err_line(capsys)

"""Failures on our side never count: an aborted game is set aside and played by the next run; a
stop ends the run resumably (exit 130); either way the finished run equals an uninterrupted one."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from evaluation import cli
from evaluation.core.verify import verify_paths
from tests.evaluation.ttt_arena import flaky

SPEC = "py:tests.evaluation.ttt_arena.flaky:make"


@pytest.fixture
def failing() -> Iterator[None]:
    yield
    flaky.FAIL_ON.clear()
    flaky.FAIL_KIND = "service"


def command(run: Path) -> list[str]:
    return ["ttt-arena", "--policy", SPEC, "--output-dir", str(run)]


def finished_like_the_tactician(run: Path) -> None:
    reports = verify_paths([run / "logs"])
    assert len(reports) == 212 and all(r.ok for r in reports)
    report = json.loads((run / "report.json").read_text())["reports"][0]
    assert (report["score"], report["grade"], report["illegalMoves"]) == (92.5, "A", [])


def test_an_aborted_game_is_set_aside_and_played_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], failing: None
) -> None:
    run = tmp_path / "run"
    flaky.FAIL_ON.update({5, 200})
    assert cli.main(command(run)) == 1
    err = capsys.readouterr().err
    assert err.count("aborted (not counted)") == 2 and "HTTP 503" in err
    assert not (run / "report.json").exists()
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["status"] == "aborted" and len(manifest["missing"]) == 2
    assert len(list((run / "logs").rglob("*.jsonl.aborted-1"))) == 2
    flaky.FAIL_ON.clear()
    assert cli.main(command(run)) == 0
    finished_like_the_tactician(run)


def test_a_stop_ends_the_run_resumably(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], failing: None
) -> None:
    run = tmp_path / "run"
    flaky.FAIL_ON.add(30)
    flaky.FAIL_KIND = "stop"
    assert cli.main(command(run)) == 1  # a stop on our side (`evaluation/core/run_exit.py`)
    err = capsys.readouterr().err
    assert err.startswith("stopped: RunStopError: the cost cap is reached; 183 games missing.")
    assert f"resume with: arcade-eval {' '.join(command(run))}" in err
    assert len(list((run / "results").rglob("*.json"))) == 29
    flaky.FAIL_ON.clear()
    assert cli.main([*command(run), "--resume"]) == 0
    finished_like_the_tactician(run)

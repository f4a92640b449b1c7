"""A NARCADE header cannot size its replay: caps, timeouts and the failure streak outside the run
limits are refused naming the field before the game is built; the run options take the same
limits, and planted result files are read within bounds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from evaluation.benchmarks.narcade.results import read_json
from evaluation.benchmarks.narcade.settings import make_settings
from evaluation.core.errors import RunError
from evaluation.core.verify import verify_log
from tests.evaluation.narcade.conftest import result


def _log_with(run_dir: Path, tmp_path: Path, game: str, key: str, value: Any) -> Path:
    source = run_dir / result(run_dir, "random", game)["episodes"][0]["log"]
    lines = source.read_text().splitlines()
    header = json.loads(lines[0])
    header["settings"][key] = value
    log = tmp_path / "log.jsonl"
    log.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    return log


@pytest.mark.parametrize(
    ("game", "key", "value"),
    [
        ("tetris", "maxDecisions", 3e9),
        ("tetris", "maxDecisions", 3_000_000_000),
        ("snake", "maxDecisions", 0),
        ("tetris", "maxPieces", 3_000_000_000),
        ("tetris", "maxPieces", -1),
        ("tetris", "maxSeconds", float("nan")),
        ("minesweeper", "timeoutMs", float("nan")),
        ("minesweeper", "timeoutMs", float("inf")),
        ("snake", "timeoutMs", -1),
        ("snake", "failureStreak", 10**12),
    ],
)
def test_a_header_field_outside_the_limits_fails_verify_naming_it(
    run_dir: Path, tmp_path: Path, game: str, key: str, value: Any
) -> None:
    report = verify_log(_log_with(run_dir, tmp_path, game, key, value))
    assert report.status == "fail" and f"settings.{key}" in report.message


def test_the_logs_of_a_run_still_verify(run_dir: Path) -> None:
    source = run_dir / result(run_dir, "random", "tetris")["episodes"][0]["log"]
    assert verify_log(source).ok


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("max_decisions", 10**12),
        ("max_pieces", 10**12),
        ("max_seconds", float("inf")),
        ("max_seconds", float("nan")),
        ("timeout_ms", float("inf")),
        ("timeout_ms", float("nan")),
        ("episodes", 10**11),
    ],
)
def test_run_options_outside_the_limits_are_refused(option: str, value: Any) -> None:
    options: dict[str, Any] = {
        "games": "snake",
        "episodes": 1,
        "seed": 100,
        "mode": "lockstep",
        "difficulty": "easy",
        "max_seconds": None,
        "max_pieces": None,
        "max_decisions": 100,
        "trace": False,
    }
    options[option] = value
    flag = "--" + option.replace("_", "-")
    with pytest.raises(RunError, match=flag):
        make_settings(**options)


def test_a_deeply_nested_result_file_is_a_value_error(tmp_path: Path) -> None:
    path = tmp_path / "snake.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ValueError, match="nested deeper"):
        read_json(path)

"""`arcade-eval chess` refuses NaN, negative, infinite or huge option values with one line and
exit 2, before any game starts; a log header with such a timeout does not verify (issue 20,
holes 7 and 8)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaluation.cli import main
from evaluation.core.verify import verify_log
from policies.chess import BUILTINS
from tests.evaluation.chess_ladder.test_protocol import _play


@pytest.mark.parametrize(
    ("flag", "value"),
    [
        ("--timeout-s", "nan"),
        ("--timeout-s", "-1"),
        ("--timeout-s", "inf"),
        ("--timeout-s", "-inf"),
        ("--timeout-s", "0"),
        ("--timeout-s", "1e300"),
        ("--games-per-rung", "99999999999999"),
        ("--games-per-rung", "0"),
        ("--games-per-rung", "2.5"),
        ("--grade-nodes", "-5"),
    ],
)
def test_bad_numbers_are_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flag: str, value: str
) -> None:
    out = tmp_path / "run"
    with pytest.raises(SystemExit) as stop:
        main(["chess-ladder", "--policy", "random", f"{flag}={value}", "--output-dir", str(out)])
    assert stop.value.code == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and flag in lines[0] and value in lines[0], captured.err
    assert "Traceback" not in captured.err and captured.out == ""
    assert not out.exists()  # nothing started


@pytest.mark.parametrize(
    ("field", "value", "match"),
    [
        ("gamesPerRung", 99_999_999_999_999, "games-per-rung"),
        ("timeoutMs", float("nan"), "timeout-s"),
        ("timeoutMs", -1.0, "timeout-s"),
        ("timeoutMs", float("inf"), "timeout-s"),
    ],
)
def test_run_ladder_refuses_the_same_values(
    tmp_path: Path, field: str, value: float, match: str
) -> None:
    from evaluation.benchmarks.chess_ladder.runner import run_ladder
    from evaluation.core.errors import RunError

    options = {"games_per_rung": value} if field == "gamesPerRung" else {"timeout_ms": value}
    with pytest.raises(RunError, match=match):
        run_ladder(["random"], lambda spec: BUILTINS[spec](), tmp_path / "run", **options)  # type: ignore[arg-type]
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("timeout", [-1, 0, "Infinity", "NaN", 1e300, "600", True])
def test_a_header_timeout_outside_the_limits_does_not_verify(
    tmp_path: Path, timeout: object
) -> None:
    log = tmp_path / "g.jsonl"
    _play(BUILTINS["greedy"]("v"), log)
    assert verify_log(log).ok
    lines = log.read_text().splitlines()
    header = json.loads(lines[0])
    header["settings"]["timeoutMs"] = timeout
    text = json.dumps(header)
    text = text.replace('"Infinity"', "Infinity").replace('"NaN"', "NaN")  # as a writer could
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([text, *lines[1:]]) + "\n")
    report = verify_log(bad)
    assert not report.ok and "timeoutMs" in report.message

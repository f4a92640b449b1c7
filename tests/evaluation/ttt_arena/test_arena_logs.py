"""Arena runs on the core: every game's log verifies, tampering fails at its decision, a killed run
resumes, and untrusted result files are set aside and the game played again."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from evaluation import cli
from evaluation.core.verify import verify_log, verify_paths
from tests.evaluation.ttt_arena.conftest import SharedRun

REPO = Path(__file__).resolve().parents[3]
GAMES = 188 + 24


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def write(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def logs_of(run: Path, spec: str) -> Path:
    return run / "logs" / spec


def test_every_log_of_a_run_verifies_and_built_ins_are_re_derived(arena_run: SharedRun) -> None:
    reports = verify_paths([arena_run.path / "logs"])
    assert len(reports) == 4 * GAMES
    assert all(r.ok for r in reports), [r.line() for r in reports if not r.ok][:3]
    for report in reports:
        builtin = "/text/" not in report.path
        assert ("answers re-derived" in report.message) == builtin, report.line()


def test_a_changed_match_answer_fails_at_its_decision(arena_run: SharedRun, tmp_path: Path) -> None:
    source = logs_of(arena_run.path, "text") / "matches" / "match-5-09.jsonl"
    records = lines(source)
    decision = records[3]  # decision 2
    assert decision["type"] == "decision" and decision["n"] == 2
    board = decision["board"]
    empty = [(r, c) for r, text in enumerate(board) for c, ch in enumerate(text) if ch == "."]
    row, col = empty[0]  # empty after the recorded move, so empty before it too
    decision["call"]["answer"] = f"{row} {col}"
    report = verify_log(write(tmp_path / "tampered.jsonl", records))
    assert report.status == "fail" and report.decision == 2, report.line()
    assert "at decision 2" in report.line()


def test_a_changed_position_answer_fails_at_its_decision(
    arena_run: SharedRun, tmp_path: Path
) -> None:
    source = logs_of(arena_run.path, "text") / "positions" / "fork-3-01.jsonl"
    records = lines(source)
    assert records[1]["passed"] is True
    records[1]["call"]["answer"] = "9 9"
    report = verify_log(write(tmp_path / "tampered.jsonl", records))
    assert report.status == "fail" and report.decision == 0, report.line()


def test_a_relabelled_built_in_log_fails(arena_run: SharedRun, tmp_path: Path) -> None:
    """The Tactician misses some forced wins in 5 that Perfect finds: its log named Perfect fails
    at the decision where their answers differ."""
    tactician = arena_run.reports["tactician"]
    missed = next(
        p.id for p in tactician.positions if p.category == "forced_win_5" and not p.passed
    )
    records = lines(logs_of(arena_run.path, "tactician") / "positions" / f"{missed}.jsonl")
    perfect = lines(logs_of(arena_run.path, "perfect") / "positions" / f"{missed}.jsonl")
    records[0]["policy"] = perfect[0]["policy"]
    report = verify_log(write(tmp_path / "relabelled.jsonl", records))
    assert report.status == "fail" and report.decision == 0
    assert "policy named in the header" in report.message


def test_an_edited_header_position_fails(arena_run: SharedRun, tmp_path: Path) -> None:
    records = lines(logs_of(arena_run.path, "random") / "positions" / "block-5-01.jsonl")
    records[0]["settings"]["item"]["expected"] = [[0, 0]]
    report = verify_log(write(tmp_path / "edited.jsonl", records))
    assert report.status == "fail" and "not an item of suite" in report.message


def results_in(run: Path) -> list[Path]:
    return sorted((run / "results").rglob("*.json"))


def test_a_killed_run_resumes_and_untrusted_results_are_replayed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "run"
    command = ["ttt-arena", "--policy", "greedy", "--output-dir", str(run)]
    child = subprocess.Popen(
        [sys.executable, "-m", "evaluation.cli", *command],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    try:
        deadline = time.monotonic() + 240
        while len(results_in(run)) < 40 and child.poll() is None:
            assert time.monotonic() < deadline, "the run never got going"
            time.sleep(0.05)
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    kept = len(results_in(run))
    assert 40 <= kept < GAMES, "the kill came too late to cut the run short"
    assert not (run / "report.json").exists()

    assert cli.main([*command, "--resume"]) == 0
    out = capsys.readouterr().out
    assert "grade F" in out and "48.4" in out
    assert len(results_in(run)) == GAMES
    reports = verify_paths([run / "logs"])
    assert len(reports) == GAMES and all(r.ok for r in reports)
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["missing"] == []

    # a non-JSON file and a planted JSON where results were: both set aside, games replayed
    garbage = run / "results" / "greedy" / "positions" / "win_in_1-3-01.json"
    garbage.write_text("not json {")
    planted = run / "results" / "greedy" / "matches" / "match-3-01.json"
    honest = json.loads(planted.read_text())
    fake = {**honest, "result": "draw", "score": 0.5}
    if honest["result"] == "draw":
        fake.update(result="win", score=1.0)
    planted.write_text(json.dumps(fake))
    assert cli.main(command) == 0
    captured = capsys.readouterr().out
    assert "greedy/positions/win_in_1-3-01: unreadable result" in captured
    assert "set aside the files of greedy/matches/match-3-01" in captured, captured[:2000]
    assert garbage.with_name(garbage.name + ".untrusted-1").read_text() == "not json {"
    replayed = json.loads(planted.read_text())
    assert (replayed["result"], replayed["score"]) == (honest["result"], honest["score"])
    assert json.loads(planted.with_name(planted.name + ".untrusted-1").read_text()) == fake
    assert len(results_in(run)) == GAMES
    assert all(r.ok for r in verify_paths([run / "logs"]))
    assert json.loads((run / "report.json").read_text())["reports"][0]["score"] == 48.4


@pytest.mark.slow
def test_the_readme_grades_reproduce(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bf = REPO / "examples" / "first_empty.bf"
    specs = ["perfect", "tactician", "greedy", "random", f"bf:{bf}"]
    argv = ["ttt-arena", "--output-dir", str(tmp_path / "run")]
    for spec in specs:
        argv += ["--policy", spec]
    assert cli.main(argv) == 0
    capsys.readouterr()
    document = json.loads((tmp_path / "run" / "report.json").read_text())
    got = {
        r["engine"]["slug"]: (r["score"], r["grade"], len(r["illegalMoves"]))
        for r in document["reports"]
    }
    assert got == {
        "perfect": (94.3, "S", 0),
        "tactician": (92.5, "A", 0),
        "greedy": (48.4, "F", 0),
        "random": (21.2, "F", 0),
        "first-empty": (23.4, "F", 0),
    }
    shutil.rmtree(tmp_path / "run")


def _alive(marker: str) -> list[str]:
    """Command lines of live processes containing `marker`."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            text = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if marker in text and str(os.getpid()) != proc.name:
            found.append(text)
    return found


@pytest.mark.slow
def test_a_command_engine_that_leaves_children_leaves_no_process_behind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    marker = "sleep 987"
    engine = f'cmd:sh -c "{marker} & echo 0 0"'
    run = tmp_path / "run"
    argv = ["ttt-arena", "--policy", engine, "--output-dir", str(run), "--timeout-ms", "5000"]
    assert cli.main(argv) == 0
    assert "illegal moves" in capsys.readouterr().out
    assert len(results_in(run)) == GAMES
    assert _alive(marker) == []

"""NARCADE logs under `arcade-eval verify` and `--resume`: every log replays, a changed answer
or a relabelled policy fails at its decision, a killed run resumes, planted files are set aside."""

from __future__ import annotations

import contextlib
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

from evaluation.benchmarks.narcade.results import read_json
from evaluation.cli import main
from evaluation.core.verify import log_files, verify_log
from tests.evaluation.narcade.conftest import GAMES, result, run
from tests.evaluation.narcade.fakes import HERE

REPO = Path(__file__).resolve().parents[3]


def _edit_log(path: Path, edit: Any) -> None:
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    edit(lines)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


def test_every_log_of_a_run_passes_arcade_eval_verify(
    run_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", str(run_dir / "logs")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 * 3 * 2 and all(line.startswith("OK") for line in lines)
    assert all("answers re-derived" in line for line in lines)  # random and heuristic are built-ins


@pytest.mark.parametrize("game", GAMES)
def test_a_changed_answer_fails_verify_naming_the_decision(
    run_dir: Path, tmp_path: Path, game: str
) -> None:
    log = tmp_path / "log.jsonl"
    shutil.copy(run_dir / result(run_dir, "heuristic", game)["episodes"][0]["log"], log)

    def other_answer(lines: list[dict[str, Any]]) -> None:
        event = lines[1 + 1]  # decision 1 (line 0 is the header)
        chosen = event["call"]["answer"]["action"]
        event["call"]["answer"]["action"] = next(a for a in event["actions"] if a != chosen)

    _edit_log(log, other_answer)
    report = verify_log(log)
    assert report.status == "fail" and report.decision == 1
    assert "FAIL" in report.line() and "at decision 1" in report.line()


def test_a_changed_answer_of_an_unproven_policy_fails_where_the_game_diverges(
    tmp_path: Path,
) -> None:
    out = tmp_path / "run"
    spec = f"py:{HERE}:steady"
    assert run(out, models=spec, games="minesweeper", episodes=1, isolate=False, trace=True) == 0
    (log,) = log_files([out / "logs"])
    assert "identity recorded, not proven" in verify_log(log).message

    def other_answer(lines: list[dict[str, Any]]) -> None:
        event = lines[3]
        event["call"]["answer"]["action"] = next(
            a for a in event["actions"] if a != event["call"]["answer"]["action"]
        )

    _edit_log(log, other_answer)
    report = verify_log(log)
    assert report.status == "fail" and report.decision == 2 and "verdict" in report.message


def test_a_relabelled_policy_fails_verify(run_dir: Path, tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    shutil.copy(run_dir / result(run_dir, "random", "snake")["episodes"][0]["log"], log)

    def relabel(lines: list[dict[str, Any]]) -> None:
        lines[0]["policy"].update(slug="heuristic", name="Heuristic", spec="heuristic")

    _edit_log(log, relabel)
    report = verify_log(log)
    assert report.status == "fail" and report.decision is not None
    assert "not the one the policy named in the header gives" in report.message


@pytest.mark.parametrize(
    ("edit", "needle"),
    [
        (lambda ls: ls[0]["settings"].update(instruction="Win."), "instruction mismatch"),
        (lambda ls: ls[0]["versions"].update(rules="0.5.0"), "rules version"),
        (lambda ls: ls[3]["state"].update(score=99), "state"),
        (lambda ls: ls[-1].update(score=ls[-1]["score"] + 1), "result score"),
    ],
)
def test_an_edited_log_fails_verify(run_dir: Path, tmp_path: Path, edit: Any, needle: str) -> None:
    log = tmp_path / "log.jsonl"
    shutil.copy(run_dir / result(run_dir, "heuristic", "minesweeper")["episodes"][1]["log"], log)
    _edit_log(log, edit)
    report = verify_log(log)
    assert report.status == "fail" and needle in report.message


def _episode_files(out: Path) -> list[Path]:
    return sorted((out / "results").glob("*/*/*.json"))


def test_a_run_killed_with_sigkill_resumes_to_a_complete_verified_run(tmp_path: Path) -> None:
    out = tmp_path / "run"
    spec = f"py:{HERE}:steady"
    command = [
        sys.executable,
        "-m",
        "evaluation.cli",
        "narcade",
        "--policy",
        spec,
        "--games",
        "snake",
        "--episodes",
        "3",
        "--mode",
        "lockstep",
        "--max-decisions",
        "40",
        "--quiet",
        "--output-dir",
        str(out),
    ]
    process = subprocess.Popen(command, cwd=REPO, start_new_session=True, stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and process.poll() is None:
            logs = list((out / "logs").rglob("*.jsonl")) if (out / "logs").is_dir() else []
            if _episode_files(out) and len(logs) >= 2:
                time.sleep(0.2)  # well inside the second episode (40 decisions of 20 ms)
                break
            time.sleep(0.05)
        assert process.poll() is None, "the run ended before it could be killed"
        os.killpg(process.pid, signal.SIGKILL)  # the run and its model's process, mid-episode
    finally:
        process.wait(30)
    assert process.returncode == -signal.SIGKILL
    assert len(_episode_files(out)) < 3
    manifest = read_json(out / "manifest.json")
    assert manifest["status"] == "running" and manifest["missing"]
    resumed = subprocess.run(command, cwd=REPO, capture_output=True, text=True)  # by itself
    assert resumed.returncode == 0, resumed.stderr
    assert "set aside" in resumed.stderr and "not finished" in resumed.stderr
    assert len(_episode_files(out)) == 3
    manifest = read_json(out / "manifest.json")
    assert manifest["status"] == "complete" and manifest["missing"] == []
    folder = manifest["models"][spec]["files"]["snake"].split("/")[1]
    data = result(out, folder, "snake")
    assert data["status"] == "complete" and [e["seed"] for e in data["episodes"]] == [100, 101, 102]
    assert all(e["decisions"] == 40 for e in data["episodes"])
    logs = log_files([out / "logs"])
    assert len(logs) == 3 and all(verify_log(log).ok for log in logs)
    assert list((out / "logs").rglob("*.interrupted-*"))  # the cut-off log, set aside, kept


def test_planted_result_files_are_set_aside_and_the_games_replayed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    kw: dict[str, Any] = {"models": "random", "games": "snake", "episodes": 3, "isolate": False}
    assert run(out, **kw) == 0
    honest = result(out, "random", "snake")["episodes"]
    folder = out / "results" / "random" / "snake"
    (folder / "100.json").write_text("this is not JSON")
    fake = read_json(folder / "101.json")
    fake["score"] = 999
    (folder / "101.json").write_text(json.dumps(fake))
    aggregate = read_json(out / "results" / "random" / "snake.json")
    aggregate["episodes"][2]["score"] = 777  # the summary file is rebuilt, never trusted
    (out / "results" / "random" / "snake.json").write_text(json.dumps(aggregate))
    assert run(out, resume=True, **kw) == 0
    said = capsys.readouterr().err
    assert "set aside the files of random/snake/100: unreadable result" in said
    assert "set aside the files of random/snake/101:" in said and "999" in said
    again = result(out, "random", "snake")["episodes"]
    keys = ("seed", "score", "endReason", "decisions")
    assert [{k: e[k] for k in keys} for e in again] == [{k: e[k] for k in keys} for e in honest]
    asides = sorted(p.name for p in folder.iterdir() if ".untrusted-" in p.name)
    assert asides == ["100.json.untrusted-1", "101.json.untrusted-1"]
    logs = log_files([out / "logs"])
    assert len(logs) == 3 and all(verify_log(log).ok for log in logs)


def test_verify_fails_a_log_whose_episode_record_disagrees(run_dir: Path, tmp_path: Path) -> None:
    copy_dir = tmp_path / "run"
    shutil.copytree(run_dir, copy_dir)
    record = copy_dir / "results" / "heuristic" / "snake" / "100.json"
    data = read_json(record)
    assert data["policy"]["spec"] == "heuristic"
    data["policy"]["model"] = "a bigger model"
    record.write_text(json.dumps(data))
    report = verify_log(copy_dir / "logs" / "heuristic" / "snake" / "100.jsonl")
    assert report.status == "fail" and "its result file says policy" in report.message


def _alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status  # a zombie has exited


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc")
def test_a_models_process_ends_when_the_run_is_killed(tmp_path: Path) -> None:
    out = tmp_path / "run"
    command = [sys.executable, "-m", "evaluation.cli", "narcade", "--policy"]
    command += [f"py:{HERE}:steady", "--games", "snake", "--episodes", "3", "--mode", "lockstep"]
    command += ["--max-decisions", "400", "--quiet", "--output-dir", str(out)]
    process = subprocess.Popen(command, cwd=REPO, start_new_session=True, stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not list(out.glob("logs/*/*/*.jsonl")):
            time.sleep(0.05)
        task = Path(f"/proc/{process.pid}/task/{process.pid}/children")
        children = [int(pid) for pid in task.read_text().split()]
        assert children, "the model runs in its own process"
        process.kill()  # the run only: its model's process is orphaned
        process.wait(30)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and any(_alive(pid) for pid in children):
            time.sleep(0.1)
        assert not any(_alive(pid) for pid in children)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)

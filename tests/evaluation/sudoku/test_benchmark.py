"""The Sudoku benchmark run on the shared core: logs that verify, the one retry, resume, refusal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arcade_gym.sudoku.sets import set_grids
from evaluation.benchmarks.sudoku import BENCHMARK
from evaluation.benchmarks.sudoku.episode import play_sudoku_grid
from evaluation.benchmarks.sudoku.runner import run_sudoku
from evaluation.core.errors import RunError
from evaluation.core.grid import PolicyPool
from evaluation.core.registry import register
from evaluation.core.verify import log_files, verify_log
from policies.base import DecisionContext
from policies.specs import make_policy

register(BENCHMARK)
RECORD = set_grids("v1", 2)[0]


def quiet(_: str) -> None:
    pass


def run(out: Path, policies: list[str], tiers: tuple[int, ...] = (1, 7)) -> Any:
    return run_sudoku(
        policies, PolicyPool(lambda s: make_policy(s, "sudoku")), out, tiers=tiers, say=quiet
    )


class Scripted:
    """Answers from a list, in order (a policy for the retry rule)."""

    slug = name = description = "scripted"
    kind = "baseline"
    adapter_version = "1"

    def __init__(self, answers: list[Any]) -> None:
        self.answers = list(answers)

    def act(self, question: Any, ctx: DecisionContext) -> Any:
        return self.answers.pop(0)


def test_a_run_reports_and_every_log_verifies(tmp_path: Path) -> None:
    outcome = run(tmp_path / "run", ["solver", "singles"])
    assert not outcome.missing and not outcome.interrupted
    rows = {r["policy"]: r for r in outcome.reports}
    assert rows["solver"]["score"] == 100 and rows["solver"]["brier"] == 0
    assert (
        rows["singles"]["tiers"]["1"]["solved"] == 6
        and rows["singles"]["tiers"]["7"]["solved"] == 0
    )
    reports = [verify_log(p) for p in log_files([tmp_path / "run" / "logs"])]
    assert len(reports) == 24 and all(r.ok for r in reports)
    assert all("answers re-derived" in r.message for r in reports)


def test_a_tampered_answer_fails_verification(tmp_path: Path) -> None:
    run(tmp_path / "run", ["singles"], tiers=(1,))
    log = tmp_path / "run" / "logs" / "singles" / "v1-t1-1.jsonl"
    lines = log.read_text().splitlines()
    decision = json.loads(lines[1])
    grid = decision["call"]["answer"]["grid"]
    decision["call"]["answer"]["grid"] = grid[:-1] + ("1" if grid[-1] != "1" else "2")
    lines[1] = json.dumps(decision)
    log.write_text("\n".join(lines) + "\n")
    report = verify_log(log)
    assert not report.ok and report.decision == 0


def test_one_retry_for_a_reply_without_a_grid(tmp_path: Path) -> None:
    policy = Scripted(["I am not sure", {"grid": RECORD["solution"], "confidence": 70}])
    saved = play_sudoku_grid(policy, RECORD, tmp_path / "g.jsonl", set_version="v1")
    assert saved["attempts"] == 2 and saved["outcome"] == "solved" and saved["confidence"] == 70
    assert verify_log(tmp_path / "g.jsonl").ok


def test_two_unreadable_replies_leave_the_grid_unsolved(tmp_path: Path) -> None:
    policy = Scripted(["?", "still no grid", "never asked"])
    saved = play_sudoku_grid(policy, RECORD, tmp_path / "g.jsonl", set_version="v1")
    assert saved["endReason"] == "unreadable" and saved["outcome"] == "unreadable"
    assert saved["attempts"] == 2 and policy.answers == ["never asked"]


def test_a_wrong_grid_gets_no_second_try(tmp_path: Path) -> None:
    wrong = (
        "1" + RECORD["solution"][1:]
        if RECORD["solution"][0] != "1"
        else "2" + RECORD["solution"][1:]
    )
    policy = Scripted([{"grid": wrong, "confidence": 99}, {"grid": RECORD["solution"]}])
    saved = play_sudoku_grid(policy, RECORD, tmp_path / "g.jsonl", set_version="v1")
    assert saved["attempts"] == 1 and saved["outcome"] in ("wrong", "changedGiven")


def test_a_resumed_run_replays_only_what_is_missing(tmp_path: Path) -> None:
    out = tmp_path / "run"
    run(out, ["singles"], tiers=(1,))
    result = out / "results" / "singles" / "v1-t1-3.json"
    result.unlink()
    outcome = run(out, ["singles"], tiers=(1,))
    assert not outcome.missing and result.exists()
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["finished"] == 6
    logs = sorted(p.name for p in (out / "logs" / "singles").iterdir())
    assert "v1-t1-3.jsonl.interrupted-1" in logs and "v1-t1-3.jsonl" in logs


def test_a_directory_holding_another_run_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "run"
    run(out, ["singles"], tiers=(1,))
    with pytest.raises(RunError):
        run(out, ["solver"], tiers=(1,))


@pytest.mark.parametrize(
    ("kw", "message"),
    [({"tiers": (9,)}, "tiers"), ({"set_version": "v9"}, "unknown set"), ({}, "at least one")],
)
def test_bad_run_settings_are_refused(tmp_path: Path, kw: dict[str, Any], message: str) -> None:
    policies = [] if not kw else ["solver"]
    with pytest.raises(RunError, match=message):
        run_sudoku(policies, PolicyPool(lambda s: make_policy(s, "sudoku")), tmp_path / "r", **kw)

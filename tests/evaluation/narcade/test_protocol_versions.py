"""Observation protocol 2 holds the Minesweeper board once; logs of protocol 1 still verify."""

from __future__ import annotations

import json
from pathlib import Path

from arcade_gym.minesweeper.contract import MinesweeperQuestion
from arcade_gym.minesweeper.render import board_view
from evaluation import cli
from evaluation.core.verify import verify_log


def test_the_minesweeper_question_holds_its_board_once() -> None:
    assert "grid" not in MinesweeperQuestion.model_fields
    assert board_view(["#F0", "38#"]).tolist() == [[-2, -1, 0], [3, 8, -2]]


def test_a_traced_log_of_protocol_1_still_verifies(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["narcade", "--policy", "heuristic", "--games", "minesweeper", "--episodes", "1"]
    args += ["--mode", "lockstep", "--max-decisions", "20", "--trace", "--in-process"]
    assert cli.main([*args, "--quiet", "--output-dir", str(out)]) == 0
    (log,) = out.glob("logs/**/*.jsonl")
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert lines[0]["versions"]["protocol"] == "arcade-narcade-obs@2"
    lines[0]["versions"]["protocol"] = "arcade-narcade-obs@1"
    for event in lines[1:-1]:
        event["state"]["grid"] = board_view(event["state"]["board"]).tolist()
    old = tmp_path / "old.jsonl"
    old.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert verify_log(old).ok, verify_log(old).message
    lines[3]["state"]["board"][0] = "?" * len(lines[3]["state"]["board"][0])
    old.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert verify_log(old).decision == 2

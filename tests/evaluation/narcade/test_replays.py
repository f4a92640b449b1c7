"""`export-replays`: frames from verified NARCADE logs; any log that does not verify, or that does
not match its run's result file, rejects the whole export."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from evaluation.benchmarks.narcade.replays import ReplayError, export_replays
from evaluation.benchmarks.narcade.results import read_json
from tests.evaluation.narcade.conftest import result


def test_logs_export_to_replays(run_dir: Path, tmp_path: Path) -> None:
    written = export_replays([run_dir], tmp_path / "replays")
    assert len(written) == 2 * 3 * 2
    index = read_json(tmp_path / "replays" / "index.json")["replays"]
    replay = read_json(tmp_path / "replays" / "heuristic-tetris-100.json")
    episode = result(run_dir, "heuristic", "tetris")["episodes"][0]
    assert replay["final"]["score"] == episode["score"] and len(index) == 12
    assert len(replay["frames"]) == episode["decisions"] + 1 == replay["final"]["decisions"] + 1
    start, first = replay["frames"][:2]
    assert start["game"] == "tetris" and "action" not in start and start["decisions"] == 0
    assert first["decision"] == 0 and first["action"] == first["answer"]["action"]
    assert replay["frames"][-1]["score"] == replay["final"]["score"]
    assert replay["source"] == "logs/heuristic/tetris/100.jsonl"
    with pytest.raises(ReplayError, match="never overwritten"):
        export_replays([run_dir], tmp_path / "replays")


def test_logs_without_traces_export_the_same_frames(tmp_path: Path) -> None:
    from tests.evaluation.narcade.conftest import run

    for name, trace in (("plain", False), ("traced", True)):
        assert (
            run(
                tmp_path / name,
                models="heuristic",
                games="snake",
                episodes=1,
                isolate=False,
                trace=trace,
            )
            == 0
        )
        export_replays([tmp_path / name], tmp_path / f"{name}-replays")
    plain = read_json(tmp_path / "plain-replays" / "heuristic-snake-100.json")
    traced = read_json(tmp_path / "traced-replays" / "heuristic-snake-100.json")
    assert plain["frames"] == traced["frames"]


def _edit_log(path: Path, edit: Any) -> None:
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    edit(lines)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


def _other_answer(lines: list[dict[str, Any]]) -> None:
    event = lines[5]  # decision 4
    chosen = event["call"]["answer"]["action"]
    event["call"]["answer"]["action"] = next(a for a in event["actions"] if a != chosen)


@pytest.mark.parametrize(
    ("edit", "needle"),
    [
        (_other_answer, "does not verify: FAIL .* at decision 4"),
        (lambda ls: ls[3]["state"].update(score=99), "does not verify: FAIL .* at decision 2"),
        (lambda ls: ls[3]["actions"].reverse(), "does not verify: FAIL .* at decision 2"),
        (lambda ls: ls[0]["settings"].update(instruction="Win."), "instruction mismatch"),
        (lambda ls: ls[-1].update(score=ls[-1]["score"] + 1), "result score"),
    ],
)
def test_an_edited_log_is_rejected(run_dir: Path, tmp_path: Path, edit: Any, needle: str) -> None:
    copy_dir = tmp_path / "run"
    shutil.copytree(run_dir, copy_dir)
    _edit_log(copy_dir / "logs" / "heuristic" / "minesweeper" / "101.jsonl", edit)
    with pytest.raises(ReplayError, match=needle):
        export_replays([copy_dir], tmp_path / "replays")
    assert not (tmp_path / "replays").exists()


def test_a_result_file_that_disagrees_with_its_log_is_rejected(
    run_dir: Path, tmp_path: Path
) -> None:
    copy_dir = tmp_path / "run"
    shutil.copytree(run_dir, copy_dir)
    path = copy_dir / "results" / "heuristic" / "snake.json"
    data = read_json(path)
    data["episodes"][0]["score"] += 5
    path.write_text(json.dumps(data))
    with pytest.raises(ReplayError, match="final-score mismatch"):
        export_replays([copy_dir], tmp_path / "replays")

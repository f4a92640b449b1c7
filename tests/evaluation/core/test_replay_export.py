"""`export_replay`: frames come from verify's one replay; a bad log is refused, a viewer bug is not
mistaken for one."""

from __future__ import annotations

import dataclasses
import json
import lzma
from pathlib import Path
from typing import Any

import pytest

import evaluation.benchmarks  # noqa: F401  (registers the benchmarks)
from evaluation.core import registry
from evaluation.core.replay_export import UnverifiedLogError, export_replay
from evaluation.core.verify import verify_log

LOG = Path(__file__).parents[3] / "docs/results/tetris-bench/logs/random/IQ/seed-09.jsonl.xz"
"""A shipped log (xz-compressed: `docs/results/tetris-bench/README.md`)."""


def log_lines() -> list[str]:
    return lzma.decompress(LOG.read_bytes()).decode().splitlines()


def test_frames_start_at_the_beginning_and_follow_every_decision() -> None:
    replay = export_replay(LOG)
    decisions = sum(1 for line in log_lines() if '"type":"decision"' in line)
    assert decisions > 0
    assert len(replay.frames) == decisions + 1
    assert "decision" not in replay.frames[0]
    assert [f["decision"] for f in replay.frames[1:]] == list(range(decisions))
    assert replay.result["score"] == replay.frames[-1]["score"]


def test_a_changed_answer_is_refused(tmp_path: Path) -> None:
    lines = log_lines()
    for k, line in enumerate(lines):
        event = json.loads(line)
        if event.get("type") == "decision" and event["call"]["status"] == "ok":
            choice = event["call"]["answer"]["choice"][0]
            choice["x"] = choice["x"] - 1 if choice["x"] > 0 else choice["x"] + 1
            lines[k] = json.dumps(event, separators=(",", ":"))
            break
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    with pytest.raises(UnverifiedLogError, match="does not verify"):
        export_replay(bad)


def test_an_error_of_the_frame_function_is_raised_as_itself(monkeypatch) -> None:
    name = "tetris-bench"
    broken = dataclasses.replace(registry._BENCHMARKS[name], frame=_broken_frame)
    monkeypatch.setitem(registry._BENCHMARKS, name, broken)
    with pytest.raises(KeyError, match="viewer bug"):
        export_replay(LOG)


def _broken_frame(episode: Any, event: Any) -> dict[str, Any]:
    raise KeyError("viewer bug")


def test_rederiving_is_what_verify_does_and_the_site_may_leave_out() -> None:
    assert "answers re-derived" in verify_log(LOG).message
    skipped = verify_log(LOG, rederive=False)
    assert skipped.ok and "identity recorded, not proven" in skipped.message
    assert export_replay(LOG, rederive=False).frames == export_replay(LOG).frames

"""The acceptance run: `arcade-eval suite --policy random --policy heuristic --budget quick`
finishes, every log verifies, the scorecard has a row per policy and a column per benchmark, and
a run killed with SIGKILL completes when the command is repeated, with nothing played twice."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import evaluation.benchmarks  # noqa: F401  (registers every benchmark)
from evaluation.core.registry import benchmarks
from evaluation.core.verify import verify_paths

REPO = Path(__file__).resolve().parents[3]
COMMAND = ["suite", "--policy", "random", "--policy", "heuristic", "--budget", "quick"]


def _suite(run: Path, *, shown: bool) -> subprocess.Popen[str]:
    """The suite as a user starts it (its output kept when `shown`, else dropped)."""
    where = subprocess.PIPE if shown else subprocess.DEVNULL
    return subprocess.Popen(
        [sys.executable, "-m", "evaluation.cli", *COMMAND, "--output-dir", str(run)],
        cwd=REPO,
        stdout=where,
        stderr=where,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        start_new_session=True,  # its Stockfish children go with it
    )


def _finished(run: Path) -> dict[Path, tuple[int, int]]:
    """Every finished game's files (result and log) with their inode and modification time."""
    found = {}
    for path in [*run.rglob("results/**/*.json"), *run.rglob("logs/**/*.jsonl")]:
        stat = path.stat()
        found[path] = (stat.st_ino, stat.st_mtime_ns)
    return found


@pytest.mark.slow
def test_the_quick_suite_survives_sigkill_and_completes(tmp_path: Path) -> None:
    run = tmp_path / "run"
    child = _suite(run, shown=False)
    try:  # kill it inside the second benchmark, once the first is complete
        deadline = time.monotonic() + 600
        while child.poll() is None:
            assert time.monotonic() < deadline, "the suite never reached its second benchmark"
            if len(list((run / "ttt-arena" / "results").rglob("*.json"))) >= 20:
                break
            time.sleep(0.05)
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
        child.communicate()
    assert child.returncode == -signal.SIGKILL, "the suite finished before it could be killed"
    before = {p: s for p, s in _finished(run).items() if p.suffix == ".json"}
    before_logs = {p: s for p, s in _finished(run).items() if p.suffix == ".jsonl"}
    assert any("tetris-bench" in str(p) for p in before)

    again = _suite(run, shown=True)
    out, err = again.communicate(timeout=900)
    assert again.returncode == 0, err
    assert "Traceback" not in err
    after = _finished(run)
    for path, stamp in before.items():  # every game finished before the kill was kept as it was
        assert after.get(path) == stamp, f"{path} was written again"
    played_again = [p for p, stamp in before_logs.items() if after.get(p) != stamp]
    set_aside = list(run.rglob("*.interrupted-*"))
    assert len(played_again) <= 1 and len(set_aside) <= 1  # only the game in flight at the kill
    assert "tetris-bench: complete (kept)" in out

    reports = verify_paths([run])
    assert reports and all(report.ok for report in reports), [r.line() for r in reports if not r.ok]
    card = json.loads((run / "scorecard.json").read_text())
    assert [row["policy"] for row in card["rows"]] == ["random", "heuristic"]
    names = [b.name for b in benchmarks()]
    for row in card["rows"]:
        assert list(row["cells"]) == names
        for name, cell in row["cells"].items():
            assert cell["label"] == "quick sample, not official"
            expected = "not applicable" if (row["policy"], name) == ("random", "sudoku") else "ok"
            assert cell["status"] == expected, (row["policy"], name, cell)
    random, heuristic = (row["cells"] for row in card["rows"])
    assert heuristic["tetris-bench"]["headlines"][0]["value"] > 1000
    for name in names:  # the references were played in the same run: every score normalises
        for head in heuristic[name]["headlines"]:
            assert head["normalised"] is not None, (name, head)
    assert random["narcade"]["headlines"][1]["normalised"] == 0
    assert heuristic["narcade"]["headlines"][1]["normalised"] == 100
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["missing"] == []
    assert set(manifest["parts"]) == set(names)
    table = (run / "scorecard.md").read_text()
    assert all(f"| {policy} |" in table for policy in ("random", "heuristic"))

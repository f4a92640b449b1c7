"""Tetris Bench runs and logs from elsewhere stay harmless: a header cannot size the replay, an
output that is a link is replaced rather than written through, a full disk or a planted link
stops the command with one line, and the run resumes afterwards."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from evaluation.benchmarks.tetris_bench.episode import play_tetris
from evaluation.cli import main
from evaluation.core.verify import verify_log
from policies.tetris import make_brain
from tests.evaluation.full_disk import full_disk_stops_and_resumes

QUICK = ["tetris-bench", "--policy", "random", "--seeds", "1", "--modes", "iq", "--quiet"]
RSS_LIMIT_MB = 300


@pytest.fixture(scope="module")
def small_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("tetris") / "game.jsonl"
    play_tetris(make_brain("random", seed=3), "seed-01", "IQ", path, piece_cap=6)
    assert verify_log(path).ok
    return path


def _with_setting(source: Path, target: Path, key: str, value: Any) -> Path:
    lines = source.read_text().splitlines()
    header = json.loads(lines[0])
    header["settings"][key] = value
    target.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    return target


@pytest.mark.parametrize("key", ["pieceCap", "tickCap"])
def test_a_header_cap_of_3e9_fails_at_once_naming_the_field_in_bounded_memory(
    small_log: Path, tmp_path: Path, key: str
) -> None:
    log = _with_setting(small_log, tmp_path / "huge.jsonl", key, 3e9)
    # A fresh parent process, so its children's peak RSS is the verify's alone.
    probe = (
        "import resource, subprocess, sys\n"
        "done = subprocess.run([sys.executable, '-m', 'evaluation.cli', 'verify', sys.argv[1]],"
        " capture_output=True, text=True)\n"
        "print(done.returncode)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
        "print(done.stdout.strip().splitlines()[0])\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe, str(log)], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    status, peak_kb, line = int(out[0]), int(out[1]), out[2]
    assert status == 1
    assert line.startswith("FAIL") and f"settings.{key}" in line and "limits" in line
    assert peak_kb / 1024 < RSS_LIMIT_MB


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("pieceCap", 501),
        ("pieceCap", 0),
        ("pieceCap", -1),
        ("tickCap", 10_001),
        ("pieceCap", 12.0),
        ("budgetMs", float("nan")),
        ("budgetMs", float("inf")),
        ("budgetMs", -1),
        ("budgetMs", 0),
    ],
)
def test_header_caps_and_budgets_outside_the_ruleset_are_refused_naming_the_field(
    small_log: Path, tmp_path: Path, key: str, value: Any
) -> None:
    report = verify_log(_with_setting(small_log, tmp_path / "bad.jsonl", key, value))
    assert report.status == "fail" and f"settings.{key}" in report.message


def test_caps_inside_the_ruleset_still_verify(small_log: Path) -> None:
    header = json.loads(small_log.read_text().splitlines()[0])
    assert header["settings"]["pieceCap"] == 6 and verify_log(small_log).ok


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("tetris-run") / "run"
    assert main([*QUICK, "--output-dir", str(out)]) == 0
    return out


def _copy_run(source: Path, target: Path) -> Path:
    subprocess.run(["cp", "-a", str(source), str(target)], check=True)
    return target


def test_a_resume_does_not_write_through_a_linked_leaderboard(
    finished_run: Path, tmp_path: Path
) -> None:
    run = _copy_run(finished_run, tmp_path / "run")
    victim = tmp_path / "victim.md"
    victim.write_text("not yours\n")
    (run / "leaderboard.md").unlink()
    (run / "leaderboard.md").symlink_to(victim)
    assert main([*QUICK, "--output-dir", str(run)]) == 0
    assert victim.read_text() == "not yours\n"
    assert not (run / "leaderboard.md").is_symlink()
    assert (run / "leaderboard.md").read_text() == (finished_run / "leaderboard.md").read_text()


@pytest.mark.parametrize("folder", ["logs", "results"])
def test_a_run_folder_linked_outside_is_refused_in_one_line(
    finished_run: Path, tmp_path: Path, folder: str, capsys: pytest.CaptureFixture[str]
) -> None:
    run = _copy_run(finished_run, tmp_path / "run")
    (run / folder).rename(tmp_path / "elsewhere")
    (run / folder).symlink_to(tmp_path / "elsewhere")
    capsys.readouterr()
    assert main([*QUICK, "--output-dir", str(run)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"{run / folder} is a symbolic link" in err


def test_a_deeply_nested_manifest_is_refused_in_one_line(
    finished_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = _copy_run(finished_run, tmp_path / "run")
    (run / "manifest.json").write_text('{"benchmark": ' + "[" * 100_000 + "]" * 100_000 + "}")
    capsys.readouterr()
    assert main([*QUICK, "--output-dir", str(run)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "nested deeper" in err


def test_a_full_disk_stops_with_one_line_and_the_run_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "run"
    written = full_disk_stops_and_resumes(QUICK, run, monkeypatch, capsys, full_at=4)
    assert written == run / "logs" / "random" / "IQ" / "seed-01.jsonl"


def test_site_over_a_run_with_a_deeply_nested_result_is_one_line(
    finished_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = _copy_run(finished_run, tmp_path / "run")
    planted = next((run / "results").rglob("*.json"))
    planted.write_text("[" * 100_000 + "]" * 100_000)
    capsys.readouterr()
    assert main(["site", "--output", str(tmp_path / "site"), str(run)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(planted) in err[0] and "nested deeper" in err[0]

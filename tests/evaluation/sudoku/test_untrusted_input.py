"""Bad input to `arcade-eval sudoku` stops with one line and exit 2 (a 100,000-character PUZZLE, a
full disk, a planted link or deeply nested JSON in the run directory), the run resumes after a
full disk, and a log whose header sets a NaN, infinite or negative timeout does not verify."""

from __future__ import annotations

import errno
import json
from pathlib import Path
from typing import Any

import pytest

from evaluation.cli import main
from evaluation.core.verify import verify_log
from tests.evaluation.full_disk import full_disk_stops_and_resumes

RUN = ["sudoku", "--policy", "singles", "--tiers", "1"]


def _one_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    return err[0]


@pytest.mark.parametrize("tool", ["solve", "grade"])
def test_a_100000_character_puzzle_is_one_line_not_file_name_too_long(
    tool: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["sudoku", tool, "1" * 100_000]) == 2
    line = _one_line(capsys)
    assert "81 cells" in line and "100000 characters" in line and "too long" not in line


def test_a_puzzle_file_that_cannot_be_read_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    puzzles = tmp_path / "puzzles.txt"
    puzzles.write_text("0" * 81 + "\n")

    def refuse(self: Path, *args: Any, **kwargs: Any) -> str:
        raise PermissionError(errno.EACCES, "Permission denied", str(self))

    monkeypatch.setattr(Path, "read_text", refuse)
    assert main(["sudoku", "solve", str(puzzles)]) == 2
    assert f"cannot read {puzzles}: Permission denied" in _one_line(capsys)


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sudoku") / "run"
    assert main([*RUN, "--output-dir", str(out)]) == 0
    return out


def test_a_full_disk_stops_with_one_line_and_the_run_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    full_disk_stops_and_resumes(RUN, tmp_path / "run", monkeypatch, capsys, full_at=7)


def test_a_full_disk_writing_a_result_names_the_result(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import evaluation.core.rundir as rundir

    real_replace = rundir.os.replace

    def replace(src: Any, dst: Any) -> None:
        if "results" in str(dst):
            raise OSError(errno.ENOSPC, "No space left on device", str(src), str(dst))
        real_replace(src, dst)

    monkeypatch.setattr(rundir.os, "replace", replace)
    assert main([*RUN, "--output-dir", str(tmp_path / "run")]) == 2
    line = _one_line(capsys)
    assert "no space left on device writing " in line and "/results/" in line
    assert ".tmp" not in line
    monkeypatch.setattr(rundir.os, "replace", real_replace)
    assert not [p for p in (tmp_path / "run").rglob("*.tmp")]


@pytest.mark.parametrize("folder", ["logs", "results"])
def test_a_run_folder_linked_outside_is_one_line(
    finished_run: Path, tmp_path: Path, folder: str, capsys: pytest.CaptureFixture[str]
) -> None:
    import shutil

    run = tmp_path / "run"
    shutil.copytree(finished_run, run)
    shutil.move(run / folder, tmp_path / "elsewhere")
    (run / folder).symlink_to(tmp_path / "elsewhere")
    capsys.readouterr()
    assert main([*RUN, "--output-dir", str(run)]) == 2
    assert f"{run / folder} is a symbolic link" in _one_line(capsys)
    assert main(["verify", str(run)]) == 2
    assert f"{run / folder} is a symbolic link" in _one_line(capsys)


def test_a_log_linked_outside_its_run_fails_verify(finished_run: Path, tmp_path: Path) -> None:
    import shutil

    run = tmp_path / "run"
    shutil.copytree(finished_run, run)
    log = next((run / "logs").rglob("*.jsonl"))
    shutil.move(log, tmp_path / "outside.jsonl")
    log.symlink_to(tmp_path / "outside.jsonl")
    report = verify_log(log)
    assert report.status == "fail" and "symbolic link" in report.message


def test_deeply_nested_json_in_a_result_file_is_set_aside_on_resume(
    finished_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import shutil

    run = tmp_path / "run"
    shutil.copytree(finished_run, run)
    result = next((run / "results").rglob("*.json"))
    result.write_text("[" * 100_000 + "]" * 100_000)
    capsys.readouterr()
    assert main([*RUN, "--output-dir", str(run)]) == 0
    assert "nested deeper than" in capsys.readouterr().out


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -1, 0, "soon"])
def test_a_header_timeout_that_is_not_a_finite_positive_number_is_refused(
    finished_run: Path, tmp_path: Path, value: Any
) -> None:
    source = next((finished_run / "logs").rglob("*.jsonl"))
    lines = source.read_text().splitlines()
    header = json.loads(lines[0])
    header["settings"]["timeoutMs"] = value
    log = tmp_path / "log.jsonl"
    log.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    report = verify_log(log)
    assert report.status == "fail" and "settings.timeoutMs" in report.message


@pytest.mark.parametrize("value", ["nan", "inf", "-5"])
def test_a_timeout_option_that_is_not_a_finite_positive_number_is_one_line(
    tmp_path: Path, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*RUN, f"--timeout-ms={value}", "--output-dir", str(tmp_path / "r")]) == 2
    assert "--timeout-ms" in _one_line(capsys)
    assert not (tmp_path / "r").exists()

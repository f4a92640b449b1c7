"""Site inputs are files other people submit: a planted link out of an input is refused in one
line naming it, and a deeply nested manifest names no benchmark instead of crashing the build."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaluation.cli import main
from evaluation.core.rundir import RunDirError
from evaluation.site.inputs import is_run, run_dirs, sub_folders

DEEP = "[" * 100_000 + "]" * 100_000


def _run(folder: Path, benchmark: str = "demo") -> Path:
    folder.mkdir(parents=True)
    (folder / "manifest.json").write_text(json.dumps({"benchmark": benchmark}))
    return folder


def test_a_deeply_nested_manifest_is_no_run(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    (run / "manifest.json").write_text('{"benchmark": "demo", "x": ' + DEEP + "}")
    assert not is_run(run, "demo")


def test_site_with_a_deeply_nested_manifest_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "run"
    run.mkdir()
    (run / "manifest.json").write_text('{"benchmark": "tetris-bench", "x": ' + DEEP + "}")
    assert main(["site", "--output", str(tmp_path / "site"), str(run)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(run) in err[0]


def test_a_sub_folder_linked_outside_the_input_is_refused_naming_it(tmp_path: Path) -> None:
    folder = tmp_path / "runs"
    _run(folder / "a")
    outside = _run(tmp_path / "elsewhere" / "b")
    (folder / "b").symlink_to(outside)
    with pytest.raises(RunDirError, match="b is a symbolic link"):
        sub_folders(folder)
    with pytest.raises(RunDirError):
        run_dirs(folder, "demo")


def test_links_that_stay_inside_the_input_are_followed(tmp_path: Path) -> None:
    folder = tmp_path / "runs"
    real = _run(folder / "a")
    (folder / "b").symlink_to(real)
    assert [p.name for p in sub_folders(folder)] == ["a", "b"]


def test_a_manifest_linked_outside_the_run_is_refused(tmp_path: Path) -> None:
    elsewhere = _run(tmp_path / "elsewhere")
    run = tmp_path / "run"
    run.mkdir()
    (run / "manifest.json").symlink_to(elsewhere / "manifest.json")
    with pytest.raises(RunDirError, match=r"manifest\.json is a symbolic link"):
        is_run(run, "demo")


def test_site_with_a_run_linked_outside_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "runs"
    folder.mkdir()
    (folder / "theirs").symlink_to(_run(tmp_path / "elsewhere", "tetris-bench"))
    assert main(["site", "--output", str(tmp_path / "site"), str(folder)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{folder / 'theirs'} is a symbolic link" in err[0]


def _chess_run(tmp_path: Path) -> Path:
    import shutil

    run = tmp_path / "chess"
    shutil.copytree(
        Path(__file__).resolve().parents[2] / "docs/results/chess-ladder/material-2ply", run
    )
    return run


def test_a_deeply_nested_chess_result_is_one_line_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = _chess_run(tmp_path)
    result = sorted((run / "results").rglob("*.json"))[0]
    result.write_text('{"x": ' + DEEP + "}")
    assert main(["site", "--output", str(tmp_path / "site"), str(run)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and result.name in err[0] and "unreadable" in err[0]


def test_a_chess_result_folder_named_with_markup_builds_a_safe_page(tmp_path: Path) -> None:
    run = _chess_run(tmp_path)
    rung = sorted((run / "results").rglob("*.json"))[0].parent
    hostile = '<img src=x onerror="alert(1)">'
    for top in ("results", "logs", "pgn"):
        folder = run / top / rung.relative_to(run / "results")
        if folder.is_dir():
            folder.rename(folder.with_name(hostile))
    assert main(["site", "--output", str(tmp_path / "site"), str(run)]) == 0
    pages = [p.read_text() for p in (tmp_path / "site").rglob("*.html")]
    assert pages and not any(hostile in page for page in pages)


def test_a_tetris_log_linked_outside_its_run_is_one_line_naming_it(
    tetris_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import shutil

    run = tmp_path / "run"
    shutil.copytree(tetris_run, run)
    log = next((run / "logs").rglob("*.jsonl"))
    elsewhere = tmp_path / "elsewhere.jsonl"
    log.rename(elsewhere)
    log.symlink_to(elsewhere)
    assert main(["site", "--output", str(tmp_path / "site"), str(run)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "is a symbolic link" in err[0] and log.name in err[0]
    assert "cannot replay" not in err[0]  # refused as the logs are listed, before any is read

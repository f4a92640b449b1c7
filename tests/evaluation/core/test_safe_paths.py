"""Run directories cannot be led outside themselves by links, outputs are never written through a
link, and JSON we did not write is read within bounds."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from evaluation.core.eventlog import GameLog, LogFormatError, read_log
from evaluation.core.rundir import (
    MANIFEST,
    RunDir,
    RunDirError,
    inside_root,
    write_json_atomic,
    write_text_atomic,
)
from evaluation.core.untrusted_json import MAX_DEPTH, UntrustedJSONError, loads, read_json

DEEP = "[" * 100_000 + "]" * 100_000


def test_inside_root_accepts_plain_paths_and_links_that_stay_inside(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "link").symlink_to(tmp_path / "a")
    assert inside_root(tmp_path, tmp_path / "a" / "b" / "c.json") == (tmp_path / "a/b/c.json")
    assert inside_root(tmp_path, tmp_path / "link" / "b") == (tmp_path / "a" / "b").resolve()


def test_inside_root_refuses_a_link_leaving_the_root_naming_it(tmp_path: Path) -> None:
    root, outside = tmp_path / "run", tmp_path / "elsewhere"
    (root / "logs").mkdir(parents=True)
    outside.mkdir()
    (root / "logs" / "p").symlink_to(outside)
    with pytest.raises(RunDirError) as caught:
        inside_root(root, root / "logs" / "p" / "seed.jsonl")
    message = str(caught.value)
    assert "\n" not in message and str(root / "logs" / "p") in message and "outside" in message


def test_inside_root_refuses_dot_dot_and_looping_links(tmp_path: Path) -> None:
    root = tmp_path / "run"
    root.mkdir()
    with pytest.raises(RunDirError, match="outside"):
        inside_root(root, root / ".." / "x")
    (root / "loop").symlink_to(root / "loop")
    with pytest.raises(RunDirError, match="loop"):
        inside_root(root, root / "loop" / "x")


def test_write_text_atomic_replaces_a_link_instead_of_writing_through_it(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    (tmp_path / "out").mkdir()
    link = tmp_path / "out" / "leaderboard.md"
    link.symlink_to(victim)
    write_text_atomic(link, "new table\n")
    assert victim.read_text() == "keep me"
    assert not link.is_symlink() and link.read_text() == "new table\n"
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["leaderboard.md"]


def test_write_json_atomic_ignores_a_planted_temporary_link(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    (tmp_path / ".manifest.json.tmp").symlink_to(victim)  # the old fixed temporary name
    write_json_atomic(tmp_path / "manifest.json", {"a": 1})
    assert victim.read_text() == "keep me"
    assert json.loads((tmp_path / "manifest.json").read_text()) == {"a": 1}


def test_written_files_get_the_usual_permissions(tmp_path: Path) -> None:
    write_text_atomic(tmp_path / "x.md", "x")
    umask = os.umask(0)
    os.umask(umask)
    assert (tmp_path / "x.md").stat().st_mode & 0o777 == 0o666 & ~umask


def test_a_game_log_never_opens_through_a_link(tmp_path: Path) -> None:
    victim = tmp_path / "victim.jsonl"
    link = tmp_path / "log.jsonl"
    link.symlink_to(victim)  # dangling: following it would create the victim
    with pytest.raises(FileExistsError):
        GameLog(link)
    assert not victim.exists()


def test_bounded_loads_refuses_deep_nesting_in_one_sentence() -> None:
    with pytest.raises(UntrustedJSONError, match="nested deeper than"):
        loads(DEEP)
    shallow_but_too_deep = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    with pytest.raises(UntrustedJSONError):
        loads(shallow_but_too_deep)
    assert loads("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    brackets_in_text = json.dumps({"a": "[" * (2 * MAX_DEPTH)})
    assert loads(brackets_in_text) == {"a": "[" * (2 * MAX_DEPTH)}


def test_read_json_refuses_a_file_over_the_size_limit(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_text(json.dumps(["x" * 2000]))
    with pytest.raises(UntrustedJSONError, match="larger than"):
        read_json(path, max_bytes=1024 * 1024 // 1024)
    assert read_json(path) == ["x" * 2000]


def test_read_log_refuses_a_deeply_nested_line(tmp_path: Path) -> None:
    path = tmp_path / "deep.jsonl"
    path.write_text('{"type":"header","logVersion":2}\n{"type":"decision","x":' + DEEP + "}\n")
    with pytest.raises(LogFormatError, match="nested deeper"):
        read_log(path)


def _finished_run(tmp_path: Path) -> RunDir:
    run = RunDir(tmp_path / "run", "demo", {"k": 1})
    run.prepare()
    run.write_manifest("finished", [], [])
    return run


def test_resume_with_a_deeply_nested_manifest_is_one_line(tmp_path: Path) -> None:
    run = _finished_run(tmp_path)
    (run.path / MANIFEST).write_text('{"benchmark": "demo", "x": ' + DEEP + "}")
    with pytest.raises(RunDirError) as caught:
        RunDir(run.path, "demo", {"k": 1}).prepare()
    assert "nested deeper" in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize("folder", ["logs", "results"])
def test_resume_refuses_a_top_folder_linked_outside(tmp_path: Path, folder: str) -> None:
    run = _finished_run(tmp_path)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (run.path / folder).symlink_to(outside)
    with pytest.raises(RunDirError) as caught:
        RunDir(run.path, "demo", {"k": 1}).prepare()
    assert str(run.path / folder) in str(caught.value)


def test_a_game_under_a_linked_folder_is_refused(tmp_path: Path) -> None:
    run = _finished_run(tmp_path)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (run.path / "logs").mkdir()
    (run.path / "logs" / "p").symlink_to(outside)
    with pytest.raises(RunDirError, match="symbolic link"):
        run.game("p", "seed")


def test_a_deeply_nested_result_file_is_set_aside_not_a_crash(tmp_path: Path) -> None:
    run = _finished_run(tmp_path)
    files = run.game("p", "seed")
    files.result.parent.mkdir(parents=True)
    files.result.write_text(DEEP)
    said: list[str] = []
    assert run.finished(files, lambda a, b: True, lambda p: None, said.append) is None
    assert len(said) == 1 and "nested deeper" in said[0]

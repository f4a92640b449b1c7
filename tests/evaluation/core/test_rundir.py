"""The run directory: safe names, refusal naming the difference, set-aside, planted files."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluation.core.rundir import RunDir, RunDirError, safe_name, set_aside

# --------------------------------------------------------------------------- safe names


@settings(max_examples=200, deadline=None)
@given(st.text(min_size=0, max_size=200))
def test_a_safe_name_is_one_plain_path_component(name: str) -> None:
    safe = safe_name(name)
    assert safe and safe not in (".", "..")
    assert "/" not in safe and "\\" not in safe and "\x00" not in safe
    assert not safe.startswith((".", "-"))
    assert len(safe) <= 80
    assert all(c.isascii() and (c.isalnum() or c in "._-") for c in safe)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40), st.text(max_size=40))
def test_two_different_names_never_share_a_safe_name(a: str, b: str) -> None:
    if a != b:
        assert safe_name(a) != safe_name(b)


def test_plain_names_are_kept_and_changed_names_say_so() -> None:
    assert safe_name("seed-01") == "seed-01"
    assert safe_name("heuristic") == "heuristic"
    changed = safe_name("../../../../elsewhere/x")
    assert "elsewhere_x-" in changed and "/" not in changed
    assert safe_name("llm:openai/gpt-4o").startswith("llm_openai_gpt-4o-")
    assert safe_name("") != safe_name("_")


@pytest.mark.parametrize(
    "hostile",
    ["../../../../elsewhere/x", "/an/absolute/path/x", "..", ".", "", "a/../../b", "~/x", "C:\\x"],
)
def test_game_files_stay_inside_the_directory(tmp_path: Path, hostile: str) -> None:
    run = RunDir(tmp_path / "out", "demo", {})
    run.prepare()
    files = run.game("py:evil/../../x", "IQ", hostile)
    root = (tmp_path / "out").resolve()
    for path in (files.log, files.result):
        assert path.resolve().is_relative_to(root)
        assert path.resolve().parents[3] == root  # logs|results / brain / mode / file


def test_the_same_game_has_the_same_files_and_names_that_look_alike_do_not(
    tmp_path: Path,
) -> None:
    run = RunDir(tmp_path / "out", "demo", {})
    assert run.game("a", "seed-01") == run.game("a", "seed-01")
    assert run.game("x", "a/b").log != run.game("x", "a_b").log


# --------------------------------------------------------------------------- refusal


def test_another_runs_directory_is_refused_naming_the_difference(tmp_path: Path) -> None:
    first = RunDir(tmp_path / "out", "demo", {"seeds": ["s1"], "budgetMs": 100})
    first.prepare()
    first.write_manifest("complete", [("a",)], [("a",)])
    again = RunDir(tmp_path / "out", "demo", {"seeds": ["s1"], "budgetMs": 100})
    assert again.prepare() is True  # the same run resumes
    other = RunDir(tmp_path / "out", "demo", {"seeds": ["s1", "s2"], "budgetMs": 100})
    with pytest.raises(RunDirError, match=r"seeds \['s1'\] -> \['s1', 's2'\]"):
        other.prepare()
    with pytest.raises(RunDirError, match="another benchmark"):
        RunDir(tmp_path / "out", "other", {"seeds": ["s1"], "budgetMs": 100}).prepare()
    with pytest.raises(RunDirError, match="--resume"):
        RunDir(tmp_path / "out", "demo", {"seeds": ["s1"], "budgetMs": 100}).prepare(resume=False)


def test_a_directory_of_anything_else_or_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "mine.txt").write_text("keep")
    with pytest.raises(RunDirError, match="holds no demo run"):
        RunDir(tmp_path / "notes", "demo", {}).prepare()
    (tmp_path / "file").write_text("x")
    with pytest.raises(RunDirError, match="is a file"):
        RunDir(tmp_path / "file", "demo", {}).prepare()
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "manifest.json").write_text("{not json")
    with pytest.raises(RunDirError, match="unreadable"):
        RunDir(tmp_path / "bad", "demo", {}).prepare()


@pytest.mark.parametrize("where", ["under-a-file", "proc"])
def test_a_directory_that_cannot_be_created_is_one_clear_error(tmp_path: Path, where: str) -> None:
    if where == "proc":
        target = Path("/proc/arcade-gym-cannot-exist/x")
    else:
        (tmp_path / "file").write_text("x")
        target = tmp_path / "file" / "sub"
    with pytest.raises(RunDirError, match="choose a writable --output-dir"):
        RunDir(target, "demo", {}).prepare()


# --------------------------------------------------------------------------- set-aside


def test_set_aside_renames_to_the_first_free_name_and_never_deletes(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    log.write_text("one")
    assert set_aside(log, "interrupted") == tmp_path / "g.jsonl.interrupted-1"
    log.write_text("two")
    assert set_aside(log, "interrupted") == tmp_path / "g.jsonl.interrupted-2"
    assert (tmp_path / "g.jsonl.interrupted-1").read_text() == "one"
    assert (tmp_path / "g.jsonl.interrupted-2").read_text() == "two"
    assert set_aside(log) is None  # nothing there: nothing to do


# --------------------------------------------------------------------------- planted files


@dataclass(frozen=True)
class _Report:
    ok: bool
    message: str
    result: Mapping[str, Any] | None


def _verify_ok(score: int) -> Any:
    def verify(path: Path) -> _Report:
        return _Report(True, "fine", {"score": score})

    return verify


def _agrees(saved: Mapping[str, Any], logged: Mapping[str, Any]) -> bool:
    return saved.get("score") == logged.get("score")


def _one_game(tmp_path: Path) -> tuple[RunDir, Any]:
    run = RunDir(tmp_path / "out", "demo", {})
    run.prepare()
    files = run.game("brain", "seed-01")
    files.log.parent.mkdir(parents=True)
    files.result.parent.mkdir(parents=True)
    return run, files


def test_a_finished_game_is_kept(tmp_path: Path) -> None:
    run, files = _one_game(tmp_path)
    files.log.write_text("log\n")
    files.result.write_text(json.dumps({"score": 7}))
    said: list[str] = []
    assert run.finished(files, _agrees, _verify_ok(7), said.append) == {"score": 7}
    assert said == []


@pytest.mark.parametrize(
    ("result_text", "with_log", "logged_score", "why"),
    [
        ("not json at all", True, 7, "unreadable result"),
        ("[1, 2, 3]", True, 7, "unreadable result"),
        (json.dumps({"score": 7}), False, 7, "its log is missing"),
        (json.dumps({"score": 999}), True, 7, "disagrees with its log"),
    ],
)
def test_a_planted_or_unreadable_result_is_set_aside_with_one_line(
    tmp_path: Path, result_text: str, with_log: bool, logged_score: int, why: str
) -> None:
    run, files = _one_game(tmp_path)
    if with_log:
        files.log.write_text("log\n")
    files.result.write_text(result_text)
    said: list[str] = []
    assert run.finished(files, _agrees, _verify_ok(logged_score), said.append) is None
    assert len(said) == 1 and why in said[0] and "played again" in said[0]
    assert not files.result.exists() and not files.log.exists()
    assert files.result.with_name(files.result.name + ".untrusted-1").read_text() == result_text
    if with_log:
        assert files.log.with_name(files.log.name + ".untrusted-1").exists()


def test_a_log_that_does_not_verify_sets_the_game_aside(tmp_path: Path) -> None:
    run, files = _one_game(tmp_path)
    files.log.write_text("log\n")
    files.result.write_text(json.dumps({"score": 7}))
    said: list[str] = []

    def failing(path: Path) -> _Report:
        return _Report(False, "decision 3 diverges", None)

    assert run.finished(files, _agrees, failing, said.append) is None
    assert len(said) == 1 and "does not verify (decision 3 diverges)" in said[0]


def test_a_log_without_a_result_is_set_aside_as_interrupted(tmp_path: Path) -> None:
    run, files = _one_game(tmp_path)
    files.log.write_text("cut short\n")
    said: list[str] = []
    assert run.finished(files, _agrees, _verify_ok(7), said.append) is None
    assert len(said) == 1 and "not finished" in said[0]
    assert files.log.with_name(files.log.name + ".interrupted-1").exists()

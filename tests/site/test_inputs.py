"""`evaluation/site/inputs.py`: which inputs are a benchmark's run directories."""

from __future__ import annotations

import json
from pathlib import Path

from evaluation.site.inputs import is_run, run_dirs, runs_among, sub_folders


def _run(folder: Path, benchmark: str = "demo", **files: str) -> Path:
    folder.mkdir(parents=True)
    (folder / "manifest.json").write_text(json.dumps({"benchmark": benchmark}))
    for name, text in files.items():
        (folder / name.replace("_", ".")).write_text(text)
    return folder


def test_a_run_is_a_folder_whose_manifest_names_the_benchmark(tmp_path: Path) -> None:
    run = _run(tmp_path / "run")
    assert is_run(run, "demo") and not is_run(run, "other")
    assert not is_run(tmp_path / "missing", "demo")
    assert not is_run(run / "manifest.json", "demo")  # a file is no run
    for text in ("not json", '["demo"]', '"demo"', "{}", "\udcff"):
        bad = tmp_path / f"bad{len(list(tmp_path.iterdir()))}"
        bad.mkdir()
        (bad / "manifest.json").write_bytes(text.encode("utf-8", "surrogateescape"))
        assert not is_run(bad, "demo"), text


def test_needs_asks_for_files_beside_the_manifest(tmp_path: Path) -> None:
    finished = _run(tmp_path / "finished", report_json="{}")
    cut = _run(tmp_path / "cut")
    assert is_run(finished, "demo", needs=("report.json",))
    assert not is_run(cut, "demo", needs=("report.json",)) and is_run(cut, "demo")
    assert run_dirs(tmp_path, "demo", needs=("report.json",)) == []
    assert run_dirs(tmp_path, "demo") == [cut, finished]


def test_a_folder_of_runs_gives_every_run_a_mixed_folder_none_unless_asked(
    tmp_path: Path,
) -> None:
    runs = [_run(tmp_path / "all" / name) for name in ("b", "a")]
    _run(tmp_path / "all" / ".hidden", "other")
    (tmp_path / "all" / "notes.txt").write_text("files do not count")
    assert run_dirs(tmp_path / "all", "demo") == sorted(runs)
    assert run_dirs(runs[0], "demo") == [runs[0]]  # a run is itself, not its sub-folders
    mixed = tmp_path / "mixed"
    run = _run(mixed / "run")
    _run(mixed / "theirs", "other")
    (mixed / "plain").mkdir()
    assert run_dirs(mixed, "demo") == []
    assert run_dirs(mixed, "demo", mixed=True) == [run]
    (tmp_path / "empty").mkdir()
    assert run_dirs(tmp_path / "empty", "demo") == []
    assert run_dirs(tmp_path / "missing", "demo", mixed=True) == []
    assert run_dirs(mixed / "run" / "manifest.json", "demo", mixed=True) == []
    assert sub_folders(mixed) == [mixed / "plain", run, mixed / "theirs"]


def test_runs_among_says_which_inputs_hold_runs_and_lists_their_runs(tmp_path: Path) -> None:
    single = _run(tmp_path / "single")
    folder = tmp_path / "folder"
    runs = [_run(folder / name) for name in ("a", "b")]
    other = _run(tmp_path / "other", "elsewhere")
    used, found = runs_among([folder, other, single, tmp_path / "missing"], "demo")
    assert used == [folder, single] and found == [*runs, single]

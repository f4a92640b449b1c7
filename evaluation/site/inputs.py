"""Which site inputs are run directories of a benchmark: one reading of `manifest.json` for every
benchmark's `add_pages`, so they all claim (and refuse) the same folders the same way.

Inputs are files other people submit: a sub-folder, manifest or required file that is a link
leaving its input is refused (`RunDirError`, one line naming the link; `arcade-eval` prints it and
exits 2), and a manifest is read within bounds (`evaluation/core/untrusted_json.py`), so a planted
or deeply nested one names no benchmark instead of crashing the build. Pages that read further
files of a run read them through `evaluation/core/rundir.py:inside_root` the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from evaluation.core.rundir import MANIFEST, inside_root
from evaluation.core.untrusted_json import read_json


def sub_folders(path: Path) -> list[Path]:
    """The folder's visible sub-folders (names starting with `.` skipped), in name order; a
    sub-folder that is a link leaving `path` is refused (`RunDirError`)."""
    children = sorted(p for p in Path(path).iterdir() if not p.name.startswith("."))
    for child in children:
        if child.is_symlink():
            inside_root(path, child)
    return [p for p in children if p.is_dir()]


def is_run(path: Path, benchmark_id: str, *, needs: Sequence[str] = ()) -> bool:
    """Whether `path` is a run directory of `benchmark_id`: its `manifest.json` is a JSON object
    naming that benchmark (an unreadable one names none) and it holds each file in `needs`
    (e.g. a finished run's `report.json`)."""
    manifest = Path(path) / MANIFEST
    for name in (MANIFEST, *needs):
        if (Path(path) / name).is_symlink():
            inside_root(path, Path(path) / name)
    if not manifest.is_file() or not all((Path(path) / name).is_file() for name in needs):
        return False
    try:
        data = read_json(manifest)
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and data.get("benchmark") == benchmark_id


def run_dirs(
    path: Path, benchmark_id: str, *, needs: Sequence[str] = (), mixed: bool = False
) -> list[Path]:
    """The runs of `benchmark_id` an input holds: `[path]` when it is one; for a folder, its
    sub-folders that are runs (in name order): all of them only when every sub-folder is one
    (a folder of runs), else none, or with `mixed` the runs among whatever else it holds; `[]`
    for anything else."""
    path = Path(path)
    if is_run(path, benchmark_id, needs=needs):
        return [path]
    if not path.is_dir():
        return []
    children = sub_folders(path)
    runs = [p for p in children if is_run(p, benchmark_id, needs=needs)]
    if mixed or (children and len(runs) == len(children)):
        return runs
    return []


def runs_among(
    inputs: Sequence[Path], benchmark_id: str, *, needs: Sequence[str] = ()
) -> tuple[list[Path], list[Path]]:
    """(the inputs that hold runs of `benchmark_id`, the runs they hold in input order), each
    input read by `run_dirs`: what an `add_pages` claims and what it builds pages from."""
    used: list[Path] = []
    runs: list[Path] = []
    for path in inputs:
        found = run_dirs(Path(path), benchmark_id, needs=needs)
        if found:
            used.append(Path(path))
            runs.extend(found)
    return used, runs


def refuse_repeated(path: Path) -> None:
    """Refuse (`SiteError`, one line) an input that is, or directly holds, a run played several
    times per game (`--repeats`, recorded as `settings.repeats` in its manifest): the pages show
    one game per seed, grid or item, and would mix the repeats."""
    from evaluation.site.build import SiteError

    path = Path(path)
    if not path.is_dir():
        return
    for run in [path, *sub_folders(path)]:
        manifest = run / MANIFEST
        if not manifest.is_file() or manifest.is_symlink():
            continue
        try:
            data = read_json(manifest)
        except (OSError, ValueError):
            continue
        settings = data.get("settings") if isinstance(data, dict) else None
        count = settings.get("repeats", 1) if isinstance(settings, dict) else 1
        if count != 1:
            raise SiteError(
                f"{run} was played with --repeats {count}; the site shows runs of one game per "
                "seed: give a run without --repeats (its own report shows the repeats)"
            )


def read_input(path: Path) -> Any:
    """A JSON file of a site input, read within `read_json`'s bounds; one `SiteError` line naming
    the file when it is unreadable, too large or nested too deeply (inputs are untrusted)."""
    from evaluation.site.build import SiteError

    try:
        return read_json(path)
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        raise SiteError(f"{path} is unreadable ({exc}); remove or replace it") from None

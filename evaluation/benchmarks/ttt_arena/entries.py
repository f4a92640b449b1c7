"""Arena entries: one folder per engine, its metadata checked, its saved official results.

An entries directory holds one folder per entry; the folder name is the entry id (lowercase
letters, digits, `.` and `-`):

    <id>/engine.bf          the Brainfuck program (required)
    <id>/entry.json         name, model, provider, harness, date, submittedBy, description
    <id>/source/            optional: whatever produced engine.bf
    <id>/results/           written by `arcade-eval ttt-arena bench`: `<id>-seed<N>-<UTC time>.json`
                            and, beside it, the folder of the same name with the event logs of
                            every game it played (`positions/<id>.jsonl`, `matches/<id>.jsonl`)

A saved result is a claim; `evidence.verified_results` turns it into evidence (its logs replay,
its numbers are re-computed from them, its engine is the benched one). The official result of an
entry is its latest verified run on the default seed (`defaults.py`).

Entries are submitted by other people, so nothing is read through a symbolic link that leaves
the entries directory (`evaluation/core/rundir.py:inside_root`), and files are read within bounds.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import re
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, StrictStr, ValidationError, field_validator

from evaluation.benchmarks.ttt_arena.defaults import DEFAULT_SEED
from evaluation.core.rundir import RunDirError, inside_root
from evaluation.core.untrusted_json import read_json

ENTRY_ID = re.compile(r"[a-z0-9.-]+")
"""The alphabet of an entry folder's name (its id)."""

ENGINE_FILE = "engine.bf"
METADATA_FILE = "entry.json"
RESULTS_DIR = "results"
SOURCE_DIR = "source"
RESULT_VERSION = 1
"""Version of a saved result file (`resultVersion`)."""
MAX_ENGINE_BYTES = 8 * 1024 * 1024
"""The largest `engine.bf` read (the shipped ones are well under 1 MB)."""
MAX_METADATA_BYTES = 64 * 1024
"""The largest `entry.json` read."""
MAX_RESULT_BYTES = 8 * 1024 * 1024
"""The largest saved result file read (a result is about 60 kB)."""


class EntryError(ValueError):
    """An entry (or entries directory) that cannot be used: one message naming it and the fix."""


class EntryMetadata(BaseModel):
    """`entry.json`: who made the engine and how (every field required, no other field)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    name: StrictStr
    model: StrictStr
    provider: StrictStr
    harness: StrictStr
    date: StrictStr
    submittedBy: StrictStr  # noqa: N815 (the file's camelCase key)
    description: StrictStr

    @field_validator("date")
    @classmethod
    def _iso_date(cls, value: str) -> str:
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
            raise ValueError("must be an ISO date, YYYY-MM-DD")
        dt.date.fromisoformat(value)
        return value


@dataclass(frozen=True)
class Entry:
    """A checked entry folder."""

    id: str
    folder: Path
    metadata: EntryMetadata
    root: Path | None = None
    """The entries directory it was loaded from (its parent when None): no file of the entry
    is read through a link leaving it."""

    @property
    def entries_root(self) -> Path:
        return self.root if self.root is not None else self.folder.parent

    @property
    def engine(self) -> Path:
        return self.folder / ENGINE_FILE

    def inside(self, path: Path) -> Path:
        """`path` (a file of this entry) resolved inside the entries directory; `EntryError`
        naming the link that would leave it."""
        return checked_inside(self.entries_root, path, self.id)

    def engine_bytes(self) -> bytes:
        """The program, read within bounds and never through a link out of the entries
        directory."""
        return read_engine(self.engine, self.entries_root)

    @property
    def results(self) -> Path:
        return self.folder / RESULTS_DIR

    @property
    def source(self) -> Path | None:
        """The optional `source/` folder."""
        path = self.folder / SOURCE_DIR
        return path if path.is_dir() else None


def _field_problem(error: Mapping[str, Any]) -> str:
    where = ".".join(str(part) for part in error.get("loc", ())) or "(the whole file)"
    kind = error.get("type", "")
    if kind == "missing":
        return f"field {where!r} is missing"
    if kind == "extra_forbidden":
        return f"field {where!r} is not an entry field"
    return f"field {where!r}: {error.get('msg', 'invalid')}"


def checked_inside(root: Path, path: Path, entry_id: str | None = None) -> Path:
    """`path` resolved inside `root` (`inside_root`), as an `EntryError` naming the link."""
    try:
        return inside_root(root, path)
    except RunDirError as error:
        where = f"entry {entry_id!r}: " if entry_id is not None else ""
        raise EntryError(f"{where}{error}") from None


def read_engine(path: Path, root: Path | None = None) -> bytes:
    """A Brainfuck file's bytes: a regular file inside `root` (default: its own folder), reached
    through no link leaving it, at most `MAX_ENGINE_BYTES`; `EntryError` naming it otherwise."""
    real = checked_inside(root if root is not None else path.parent, path)
    try:
        with open(real, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise EntryError(f"{path} is not a regular file")
            data = handle.read(MAX_ENGINE_BYTES + 1)
    except OSError as error:
        raise EntryError(f"cannot read {path} ({error.strerror or error})") from None
    if len(data) > MAX_ENGINE_BYTES:
        raise EntryError(f"{path} is larger than {MAX_ENGINE_BYTES // (1024 * 1024)} MB")
    return data


def read_metadata(folder: Path, root: Path | None = None) -> EntryMetadata:
    """The checked `entry.json` of an entry folder; `EntryError` names the entry and the field."""
    path = folder / METADATA_FILE
    if not path.is_file() and not path.is_symlink():
        raise EntryError(f"entry {folder.name!r}: {METADATA_FILE} is missing")
    real = checked_inside(root if root is not None else folder.parent, path, folder.name)
    if not real.is_file():
        raise EntryError(f"entry {folder.name!r}: {METADATA_FILE} is missing")
    try:
        data = read_json(real, max_bytes=MAX_METADATA_BYTES)
    except (OSError, UnicodeError, ValueError) as error:
        raise EntryError(f"entry {folder.name!r}: {METADATA_FILE} is not JSON ({error})") from None
    if not isinstance(data, dict):
        raise EntryError(f"entry {folder.name!r}: {METADATA_FILE} must be a JSON object")
    try:
        return EntryMetadata.model_validate(data)
    except ValidationError as error:
        problems = "; ".join(_field_problem(e) for e in error.errors())
        raise EntryError(f"entry {folder.name!r}: {METADATA_FILE}: {problems}") from None


def load_entry(folder: str | Path, root: str | Path | None = None) -> Entry:
    """One entry folder of the entries directory `root` (default: the folder's parent),
    checked: its id; the folder, `engine.bf`, `entry.json`, `results/` and `source/` are no links
    leaving `root` (refused naming the link); `engine.bf` is a file, `entry.json` valid."""
    folder = Path(folder)
    base = Path(root) if root is not None else folder.parent
    if not folder.is_dir() and not folder.is_symlink():
        raise EntryError(f"no entry folder at {str(folder)!r}")
    if not ENTRY_ID.fullmatch(folder.name):
        raise EntryError(
            f"entry folder {folder.name!r}: the name (the entry id) may hold only lowercase "
            "letters, digits, '.' and '-'"
        )
    for path in (folder, folder / ENGINE_FILE, folder / RESULTS_DIR, folder / SOURCE_DIR):
        if path.exists() or path.is_symlink():
            checked_inside(base, path, folder.name)
    if not folder.is_dir():
        raise EntryError(f"no entry folder at {str(folder)!r}")
    if not (folder / ENGINE_FILE).is_file():
        raise EntryError(f"entry {folder.name!r}: {ENGINE_FILE} is missing")
    try:
        read_engine(folder / ENGINE_FILE, base)
    except EntryError as error:
        raise EntryError(f"entry {folder.name!r}: {error}") from None
    return Entry(folder.name, folder, read_metadata(folder, base), base)


def default_entries_dir() -> Path:
    """The shipped entries, `seeds/arena/entries` of the repository (or of the installed
    `arcade_gym.seeds`)."""
    repository = Path(__file__).resolve().parents[3]
    candidates = [repository / "seeds" / "arena" / "entries"]
    try:
        from importlib import resources

        candidates.append(Path(str(resources.files("arcade_gym.seeds"))) / "arena" / "entries")
    except (ModuleNotFoundError, TypeError):
        pass
    for path in candidates:
        if path.is_dir():
            return path
    raise EntryError(
        f"no shipped entries folder at {candidates[0]}; pass --entries DIR (a folder of entries)"
    )


def load_entries(directory: str | Path) -> list[Entry]:
    """Every entry of an entries directory, sorted by id; the first bad one raises `EntryError`."""
    directory = Path(directory)
    if not directory.is_dir():
        raise EntryError(f"no entries directory at {str(directory)!r}")
    folders = sorted(p for p in directory.iterdir() if p.is_dir() and not p.name.startswith("."))
    return [load_entry(folder, directory) for folder in folders]


def find_entry(directory: str | Path, entry_id: str) -> Entry:
    """The entry `entry_id` of an entries directory."""
    folder = Path(directory) / entry_id
    if not ENTRY_ID.fullmatch(entry_id) or not (folder.is_dir() or folder.is_symlink()):
        if not Path(directory).is_dir():
            raise EntryError(f"no entries directory at {str(directory)!r}")
        known = ", ".join(e.name for e in sorted(Path(directory).iterdir()) if e.is_dir())
        raise EntryError(f"no entry {entry_id!r} in {directory} (entries: {known or 'none'})")
    return load_entry(folder, directory)


def engine_sha256(path: Path, root: Path | None = None) -> str:
    """The engine file's SHA-256 (hex): a result names exactly the program it graded. Read as
    `read_engine` reads it (bounded, inside `root`, default the file's folder)."""
    return hashlib.sha256(read_engine(path, root)).hexdigest()


# --- saved results ------------------------------------------------------------------------------


def result_stem(entry_id: str, seed: int, when: dt.datetime) -> str:
    """`<id>-seed<N>-<UTC time>`: the saved result's file name (without `.json`) and log folder."""
    from evaluation.core.rundir import safe_name

    return safe_name(f"{entry_id}-seed{seed}-{when.strftime('%Y%m%dT%H%M%SZ')}")


def result_files(entry: Entry) -> list[Path]:
    """The saved result files of an entry (`results/*.json`), sorted by name."""
    if not entry.results.is_dir():
        return []
    entry.inside(entry.results)
    return sorted(path for path in entry.results.glob("*.json"))


def read_result(entry: Entry, path: Path) -> Any:
    """A saved result file's JSON, read inside the entries directory and within bounds
    (`EntryError`, one line, for a link out, an oversized, deep or malformed file)."""
    real = entry.inside(path)
    try:
        return read_json(real, max_bytes=MAX_RESULT_BYTES)
    except (OSError, UnicodeError, ValueError) as error:
        raise EntryError(f"{path.name} is not a readable JSON document ({error})") from None


def saved_results(entry: Entry) -> list[dict[str, Any]]:
    """Every readable saved result of an entry, oldest first (by `benchedAt`, then file name):
    claims as they stand, unchecked (`evidence.verified_results` checks them)."""
    out: list[tuple[str, str, dict[str, Any]]] = []
    for path in result_files(entry):
        try:
            data = read_result(entry, path)
        except EntryError:
            continue
        if isinstance(data, dict) and data.get("resultVersion") == RESULT_VERSION:
            data["file"] = path.name
            out.append((str(data.get("benchedAt", ""))[:100], path.name, data))
    return [data for _, _, data in sorted(out, key=lambda row: (row[0], row[1]))]


def official_result(entry: Entry, seed: int = DEFAULT_SEED) -> dict[str, Any] | None:
    """The entry's latest saved run on `seed`, unchecked (what it claims: the tier list and the
    site show `evidence.verified_results(entry).official` instead)."""
    runs = [r for r in saved_results(entry) if r.get("seed") == seed]
    return runs[-1] if runs else None

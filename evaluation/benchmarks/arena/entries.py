"""Arena entries: one folder per engine, its metadata checked, its saved official results.

An entries directory holds one folder per entry; the folder name is the entry id (lowercase
letters, digits, `.` and `-`):

    <id>/engine.bf          the Brainfuck program (required)
    <id>/entry.json         name, model, provider, harness, date, submittedBy, description
    <id>/source/            optional: whatever produced engine.bf
    <id>/results/           written by `arcade-eval arena bench`: `<id>-seed<N>-<UTC time>.json`
                            and, beside it, the folder of the same name with the match logs

The official result of an entry is its latest saved run on the default seed (`defaults.py`).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, StrictStr, ValidationError, field_validator

from evaluation.benchmarks.arena.defaults import DEFAULT_SEED

ENTRY_ID = re.compile(r"[a-z0-9.-]+")
"""The alphabet of an entry folder's name (its id)."""

ENGINE_FILE = "engine.bf"
METADATA_FILE = "entry.json"
RESULTS_DIR = "results"
RESULT_VERSION = 1
"""Version of a saved result file (`resultVersion`)."""


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

    @property
    def engine(self) -> Path:
        return self.folder / ENGINE_FILE

    @property
    def results(self) -> Path:
        return self.folder / RESULTS_DIR

    @property
    def source(self) -> Path | None:
        """The optional `source/` folder."""
        path = self.folder / "source"
        return path if path.is_dir() else None


def _field_problem(error: Mapping[str, Any]) -> str:
    where = ".".join(str(part) for part in error.get("loc", ())) or "(the whole file)"
    kind = error.get("type", "")
    if kind == "missing":
        return f"field {where!r} is missing"
    if kind == "extra_forbidden":
        return f"field {where!r} is not an entry field"
    return f"field {where!r}: {error.get('msg', 'invalid')}"


def read_metadata(folder: Path) -> EntryMetadata:
    """The checked `entry.json` of an entry folder; `EntryError` names the entry and the field."""
    path = folder / METADATA_FILE
    if not path.is_file():
        raise EntryError(f"entry {folder.name!r}: {METADATA_FILE} is missing")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeError, ValueError) as error:
        raise EntryError(f"entry {folder.name!r}: {METADATA_FILE} is not JSON ({error})") from None
    if not isinstance(data, dict):
        raise EntryError(f"entry {folder.name!r}: {METADATA_FILE} must be a JSON object")
    try:
        return EntryMetadata.model_validate(data)
    except ValidationError as error:
        problems = "; ".join(_field_problem(e) for e in error.errors())
        raise EntryError(f"entry {folder.name!r}: {METADATA_FILE}: {problems}") from None


def load_entry(folder: str | Path) -> Entry:
    """One entry folder, checked: its id, `engine.bf` and `entry.json`."""
    folder = Path(folder)
    if not folder.is_dir():
        raise EntryError(f"no entry folder at {str(folder)!r}")
    if not ENTRY_ID.fullmatch(folder.name):
        raise EntryError(
            f"entry folder {folder.name!r}: the name (the entry id) may hold only lowercase "
            "letters, digits, '.' and '-'"
        )
    if not (folder / ENGINE_FILE).is_file():
        raise EntryError(f"entry {folder.name!r}: {ENGINE_FILE} is missing")
    return Entry(folder.name, folder, read_metadata(folder))


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
    return [load_entry(folder) for folder in folders]


def find_entry(directory: str | Path, entry_id: str) -> Entry:
    """The entry `entry_id` of an entries directory."""
    folder = Path(directory) / entry_id
    if not ENTRY_ID.fullmatch(entry_id) or not folder.is_dir():
        known = ", ".join(e.name for e in sorted(Path(directory).iterdir()) if e.is_dir())
        raise EntryError(f"no entry {entry_id!r} in {directory} (entries: {known or 'none'})")
    return load_entry(folder)


def engine_sha256(path: Path) -> str:
    """The engine file's SHA-256 (hex): a result names exactly the program it graded."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


# --- saved results ------------------------------------------------------------------------------


def result_stem(entry_id: str, seed: int, when: dt.datetime) -> str:
    """`<id>-seed<N>-<UTC time>`: the saved result's file name (without `.json`) and log folder."""
    from evaluation.core.rundir import safe_name

    return safe_name(f"{entry_id}-seed{seed}-{when.strftime('%Y%m%dT%H%M%SZ')}")


def saved_results(entry: Entry) -> list[dict[str, Any]]:
    """Every readable saved result of an entry, oldest first (by `benchedAt`, then file name)."""
    out: list[tuple[str, str, dict[str, Any]]] = []
    if not entry.results.is_dir():
        return []
    for path in entry.results.glob("*.json"):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and data.get("resultVersion") == RESULT_VERSION:
            data["file"] = path.name
            out.append((str(data.get("benchedAt", "")), path.name, data))
    return [data for _, _, data in sorted(out, key=lambda row: (row[0], row[1]))]


def official_result(entry: Entry, seed: int = DEFAULT_SEED) -> dict[str, Any] | None:
    """The entry's latest saved run on `seed` (the default seed: its official result)."""
    runs = [r for r in saved_results(entry) if r.get("seed") == seed]
    return runs[-1] if runs else None

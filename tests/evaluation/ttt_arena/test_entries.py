"""Arena entries (`evaluation/benchmarks/ttt_arena/entries.py`): folder ids, `engine.bf`,
`entry.json` checked field by field, the shipped entries and their committed official results."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from evaluation.benchmarks.ttt_arena.defaults import DEFAULT_SEED
from evaluation.benchmarks.ttt_arena.entries import (
    EntryError,
    EntryMetadata,
    default_entries_dir,
    engine_sha256,
    find_entry,
    load_entries,
    load_entry,
    official_result,
    saved_results,
)

REPO = Path(__file__).resolve().parents[3]
SHIPPED = REPO / "seeds" / "arena" / "entries"
FIRST_EMPTY = REPO / "examples" / "first_empty.bf"
METADATA = {
    "name": "Test engine",
    "model": "test-model",
    "provider": "Test",
    "harness": "pytest",
    "date": "2026-10-09",
    "submittedBy": "tester",
    "description": "An engine for the tests.",
}


def make_entry(root: Path, entry_id: str, metadata: object = None, engine: bool = True) -> Path:
    folder = root / entry_id
    folder.mkdir(parents=True)
    if engine:
        shutil.copy(FIRST_EMPTY, folder / "engine.bf")
    data = METADATA if metadata is None else metadata
    (folder / "entry.json").write_text(json.dumps(data), encoding="utf-8")
    return folder


def test_a_complete_entry_loads(tmp_path: Path) -> None:
    entry = load_entry(make_entry(tmp_path, "test-engine.v2"))
    assert entry.id == "test-engine.v2"
    assert entry.metadata.submittedBy == "tester"
    assert entry.engine.name == "engine.bf"
    assert entry.source is None


@pytest.mark.parametrize("field", sorted(METADATA))
def test_each_missing_field_is_refused_naming_the_entry_and_the_field(
    tmp_path: Path, field: str
) -> None:
    data = {k: v for k, v in METADATA.items() if k != field}
    folder = make_entry(tmp_path, "gappy", data)
    with pytest.raises(EntryError, match=rf"entry 'gappy'.*field '{field}' is missing"):
        load_entry(folder)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"name": 5}, "field 'name'"),
        ({"date": "9 Oct 2026"}, "field 'date'.*ISO date"),
        ({"date": "2026-13-40"}, "field 'date'"),
        ({"score": 99}, "field 'score' is not an entry field"),
        ({"submittedBy": None}, "field 'submittedBy'"),
    ],
)
def test_wrong_typed_or_unknown_fields_are_refused(
    tmp_path: Path, change: dict[str, object], message: str
) -> None:
    folder = make_entry(tmp_path, "odd", {**METADATA, **change})
    with pytest.raises(EntryError, match=rf"entry 'odd'.*{message}"):
        load_entry(folder)


def test_entry_json_that_is_not_an_object_or_not_json_is_refused(tmp_path: Path) -> None:
    folder = make_entry(tmp_path, "list", [1, 2])
    with pytest.raises(EntryError, match=r"'list'.*JSON object"):
        load_entry(folder)
    (folder / "entry.json").write_text("{name:", encoding="utf-8")
    with pytest.raises(EntryError, match=r"'list'.*not JSON"):
        load_entry(folder)


@pytest.mark.parametrize("name", ["Upper", "under_score", "sp ace", "caf\u00e9"])
def test_a_folder_name_outside_the_alphabet_is_refused_naming_the_folder(
    tmp_path: Path, name: str
) -> None:
    folder = make_entry(tmp_path, name)
    with pytest.raises(EntryError, match=rf"entry folder '{name}'.*lowercase"):
        load_entry(folder)
    with pytest.raises(EntryError, match=name):
        load_entries(tmp_path)


def test_missing_engine_or_metadata_is_refused(tmp_path: Path) -> None:
    with pytest.raises(EntryError, match=r"entry 'no-engine': engine\.bf is missing"):
        load_entry(make_entry(tmp_path, "no-engine", engine=False))
    folder = make_entry(tmp_path, "no-json")
    (folder / "entry.json").unlink()
    with pytest.raises(EntryError, match=r"entry 'no-json': entry\.json is missing"):
        load_entry(folder)


def test_find_entry_names_the_known_entries(tmp_path: Path) -> None:
    make_entry(tmp_path, "alpha")
    assert find_entry(tmp_path, "alpha").id == "alpha"
    with pytest.raises(EntryError, match=r"no entry 'beta'.*alpha"):
        find_entry(tmp_path, "beta")
    with pytest.raises(EntryError, match="no entries directory"):
        load_entries(tmp_path / "nowhere")


def test_official_result_is_the_latest_run_on_the_default_seed(tmp_path: Path) -> None:
    entry = load_entry(make_entry(tmp_path, "runs"))
    entry.results.mkdir()
    for name, seed, when in (
        ("a", DEFAULT_SEED, "2026-01-01T00:00:00Z"),
        ("b", DEFAULT_SEED, "2026-02-01T00:00:00Z"),
        ("c", 7, "2026-03-01T00:00:00Z"),
    ):
        document = {"resultVersion": 1, "seed": seed, "benchedAt": when, "score": 1.0}
        (entry.results / f"{name}.json").write_text(json.dumps(document))
    (entry.results / "junk.json").write_text("[]")
    assert [r["file"] for r in saved_results(entry)] == ["a.json", "b.json", "c.json"]
    official = official_result(entry)
    assert official is not None and official["file"] == "b.json"
    assert official_result(entry, seed=7)["file"] == "c.json"  # type: ignore[index]
    assert official_result(entry, seed=8) is None


def test_the_shipped_entries_are_valid_and_their_official_results_grade_the_engine_shipped() -> (
    None
):
    assert default_entries_dir() == SHIPPED
    entries = {entry.id: entry for entry in load_entries(SHIPPED)}
    assert {"first-empty", "tactician", "broken"} <= set(entries)
    assert set(EntryMetadata.model_fields) == set(METADATA)
    for entry in entries.values():
        result = official_result(entry)
        assert result is not None, entry.id
        assert result["engineSha256"] == engine_sha256(entry.engine), entry.id
        assert result["metadata"] == entry.metadata.model_dump()
    assert official_result(entries["broken"])["grade"] == "F"  # type: ignore[index]
    assert official_result(entries["broken"])["illegalMoves"] > 0  # type: ignore[index]
    assert (SHIPPED / "first-empty" / "engine.bf").read_bytes() == FIRST_EMPTY.read_bytes()

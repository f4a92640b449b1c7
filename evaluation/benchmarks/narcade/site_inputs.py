"""The inputs of NARCADE's pages: publications (`publish.py`, a JSON file) and run directories
(a `manifest.json` naming the benchmark), read into one `Source` each; a folder may hold both
(the shipped `docs/results/narcade/`). Every file is untrusted: one that does not read as its
format is skipped."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaluation.benchmarks.narcade.defaults import BENCHMARK_ID
from evaluation.benchmarks.narcade.protocol import GAMES, READABLE_RESULT_FORMATS
from evaluation.benchmarks.narcade.publish import PUBLICATION_FORMAT
from evaluation.benchmarks.narcade.results import read_json, result_path
from evaluation.core.rundir import safe_name
from evaluation.site.inputs import run_dirs


@dataclass
class Source:
    """One publication or run as the pages show it: per (model, game) the entry, i.e. the
    model's identity, the status and the episodes (seed, score, end, errors, latency, usage)."""

    key: str
    label: str
    kind: str  # "publication" | "run"
    path: Path
    data: dict[str, Any]
    entries: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    models: list[str] = field(default_factory=list)
    games: list[str] = field(default_factory=list)


def _json_object(path: Path) -> dict[str, Any] | None:
    try:
        data = read_json(path)
    except (OSError, ValueError, UnicodeError):
        return None
    return data if isinstance(data, dict) else None


def is_publication(path: Path) -> bool:
    """A JSON file holding a NARCADE publication."""
    if not (path.is_file() and path.suffix == ".json"):
        return False
    data = _json_object(path)
    return data is not None and data.get("format") == PUBLICATION_FORMAT


def sources_in(path: Path) -> tuple[list[Path], list[Path]]:
    """(publications, runs) an input holds: itself, or the folder's own files and sub-folders
    (runs mixed with publications and other folders)."""
    if is_publication(path):
        return [path], []
    runs = run_dirs(path, BENCHMARK_ID, mixed=True)
    if runs == [path] or not path.is_dir():
        return [], runs
    children = sorted(p for p in path.iterdir() if not p.name.startswith("."))
    return [p for p in children if is_publication(p)], runs


def unique_key(key: str, taken: set[str]) -> str:
    key = safe_name(key)
    out, n = key, 2
    while out in taken:
        out, n = f"{key}-{n}", n + 1
    taken.add(out)
    return out


def load_publication(path: Path, key: str) -> Source:
    """A publication's entries, keyed by (model, game)."""
    data = read_json(path)
    source = Source(key, str(data.get("label") or path.stem), "publication", path, data)
    for game, block in data.get("games", {}).items():
        source.games.append(str(game))
        for entry in block.get("entries", []):
            model = str(entry["model"])
            if model not in source.models:
                source.models.append(model)
            source.entries[(model, str(game))] = {**entry, "status": "complete"}
    return source


def load_run(path: Path, key: str) -> Source:
    """A run's result files (both formats), keyed by (model, game), in manifest order."""
    manifest = read_json(path / "manifest.json")
    settings = manifest.get("settings") or {}
    source = Source(key, path.name, "run", path, manifest)
    source.games = [str(g) for g in settings.get("games") or GAMES]
    source.models = [str(m) for m in (manifest.get("models") or settings.get("models") or [])]
    for model in source.models:
        for game in source.games:
            data = _result_file(path, model, game)
            if data is None:
                continue
            identity = data.get("model") or {}
            source.entries[(model, game)] = {
                "model": model,
                "name": identity.get("name"),
                "kind": identity.get("kind"),
                "revision": identity.get("revision"),
                "hardware": data.get("hardware"),
                "protocol": (data.get("versions") or {}).get("protocol"),
                "status": data.get("status"),
                "error": data.get("error"),
                "meanScore": (data.get("summary") or {}).get("meanScore"),
                "summary": data.get("summary") or {},
                "episodes": list(data.get("episodes") or []),
            }
    return source


def _result_file(run: Path, model: str, game: str) -> dict[str, Any] | None:
    for path in (result_path(run, model, game), run / f"{safe_name(model)}-{game}.json"):
        data = _json_object(path) if path.is_file() else None
        if data is not None and data.get("format") in READABLE_RESULT_FORMATS:
            return data
    return None


def _scores(entry: Mapping[str, Any]) -> list[tuple[int, Any]]:
    return sorted((int(e["seed"]), e.get("score")) for e in entry["episodes"])


def published_in(run: Source, publications: Sequence[Source]) -> Source | None:
    """The publication made from this run: it holds every (model, game) of the run, complete,
    with the same score on every seed (None when there is none)."""
    if not run.entries or any(e.get("status") != "complete" for e in run.entries.values()):
        return None
    for publication in publications:
        held = publication.entries
        if all(
            key in held and _scores(held[key]) == _scores(entry)
            for key, entry in run.entries.items()
        ):
            return publication
    return None

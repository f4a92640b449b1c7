"""Suite run directories as site inputs: which inputs are suite runs, their scorecard read into a
known shape, and the benchmark run directories (the parts) the benchmarks' own pages are built
from.

A suite run is untrusted like any input: `scorecard.json` is read within bounds
(`evaluation/site/inputs.py:read_input`), every field is checked for its type (a string where a
number belongs is n/a, never shown as a number; text is cut to a bound), and a part's folder is
taken only when the scorecard names it as one safe folder name whose path stays inside the suite
(`evaluation/core/rundir.py:inside_root`, a link leaving it is refused in one line).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaluation.core.rundir import MANIFEST, inside_root, safe_name
from evaluation.site.inputs import is_run, read_input
from evaluation.suite.runner import SUITE_ID

SCORECARD = "scorecard.json"
TEXT_LIMIT = 300
"""Characters kept of any text read from a scorecard (a note, a message, a policy name)."""
FAILURES = ("invalid", "illegal", "timeouts", "aborted")


@dataclass
class SuiteInput:
    """One suite run as the pages read it."""

    path: Path
    card: dict[str, Any]
    """The scorecard in `scorecard.py:build`'s shape, every field checked."""
    parts: dict[str, Path] = field(default_factory=dict)
    """Benchmark name -> its run directory, for the parts that completed."""
    manifests: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Benchmark name -> its run directory's manifest (policies' identities, settings)."""

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def policies(self) -> list[str]:
        return [str(row["policy"]) for row in self.card["rows"]]

    def cell(self, policy: str, benchmark: str) -> dict[str, Any]:
        """The scorecard cell of `policy` on `benchmark` (status `missing` when absent)."""
        row = next((r for r in self.card["rows"] if r["policy"] == policy), None)
        found = (row or {}).get("cells", {}).get(benchmark)
        return found if found is not None else _cell({"status": "missing"})


def is_suite(path: Path) -> bool:
    """Whether `path` is a suite run directory that has written its scorecard."""
    return is_run(Path(path), SUITE_ID, needs=(SCORECARD,))


def number(value: Any) -> float | None:
    """A finite number as a float (None: anything else, a bool included)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def text(value: Any, limit: int = TEXT_LIMIT) -> str:
    """A string or a number as bounded text ("" for anything else)."""
    if isinstance(value, str):
        return value[:limit]
    return "" if number(value) is None else str(value)


def _whole(value: Any) -> int | None:
    found = number(value)
    return None if found is None else int(found)


def _headline(data: Any) -> dict[str, Any]:
    data = data if isinstance(data, Mapping) else {}
    return {
        "label": text(data.get("label"), 80),
        "value": number(data.get("value")),
        "low95": number(data.get("low95")),
        "high95": number(data.get("high95")),
        "unit": text(data.get("unit"), 40),
        "normalised": number(data.get("normalised")),
    }


def _cell(data: Any) -> dict[str, Any]:
    data = data if isinstance(data, Mapping) else {}
    heads = data.get("headlines")
    failures = data.get("failures") if isinstance(data.get("failures"), Mapping) else {}
    return {
        "status": text(data.get("status"), 40) or "missing",
        "spec": text(data.get("spec")) or None,
        "note": text(data.get("note")),
        "headlines": [_headline(h) for h in heads[:20]] if isinstance(heads, list) else [],
        "costUsd": number(data.get("costUsd")),
        "promptTokens": _whole(data.get("promptTokens")),
        "completionTokens": _whole(data.get("completionTokens")),
        "seconds": number(data.get("seconds")),
        "failures": {k: _whole(failures.get(k)) for k in FAILURES},
        "label": text(data.get("label"), 80),
    }


def _references(data: Any) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for label, refs in data.items() if isinstance(data, Mapping) else []:
        if isinstance(refs, Mapping):
            kept = {r: v for r in ("random", "strongest") if (v := number(refs.get(r))) is not None}
            out[text(label, 80)] = kept
    return out


def clean_card(data: Any) -> dict[str, Any]:
    """A scorecard (`scorecard.py:build`'s shape) with every field checked; unknown keys
    dropped."""
    data = data if isinstance(data, Mapping) else {}
    raw_benchmarks = data.get("benchmarks") if isinstance(data.get("benchmarks"), list) else []
    benchmarks = []
    for b in raw_benchmarks[:50]:
        if not isinstance(b, Mapping) or not text(b.get("name"), 80):
            continue
        benchmarks.append(
            {
                "name": text(b.get("name"), 80),
                "status": text(b.get("status"), 40),
                "message": text(b.get("message")),
                "directory": text(b.get("directory"), 200),
                "seconds": number(b.get("seconds")),
                "spentUsd": number(b.get("spentUsd")),
                "references": _references(b.get("references")),
            }
        )
    names = [str(b["name"]) for b in benchmarks]
    rows = []
    raw_rows = data.get("rows") if isinstance(data.get("rows"), list) else []
    for row in raw_rows[:100]:
        if not isinstance(row, Mapping) or not text(row.get("policy")):
            continue
        given = row.get("cells")
        cells: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
        rows.append(
            {"policy": text(row.get("policy")), "cells": {n: _cell(cells.get(n)) for n in names}}
        )
    return {
        "budget": text(data.get("budget"), 40),
        "label": text(data.get("label"), 80) or "unlabelled",
        "normalisation": text(data.get("normalisation")),
        "benchmarks": benchmarks,
        "rows": rows,
    }


def load_suite(path: Path) -> SuiteInput:
    """A suite run's scorecard and the run directories of its completed parts."""
    path = Path(path)
    card = clean_card(read_input(inside_root(path, path / SCORECARD)))
    suite = SuiteInput(path, card)
    for benchmark in card["benchmarks"]:
        folder = benchmark["directory"]
        if benchmark["status"] != "complete" or not folder or folder != safe_name(folder):
            continue
        part = inside_root(path, path / folder)
        if part.is_dir() and (part / MANIFEST).is_file():
            manifest = read_input(inside_root(path, path / folder / MANIFEST))
            suite.parts[benchmark["name"]] = path / folder
            suite.manifests[benchmark["name"]] = manifest if isinstance(manifest, dict) else {}
    return suite


def split_inputs(inputs: Sequence[Path]) -> tuple[list[SuiteInput], list[Path]]:
    """(the suite runs among `inputs`, what the benchmarks' own pages are built from: the other
    inputs as given, then each suite's completed parts)."""
    suites = [load_suite(Path(p)) for p in inputs if is_suite(Path(p))]
    others = [Path(p) for p in inputs if not is_suite(Path(p))]
    return suites, others + [part for suite in suites for part in suite.parts.values()]

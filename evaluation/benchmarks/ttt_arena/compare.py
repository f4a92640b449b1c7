"""Two engines of one arena run, position by position and match by match.

The arena's score is the weighted mean of its categories' accuracies (`grading.py:WEIGHTS`: each
category of positions, and match play by points), so the paired difference is the weighted mean of
per-category mean differences (a position passed: 100, failed: 0; a match: 100 x its points), and
its interval resamples whole positions within their category and whole matches within match play
(`evaluation/core/stats.py`'s paired bootstrap, stratified as the score weighs categories). The
arena itself defines no interval for a score.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from evaluation.benchmarks.ttt_arena.grading import WEIGHTS
from evaluation.suite.paired import REPLICATES, Paired, pair_units
from evaluation.suite.part import read_object

LABEL = "score"
"""The suite's headline label (`suite_run.py`)."""
MATCHES = "match_play"


def _report(root: Path, spec: str) -> dict[str, Any] | None:
    """The report of the engine the run played as `spec` (matched by its slug)."""
    manifest = read_object(root, root / "manifest.json") or {}
    identity = (manifest.get("policies") or {}).get(spec)
    slug = identity.get("slug") if isinstance(identity, dict) else None
    document = read_object(root, root / "report.json") or {}
    listed = document.get("reports")
    reports = listed if isinstance(listed, list) else []
    return next(
        (r for r in reports if isinstance(r, dict) and (r.get("engine") or {}).get("slug") == slug),
        None,
    )


def _units(report: dict[str, Any]) -> tuple[dict[str, float], dict[str, str]]:
    """(unit id -> 0..100 result, unit id -> its category) over positions and matches."""
    values: dict[str, float] = {}
    strata: dict[str, str] = {}
    for position in report.get("positions") or []:
        if isinstance(position, dict) and position.get("category") in WEIGHTS:
            key = str(position.get("id"))
            values[key] = 100.0 if position.get("passed") is True else 0.0
            strata[key] = str(position["category"])
    for match in report.get("games") or []:
        points = match.get("points") if isinstance(match, dict) else None
        if isinstance(points, int | float) and not isinstance(points, bool):
            key = str(match.get("id"))
            values[key] = 100.0 * float(points)
            strata[key] = MATCHES
    return values, strata


def compare(run_dir: Path, a: str, b: str) -> list[Paired]:
    """Engine `a` against `b` (specs as the run was given them) over the positions and matches
    both played."""
    root = Path(run_dir)
    first, second = _report(root, a), _report(root, b)
    if first is None or second is None or first is second:
        return []
    (xa, strata), (xb, _) = _units(first), _units(second)
    paired = pair_units(
        LABEL,
        "position or match",
        xa,
        xb,
        "category-weighted mean difference (score points; a position passed 100, a match 100 x "
        f"its points), with a {REPLICATES:,}-replicate bootstrap resampling positions within "
        "their category and matches within match play, 95% percentile interval",
        strata=strata,
        weights={name: float(w) for name, w in WEIGHTS.items()},
    )
    return [] if paired is None else [paired]

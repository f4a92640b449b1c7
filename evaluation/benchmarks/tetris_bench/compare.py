"""Two brains of one Tetris Bench run, seed by seed: the leaderboard's head-to-head.

The difference and its interval are computed exactly as `leaderboard.py:_head_to_heads` computes
`leaderboard.json`'s `headToHead` (the paired seed-block bootstrap of `evaluation/core/stats.py`,
the board's replicates, seed 0, the higher-ranked brain first), from the board's own per-seed IQ
scores, then read in the order asked for: the comparison page shows the published figure.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from evaluation.core.rundir import safe_name
from evaluation.core.stats import paired_bootstrap
from evaluation.suite.paired import Paired
from evaluation.suite.part import read_object, read_results

LABEL = "IQ score"
"""The suite's headline label (`suite_run.py`)."""


def _slug(root: Path, spec: str) -> str | None:
    """The brain slug the results of `spec` record (the run keeps them under its spec's name)."""
    for result in read_results(root, root / "results" / safe_name(spec)):
        brain = result.get("brain")
        if result.get("mode") == "IQ" and isinstance(brain, dict):
            return str(brain.get("slug"))
    return None


def _row(board: dict[str, Any], slug: str | None) -> dict[str, Any] | None:
    rows = [r for r in board.get("rows") or [] if isinstance(r, dict)]
    return next((r for r in rows if r.get("slug") == slug), None)


def compare(run_dir: Path, a: str, b: str) -> list[Paired]:
    """Brain `a` against brain `b` (specs as the run was given them) over the board's IQ seeds;
    `[]` when the run has no board or either brain has no row on it."""
    root = Path(run_dir)
    board = read_object(root, root / "leaderboard.json")
    if board is None:
        return []
    first, second = _row(board, _slug(root, a)), _row(board, _slug(root, b))
    if first is None or second is None or first is second:
        return []
    flip = int(first.get("rank") or 0) > int(second.get("rank") or 0)
    upper, lower = (second, first) if flip else (first, second)
    seeds = [str(s) for s in board.get("seeds") or []]
    try:
        xa = [float(upper["seedScores"][s]) for s in seeds]
        xb = [float(lower["seedScores"][s]) for s in seeds]
        replicates = int(board.get("headToHeadReplicates", 2000))
        summary = paired_bootstrap(xa, xb, replicates, 0)
    except (KeyError, TypeError, ValueError):
        return []  # a board whose rows do not cover its seeds: nothing to pair
    paired = Paired(
        LABEL,
        "seed",
        summary,
        f"mean paired IQ score difference over {len(seeds)} seeds with a {replicates:,}-replicate "
        "seed-block bootstrap 95% percentile interval (leaderboard.json's head-to-head)",
        {s: x - y for s, x, y in zip(seeds, xa, xb, strict=True)},
    )
    return [paired.flipped() if flip else paired]

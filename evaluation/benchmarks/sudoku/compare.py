"""Two policies of one Sudoku run, grid by grid: the difference of their scores.

The score is the mean over tiers of each tier's solve rate (`scoring.py:tier_score`), so the
paired difference is the tier-weighted mean of per-grid differences in solved (0 or 100), and its
interval resamples whole grids within their tier (`evaluation/core/stats.py`'s paired bootstrap,
stratified as the score weighs tiers): the set's shared difficulty cancels out grid by grid.
"""

from __future__ import annotations

from pathlib import Path

from evaluation.core.rundir import safe_name
from evaluation.suite.paired import REPLICATES, Paired, pair_units
from evaluation.suite.part import read_results

LABEL = "score"
"""The suite's headline label (`suite_run.py`)."""


def _grids(root: Path, spec: str) -> tuple[dict[str, float], dict[str, str]]:
    """(grid id -> 100 when solved else 0, grid id -> its tier) of the results of `spec`."""
    solved: dict[str, float] = {}
    tiers: dict[str, str] = {}
    for result in read_results(root, root / "results" / safe_name(spec)):
        grid, tier = result.get("gridId"), result.get("tier")
        if isinstance(grid, str) and isinstance(tier, int) and not isinstance(tier, bool):
            solved[grid] = 100.0 if result.get("outcome") == "solved" else 0.0
            tiers[grid] = str(tier)
    return solved, tiers


def compare(run_dir: Path, a: str, b: str) -> list[Paired]:
    """Policy `a` against `b` (specs as the run was given them) on the grids both answered."""
    root = Path(run_dir)
    if a == b:
        return []
    (first, tiers), (second, _) = _grids(root, a), _grids(root, b)
    paired = pair_units(
        LABEL,
        "grid",
        first,
        second,
        "tier-weighted mean difference in grids solved (score points), with a "
        f"{REPLICATES:,}-replicate bootstrap resampling grids within each tier, 95% percentile "
        "interval",
        strata=tiers,
    )
    return [] if paired is None else [paired]

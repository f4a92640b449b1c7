"""A paired comparison of two policies on one benchmark, as a benchmark's `compare` hook gives it.

Where a benchmark plays both policies on the same units (seeds, grids, positions, matches), the
difference A - B per unit removes what the units share (a hard seed is hard for both), and the
interval comes from the benchmark's own method (`evaluation/core/stats.py`: the paired seed-block
bootstrap, or its stratified form for a score that weighs groups of units). The hook lives in
the benchmark's folder (`evaluation/benchmarks/<name>/compare.py`, the `compare` field of its
registry record); the site renders what it returns (`evaluation/suite/site_pages.py`) and knows
no benchmark.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from evaluation.core.stats import HeadToHead, stratified_paired_bootstrap

REPLICATES = 2000
"""Bootstrap replicates of a paired interval (seed 0), as the leaderboards' head-to-heads use."""


@dataclass(frozen=True)
class Paired:
    """Policy A against policy B on one headline of one benchmark, unit by unit (A - B)."""

    label: str
    """The headline compared (the scorecard's label for it)."""
    unit: str
    """What pairs the two (`seed`, `grid`, ...)."""
    summary: HeadToHead
    """Mean difference (on the headline's scale), its 95% interval and the per-unit wins."""
    method: str
    """How the interval was computed, in a sentence (shown under the table)."""
    differences: dict[str, float] = field(default_factory=dict)
    """Unit id -> A's result minus B's on that unit."""

    def flipped(self) -> Paired:
        """B - A: the same comparison read the other way round (a percentile interval of the
        negated replicates is the negated interval, ends swapped)."""
        s = self.summary
        return Paired(
            self.label,
            self.unit,
            HeadToHead(-s.mean_diff, -s.high, -s.low, s.wins_b, s.wins_a, s.ties, s.n),
            self.method,
            {unit: -value for unit, value in self.differences.items()},
        )

    def to_json(self) -> dict[str, Any]:
        """camelCase, for the comparison page's data."""
        s = self.summary
        return {
            "label": self.label,
            "unit": self.unit,
            "meanDiff": s.mean_diff,
            "low95": s.low,
            "high95": s.high,
            "winsA": s.wins_a,
            "winsB": s.wins_b,
            "ties": s.ties,
            "units": s.n,
            "includesZero": s.includes_zero,
            "method": self.method,
            "differences": dict(self.differences),
        }


def pair_units(
    label: str,
    unit: str,
    a: Mapping[str, float],
    b: Mapping[str, float],
    method: str,
    *,
    strata: Mapping[str, str] | None = None,
    weights: Mapping[str, float] | None = None,
) -> Paired | None:
    """A and B on the units both played (unit id -> result), A - B with the paired bootstrap of
    `evaluation/core/stats.py` (`stratified_paired_bootstrap`: whole units resampled within their
    stratum, the strata weighed by `weights`; one stratum is the plain seed-block bootstrap);
    None when they share no unit."""
    common = sorted(set(a) & set(b))
    if not common:
        return None
    xa, xb = [float(a[u]) for u in common], [float(b[u]) for u in common]
    groups = [(strata or {}).get(u, "") for u in common]
    summary = stratified_paired_bootstrap(xa, xb, groups, weights, REPLICATES, 0)
    return Paired(
        label, unit, summary, method, {u: x - y for u, x, y in zip(common, xa, xb, strict=True)}
    )

"""Repeated sampling (`--repeats`): the mean over units of each unit's mean over its repeats,
with an interval that includes the spread between repeats (a two-level bootstrap), kept apart
from `evaluation/core/stats.py` whose checks it shares."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from evaluation.core.stats import FloatArray, check_confidence, finite_array

# --------------------------------------------------------------------------- repeated sampling


@dataclass(frozen=True)
class RepeatedMean:
    """The mean over units (seeds, grids, positions) of each unit's mean over its repeats, with
    a percentile interval that includes the sampling spread (`repeated_bootstrap`); `within_sd`
    is the pooled sd between the repeats of one unit (what sampling alone moves a score),
    `between_sd` the sd of the units' means (what the unit moves it)."""

    mean: float
    low: float
    high: float
    units: int
    repeats: int
    """The most repeats any unit has (units may have fewer)."""
    within_sd: float | None
    between_sd: float | None

    def to_dict(self) -> dict[str, float | int | None]:
        """camelCase, for reports."""
        return {
            "mean": self.mean,
            "low": self.low,
            "high": self.high,
            "units": self.units,
            "repeats": self.repeats,
            "withinSd": self.within_sd,
            "betweenSd": self.between_sd,
        }


def repeated_bootstrap(
    scores: Sequence[Sequence[float]],
    replicates: int = 2000,
    seed: int = 0,
    confidence: float = 0.95,
    *,
    strata: Sequence[str] | None = None,
    weights: Mapping[str, float] | None = None,
) -> RepeatedMean:
    """Mean and two-level bootstrap percentile interval of scores over units x repeats.

    `scores[u]` holds unit u's score in each of its repeats (at least one). Each replicate
    draws units with replacement (within each stratum when `strata` labels them) and then, for
    every drawn unit, its repeats with replacement; the statistic is the mean over strata of the
    mean over a stratum's units of each unit's mean over repeats (without strata: the mean of
    the units' means); `weights` (stratum -> weight) makes it the weighted sum over strata
    divided by the sum of every weight given (a weighted category with no unit counts as 0, as
    in the arena's score). Resampling the repeats as well as the units puts the spread between
    samples into the interval even when it moves every unit the same way (a model that is good
    in one sample and bad in the next, on every seed: the units' means then agree and a
    one-level bootstrap would see no spread at all). The interval is conservative: the units'
    means already carry part of the sampling spread. With one repeat per unit it is the plain
    unit bootstrap.
    """
    check_confidence(confidence)
    if replicates < 1:
        raise ValueError(f"replicates must be >= 1, got {replicates}")
    units = [finite_array(row, "scores of a unit") for row in scores]
    if not units:
        raise ValueError("repeated_bootstrap needs at least one unit")
    if any(row.size == 0 for row in units):
        raise ValueError("every unit needs at least one repeat")
    labels = ["" for _ in units] if strata is None else [str(label) for label in strata]
    if len(labels) != len(units):
        raise ValueError(f"strata must label every unit: {len(labels)} labels, {len(units)} units")
    groups: dict[str, list[int]] = {}
    for index, label in enumerate(labels):
        groups.setdefault(label, []).append(index)
    share = _stratum_shares(list(groups), weights)
    rng = np.random.Generator(np.random.PCG64(seed))
    per_group = np.zeros((replicates, len(groups)))
    for g, members in enumerate(groups.values()):
        drawn = rng.integers(0, len(members), size=(replicates, len(members)))
        sums = np.zeros(replicates)
        for local, unit in enumerate(members):
            rows = np.nonzero(drawn == local)[0]  # the replicate of each draw of this unit
            if rows.size == 0:
                continue
            row = units[unit]
            inner = rng.integers(0, row.size, size=(rows.size, row.size))
            np.add.at(sums, rows, row[inner].mean(axis=1))
        per_group[:, g] = sums / len(members)
    stats = per_group @ share
    means = np.asarray([row.mean() for row in units])
    mean = float(np.asarray([means[members].mean() for members in groups.values()]) @ share)
    alpha = 1.0 - confidence
    low, high = np.percentile(stats, [100.0 * alpha / 2.0, 100.0 * (1.0 - alpha / 2.0)])
    return RepeatedMean(
        mean=mean,
        low=float(min(low, mean)),
        high=float(max(high, mean)),
        units=len(units),
        repeats=max(row.size for row in units),
        within_sd=_pooled_within_sd(units),
        between_sd=float(means.std(ddof=1)) if means.size > 1 else None,
    )


def _stratum_shares(names: Sequence[str], weights: Mapping[str, float] | None) -> FloatArray:
    """Each stratum's share of the statistic: equal without weights, else its weight over the
    sum of every weight given (ValueError: a stratum without a weight, a weight below 0)."""
    if weights is None:
        return np.full(len(names), 1.0 / len(names))
    missing = [name for name in names if name not in weights]
    if missing:
        raise ValueError(f"weights must name every stratum; missing {missing[:3]}")
    values = finite_array(weights.values(), "weights")
    if np.any(values < 0) or values.sum() <= 0:
        raise ValueError("weights must be >= 0 with a positive sum")
    return np.asarray([float(weights[name]) for name in names]) / float(values.sum())


def _pooled_within_sd(units: Sequence[FloatArray]) -> float | None:
    """The sd between repeats of one unit, pooled over units (None: no unit has two)."""
    squares = sum(float(((row - row.mean()) ** 2).sum()) for row in units)
    freedom = sum(row.size - 1 for row in units)
    return math.sqrt(squares / freedom) if freedom > 0 else None


# --------------------------------------------------------------------------- head-to-head

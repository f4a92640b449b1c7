"""Statistics behind the leaderboard: intervals (repeated sampling included), head-to-head,
Bradley-Terry ratings, calibration.

Every function is pure and deterministic: randomness comes only from a `seed` argument feeding
`numpy.random.Generator(PCG64(seed))`, so a published table can be recomputed bit for bit.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]

ELO_CENTRE = 1500.0
ELO_SCALE = 400.0 / math.log(10.0)  # Elo points per unit of log-strength
PRIOR_PRECISION = 0.25  # Gaussian prior on log-strengths: penalty 0.25/2 * sum(theta^2)


def _finite_array(values: Iterable[float], what: str) -> FloatArray:
    arr = np.asarray(list(values), dtype=np.float64)
    if arr.ndim != 1:
        raise ValueError(f"{what} must be a flat sequence of numbers")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{what} must be finite numbers")
    return arr


def _check_confidence(confidence: float) -> None:
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must lie strictly between 0 and 1, got {confidence}")


# --------------------------------------------------------------------------- mean and t-interval


def t_interval(
    values: Sequence[float], confidence: float = 0.95, min_n: int = 10
) -> tuple[float, float | None]:
    """Mean and half-width t(1-alpha/2, S-1) * sd / sqrt(S) of the per-seed scores.

    The half-width says how far the mean would move on another draw of seeds; it is None below
    `min_n` seeds because a handful of seeds makes the sd itself too noisy to publish.
    """
    _check_confidence(confidence)
    arr = _finite_array(values, "values")
    if arr.size == 0:
        raise ValueError("t_interval needs at least one value")
    mean = float(arr.mean())
    if arr.size < max(min_n, 2):
        return mean, None
    sd = float(arr.std(ddof=1))
    from scipy.stats import t as student_t  # here: importing scipy.stats takes seconds

    q = float(student_t.ppf(0.5 + confidence / 2.0, arr.size - 1))
    return mean, q * sd / math.sqrt(arr.size)


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
    _check_confidence(confidence)
    if replicates < 1:
        raise ValueError(f"replicates must be >= 1, got {replicates}")
    units = [_finite_array(row, "scores of a unit") for row in scores]
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
    values = _finite_array(weights.values(), "weights")
    if np.any(values < 0) or values.sum() <= 0:
        raise ValueError("weights must be >= 0 with a positive sum")
    return np.asarray([float(weights[name]) for name in names]) / float(values.sum())


def _pooled_within_sd(units: Sequence[FloatArray]) -> float | None:
    """The sd between repeats of one unit, pooled over units (None: no unit has two)."""
    squares = sum(float(((row - row.mean()) ** 2).sum()) for row in units)
    freedom = sum(row.size - 1 for row in units)
    return math.sqrt(squares / freedom) if freedom > 0 else None


# --------------------------------------------------------------------------- head-to-head


@dataclass(frozen=True)
class HeadToHead:
    """Seed-by-seed comparison of brain A with brain B (difference = A - B)."""

    mean_diff: float
    low: float
    high: float
    wins_a: int
    wins_b: int
    ties: int
    n: int

    @property
    def includes_zero(self) -> bool:
        """True when this data does not separate the two brains (the leaderboard's `≈`)."""
        return self.low <= 0.0 <= self.high


def paired_bootstrap(
    a: Sequence[float],
    b: Sequence[float],
    replicates: int = 2000,
    seed: int = 0,
    confidence: float = 0.95,
) -> HeadToHead:
    """Mean paired difference with a seed-block bootstrap percentile interval.

    `a[i]` and `b[i]` are the two brains' scores on the same seed; resampling whole seeds keeps
    the pairing, so seed difficulty (shared by both brains) cancels out of the interval.
    """
    _check_confidence(confidence)
    if replicates < 1:
        raise ValueError(f"replicates must be >= 1, got {replicates}")
    xa = _finite_array(a, "a")
    xb = _finite_array(b, "b")
    if xa.size != xb.size:
        raise ValueError(f"a and b must be aligned by seed: {xa.size} vs {xb.size} scores")
    if xa.size == 0:
        raise ValueError("paired_bootstrap needs at least one common seed")
    diff = xa - xb
    n = int(diff.size)
    rng = np.random.Generator(np.random.PCG64(seed))
    idx = rng.integers(0, n, size=(replicates, n))
    means = diff[idx].mean(axis=1)
    alpha = 1.0 - confidence
    low, high = np.percentile(means, [100.0 * alpha / 2.0, 100.0 * (1.0 - alpha / 2.0)])
    return HeadToHead(
        mean_diff=float(diff.mean()),
        low=float(low),
        high=float(high),
        wins_a=int(np.sum(diff > 0)),
        wins_b=int(np.sum(diff < 0)),
        ties=int(np.sum(diff == 0)),
        n=n,
    )


def stratified_paired_bootstrap(
    a: Sequence[float],
    b: Sequence[float],
    strata: Sequence[str],
    weights: Mapping[str, float] | None = None,
    replicates: int = 2000,
    seed: int = 0,
    confidence: float = 0.95,
) -> HeadToHead:
    """`paired_bootstrap` for a score that is a weighted mean of per-stratum means (a Sudoku
    tier-weighted score, an arena category-weighted score): the difference is
    `sum_s w_s * mean_s(a - b) / sum_s w_s` over the strata present, and each replicate resamples
    whole units (grids, positions) within their own stratum, so the pairing and the weighting both
    hold. `weights` default to equal; with one stratum it draws exactly what `paired_bootstrap`
    draws (the same interval)."""
    _check_confidence(confidence)
    if replicates < 1:
        raise ValueError(f"replicates must be >= 1, got {replicates}")
    xa, xb = _finite_array(a, "a"), _finite_array(b, "b")
    if not xa.size == xb.size == len(strata):
        raise ValueError(f"a, b and strata must be aligned: {xa.size}, {xb.size}, {len(strata)}")
    if xa.size == 0:
        raise ValueError("stratified_paired_bootstrap needs at least one common unit")
    diff = xa - xb
    names = list(dict.fromkeys(strata))
    chosen = {name: float((weights or {}).get(name, 1.0)) for name in names}
    if any(not (w > 0 and math.isfinite(w)) for w in chosen.values()):
        raise ValueError(f"weights must be finite and > 0, got {chosen}")
    total = sum(chosen.values())
    rng = np.random.Generator(np.random.PCG64(seed))
    estimate = 0.0
    means = np.zeros(replicates)
    for name in names:
        block = diff[[i for i, s in enumerate(strata) if s == name]]
        share = chosen[name] / total
        estimate += share * float(block.mean())
        idx = rng.integers(0, block.size, size=(replicates, block.size))
        means += share * block[idx].mean(axis=1)
    alpha = 1.0 - confidence
    low, high = np.percentile(means, [100.0 * alpha / 2.0, 100.0 * (1.0 - alpha / 2.0)])
    return HeadToHead(
        mean_diff=estimate,
        low=float(low),
        high=float(high),
        wins_a=int(np.sum(diff > 0)),
        wins_b=int(np.sum(diff < 0)),
        ties=int(np.sum(diff == 0)),
        n=int(diff.size),
    )


# --------------------------------------------------------------------------- Bradley-Terry


@dataclass(frozen=True)
class Comparison:
    """One weighted pairwise outcome: `score_a` is 1 (A won), 0.5 (tie) or 0 (B won)."""

    a: str
    b: str
    score_a: float
    weight: float = 1.0

    def __post_init__(self) -> None:
        if self.a == self.b:
            raise ValueError(f"a comparison needs two different brains, got {self.a!r} twice")
        if not 0.0 <= self.score_a <= 1.0:
            raise ValueError(f"score_a must lie in [0, 1], got {self.score_a}")
        if not (self.weight >= 0.0 and math.isfinite(self.weight)):
            raise ValueError(f"weight must be finite and >= 0, got {self.weight}")


def _seed_pairs(
    scores_by_brain_by_seed: Mapping[str, Mapping[str, float]],
) -> list[tuple[str, Comparison]]:
    """(seed, comparison) for every pair of brains on every seed, weighted 1/(n-1)."""
    by_seed: dict[str, dict[str, float]] = {}
    for brain, per_seed in scores_by_brain_by_seed.items():
        for seed, score in per_seed.items():
            by_seed.setdefault(seed, {})[brain] = float(score)
    out: list[tuple[str, Comparison]] = []
    for seed in sorted(by_seed):
        field = by_seed[seed]
        brains = sorted(field)
        if len(brains) < 2:
            continue
        weight = 1.0 / (len(brains) - 1)
        for i, a in enumerate(brains):
            for b in brains[i + 1 :]:
                sa, sb = field[a], field[b]
                score_a = 1.0 if sa > sb else 0.0 if sa < sb else 0.5
                out.append((seed, Comparison(a, b, score_a, weight)))
    return out


def seed_comparisons(
    scores_by_brain_by_seed: Mapping[str, Mapping[str, float]],
) -> list[Comparison]:
    """Every pair of brains on every seed, weighted 1/(n-1) for the n brains on that seed.

    `scores_by_brain_by_seed[brain][seed]` is a final score; the higher score wins, equal scores
    tie. The weight gives each brain a total weight of one per seed however large the field, so
    a seed played by many brains does not count more than a seed played by few.
    """
    return [c for _, c in _seed_pairs(scores_by_brain_by_seed)]


def _objective(theta: FloatArray, wins: FloatArray, prior_precision: float) -> float:
    """Negative log posterior: -sum W_ij log sigmoid(theta_i - theta_j) + lambda/2 |theta|^2."""
    diff = theta[:, None] - theta[None, :]
    return float(np.sum(wins * np.logaddexp(0.0, -diff)) + 0.5 * prior_precision * theta @ theta)


def _fit_theta(
    wins: FloatArray,
    prior_precision: float,
    start: FloatArray | None = None,
    tol: float = 1e-10,
    max_iter: int = 200,
) -> FloatArray:
    """Penalised Bradley-Terry MAP log-strengths by damped Newton on the win matrix.

    `wins[i, j]` is the weighted number of times i beat j. The objective is convex (strictly so
    with a prior), so Newton with a backtracking line search converges in a few steps and is
    deterministic. With no prior the all-ones direction is flat; the minimum-norm step of
    `lstsq` never moves along it.
    """
    from scipy.special import expit  # here: an import that takes a second, for the fits only

    k = wins.shape[0]
    theta = np.zeros(k) if start is None else start.astype(np.float64, copy=True)
    games = wins + wins.T
    value = _objective(theta, wins, prior_precision)
    for _ in range(max_iter):
        p = expit(theta[:, None] - theta[None, :])  # p[i, j] = P(i beats j)
        grad = -(wins.sum(axis=1) - (games * p).sum(axis=1)) + prior_precision * theta
        if float(np.max(np.abs(grad), initial=0.0)) < tol:
            break
        curv = games * p * p.T
        hess = np.diag(curv.sum(axis=1) + prior_precision) - curv
        if prior_precision > 0.0:
            step = np.linalg.solve(hess, -grad)
        else:
            step = np.linalg.lstsq(hess, -grad, rcond=None)[0]
        slope = float(grad @ step)
        if -slope < 1e-10 * (1.0 + abs(value)):
            # Quadratic region: the decrease is below what the objective's rounding can show,
            # so a line search would only stall; full Newton steps converge from here.
            theta = theta + step
            value = _objective(theta, wins, prior_precision)
            if float(np.max(np.abs(step))) < tol:
                break
            continue
        t = 1.0
        candidate = theta + step
        new_value = _objective(candidate, wins, prior_precision)
        while new_value > value + 1e-4 * t * slope and t > 1e-10:
            t *= 0.5
            candidate = theta + t * step
            new_value = _objective(candidate, wins, prior_precision)
        if new_value > value:  # no descent left: at the optimum to machine precision
            break
        theta, value = candidate, new_value
    return theta


def _to_elo(theta: FloatArray) -> FloatArray:
    """Log-strengths on the Elo scale, centred so the mean rating is exactly 1500."""
    return ELO_CENTRE + ELO_SCALE * (theta - theta.mean())


def _check_prior(prior_precision: float) -> None:
    if not (prior_precision >= 0.0 and math.isfinite(prior_precision)):
        raise ValueError(f"prior_precision must be finite and >= 0, got {prior_precision}")


def bradley_terry(
    outcomes: Iterable[Comparison],
    prior_precision: float = PRIOR_PRECISION,
    *,
    brains: Iterable[str] = (),
    tol: float = 1e-10,
    max_iter: int = 200,
) -> dict[str, float]:
    """Penalised Bradley-Terry MAP ratings on the Elo scale (1500 + 400/ln 10 * theta, mean 1500).

    The Gaussian prior (precision `prior_precision` on each log-strength) keeps a brain that won
    or lost everything at a finite rating. `brains` adds entrants without comparisons (they sit
    at the prior mean). With `prior_precision=0` a separated record has no finite maximum.
    """
    _check_prior(prior_precision)
    comps = list(outcomes)
    names = sorted({*brains, *(c.a for c in comps), *(c.b for c in comps)})
    if not names:
        return {}
    index = {name: i for i, name in enumerate(names)}
    wins = np.zeros((len(names), len(names)))
    for c in comps:
        i, j = index[c.a], index[c.b]
        wins[i, j] += c.weight * c.score_a
        wins[j, i] += c.weight * (1.0 - c.score_a)
    theta = _fit_theta(wins, prior_precision, tol=tol, max_iter=max_iter)
    return dict(zip(names, (float(r) for r in _to_elo(theta)), strict=True))


def separated(outcomes: Iterable[Comparison]) -> dict[str, bool]:
    """Per brain: True when its record against every opponent is one-sided (each pairing all
    wins or all losses; a tie is neither).

    Such a record says only in which order the brains stand, never *how far* apart: every
    bootstrap replicate then repeats the same order and the interval would echo the prior (a
    brain between two it always beat and always lost to gets a zero-width interval), so it is
    withheld.
    """
    seen: dict[tuple[str, str], set[float]] = {}
    for c in outcomes:
        if c.weight == 0.0:
            continue
        seen.setdefault((c.a, c.b), set()).add(c.score_a)
        seen.setdefault((c.b, c.a), set()).add(1.0 - c.score_a)
    flags: dict[str, bool] = {}
    for (brain, _), results in seen.items():
        one_sided = results in ({1.0}, {0.0})
        flags[brain] = flags.get(brain, True) and one_sided
    return flags


def bt_bootstrap(
    scores_by_brain_by_seed: Mapping[str, Mapping[str, float]],
    replicates: int = 2000,
    seed: int = 0,
    *,
    prior_precision: float = PRIOR_PRECISION,
    confidence: float = 0.95,
) -> dict[str, tuple[float, float] | None]:
    """Seed-block bootstrap percentile interval of each brain's Bradley-Terry Elo rating.

    `scores_by_brain_by_seed[brain][seed]` is a final score. Whole seeds are resampled (all the
    brains' scores on a seed travel together) and the ratings refitted. The interval is None for
    a brain whose record is separated or that has no comparison at all.
    """
    _check_confidence(confidence)
    _check_prior(prior_precision)
    if replicates < 1:
        raise ValueError(f"replicates must be >= 1, got {replicates}")
    names = sorted(scores_by_brain_by_seed)
    seeds = sorted({s for per_seed in scores_by_brain_by_seed.values() for s in per_seed})
    if not seeds:
        return dict.fromkeys(names)
    pairs = _seed_pairs(scores_by_brain_by_seed)
    is_separated = separated(c for _, c in pairs)
    index = {name: i for i, name in enumerate(names)}
    seed_index = {s: i for i, s in enumerate(seeds)}
    per_seed_wins = np.zeros((len(seeds), len(names), len(names)))
    for seed_name, c in pairs:
        s, i, j = seed_index[seed_name], index[c.a], index[c.b]
        per_seed_wins[s, i, j] += c.weight * c.score_a
        per_seed_wins[s, j, i] += c.weight * (1.0 - c.score_a)
    full = _fit_theta(per_seed_wins.sum(axis=0), prior_precision)
    rng = np.random.Generator(np.random.PCG64(seed))
    draws = rng.integers(0, len(seeds), size=(replicates, len(seeds)))
    ratings = np.empty((replicates, len(names)))
    for r in range(replicates):
        counts = np.bincount(draws[r], minlength=len(seeds)).astype(np.float64)
        wins = np.tensordot(counts, per_seed_wins, axes=1)
        ratings[r] = _to_elo(_fit_theta(wins, prior_precision, start=full))
    alpha = 1.0 - confidence
    bounds = np.percentile(ratings, [100.0 * alpha / 2.0, 100.0 * (1.0 - alpha / 2.0)], axis=0)
    out: dict[str, tuple[float, float] | None] = {}
    for name, i in index.items():
        if is_separated.get(name, True):
            out[name] = None
        else:
            out[name] = (float(bounds[0, i]), float(bounds[1, i]))
    return out


# --------------------------------------------------------------------------- calibration, cost


def brier(pairs: Iterable[tuple[float, bool]]) -> float | None:
    """Mean squared error of reported risks against what happened; None with no reports.

    Lower is better; 0.25 is what a constant 0.5 scores, so it is the bar for "says something".
    """
    data = list(pairs)
    if not data:
        return None
    risk = _finite_array((r for r, _ in data), "risks")
    outcome = np.asarray([1.0 if o else 0.0 for _, o in data])
    return float(np.mean((risk - outcome) ** 2))

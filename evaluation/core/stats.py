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


def finite_array(values: Iterable[float], what: str) -> FloatArray:
    arr = np.asarray(list(values), dtype=np.float64)
    if arr.ndim != 1:
        raise ValueError(f"{what} must be a flat sequence of numbers")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{what} must be finite numbers")
    return arr


def check_confidence(confidence: float) -> None:
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
    check_confidence(confidence)
    arr = finite_array(values, "values")
    if arr.size == 0:
        raise ValueError("t_interval needs at least one value")
    mean = float(arr.mean())
    if arr.size < max(min_n, 2):
        return mean, None
    sd = float(arr.std(ddof=1))
    from scipy.stats import t as student_t  # here: importing scipy.stats takes seconds

    q = float(student_t.ppf(0.5 + confidence / 2.0, arr.size - 1))
    return mean, q * sd / math.sqrt(arr.size)


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
    check_confidence(confidence)
    if replicates < 1:
        raise ValueError(f"replicates must be >= 1, got {replicates}")
    xa = finite_array(a, "a")
    xb = finite_array(b, "b")
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
    check_confidence(confidence)
    if replicates < 1:
        raise ValueError(f"replicates must be >= 1, got {replicates}")
    xa, xb = finite_array(a, "a"), finite_array(b, "b")
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
    check_confidence(confidence)
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
    risk = finite_array((r for r, _ in data), "risks")
    outcome = np.asarray([1.0 if o else 0.0 for _, o in data])
    return float(np.mean((risk - outcome) ** 2))

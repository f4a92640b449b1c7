"""Ratings on the ladder's Elo scale: the one-player fit against fixed rung ratings (a model's
rating, item 7 of the chess issue) and the calibration fit of the weak rungs against pinned
Stockfish rungs.

Expected score of A against B: `1 / (1 + 10 ** ((r_B - r_A) / 400))`; a draw counts as half a win
in the (binomial) likelihood, as in Elo practice.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq, minimize, minimize_scalar

ELO_SCALE = 400.0 / math.log(10.0)
CHI2_95 = 3.841458820694124
"""The 95% quantile of chi-squared with one degree of freedom (profile-likelihood interval)."""
SEARCH_SPAN = 3000.0
"""How far from the opponents' ratings the interval search looks (Elo)."""


def score_of(result: str, white: bool) -> float:
    """The points a PGN result ("1-0", "0-1", "1/2-1/2") gives the white or black player."""
    if result == "1/2-1/2":
        return 0.5
    if result not in ("1-0", "0-1"):
        raise ValueError(f"not a finished game's result: {result!r}")
    return 1.0 if (result == "1-0") == white else 0.0


def expected_score(rating: float, opponent: float) -> float:
    """Elo expectation of `rating` against `opponent`."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def log_likelihood(rating: float, games: Sequence[tuple[float, float]]) -> float:
    """Sum over `(opponent_rating, score)` of `s log E + (1 - s) log(1 - E)`."""
    total = 0.0
    for opponent, score in games:
        d = (rating - opponent) / ELO_SCALE
        # log E = -log(1 + e^-d), log(1 - E) = -log(1 + e^d), computed stably
        total -= score * np.logaddexp(0.0, -d) + (1.0 - score) * np.logaddexp(0.0, d)
    return float(total)


@dataclass(frozen=True)
class RatingFit:
    """A one-player fit: `rating` and its 95% profile-likelihood interval, or None with `note`."""

    rating: float | None
    low: float | None
    high: float | None
    games: int
    score: float
    note: str = ""

    def to_dict(self) -> dict[str, object]:
        """camelCase JSON form."""
        return {
            "rating": self.rating,
            "low95": self.low,
            "high95": self.high,
            "games": self.games,
            "score": self.score,
            "note": self.note,
        }


def fit_rating(games: Iterable[tuple[float, float]]) -> RatingFit:
    """Maximum-likelihood rating from `(opponent_rating, score)` pairs (score 1, 0.5, 0) against
    fixed opponents, with the 95% profile-likelihood interval. No rating when there are no games
    or every game was won (or every game lost): the likelihood then has no maximum."""
    data = [(float(o), float(s)) for o, s in games]
    for _, s in data:
        if s not in (0.0, 0.5, 1.0):
            raise ValueError(f"a game scores 1, 0.5 or 0, got {s!r}")
    n = len(data)
    score = sum(s for _, s in data)
    if n == 0:
        return RatingFit(None, None, None, 0, 0.0, "no finished games")
    if score == n:
        return RatingFit(
            None, None, None, n, score, "won every game: no finite rating (above the top opponent)"
        )
    if score == 0:
        return RatingFit(
            None,
            None,
            None,
            n,
            score,
            "lost every game: no finite rating (below the bottom opponent)",
        )
    lo_bound = min(o for o, _ in data) - SEARCH_SPAN
    hi_bound = max(o for o, _ in data) + SEARCH_SPAN
    best = minimize_scalar(
        lambda r: -log_likelihood(r, data),
        bounds=(lo_bound, hi_bound),
        method="bounded",
        options={"xatol": 1e-6},
    )
    rating = float(best.x)
    peak = log_likelihood(rating, data)

    def gap(r: float) -> float:
        return 2.0 * (peak - log_likelihood(r, data)) - CHI2_95

    low = brentq(gap, lo_bound, rating) if gap(lo_bound) > 0 else None
    high = brentq(gap, rating, hi_bound) if gap(hi_bound) > 0 else None
    note = "" if low is not None and high is not None else "interval open at the search span"
    return RatingFit(rating, low, high, n, score, note)


@dataclass(frozen=True)
class PairResult:
    """Games between two players: `score_a` points for `a` out of `games`."""

    a: str
    b: str
    score_a: float
    games: int


def fit_pinned(
    results: Sequence[PairResult],
    pinned: Mapping[str, float],
    *,
    virtual_draws: float = 1.0,
) -> dict[str, tuple[float, float]]:
    """Ratings of the players not in `pinned`, fitted to `results` with the pinned ones fixed:
    name -> (rating, standard error). Each pair that met gets `virtual_draws` extra drawn games
    (BayesElo's prior), so a player who won or lost every game still has a finite rating."""
    free = sorted({p for r in results for p in (r.a, r.b)} - set(pinned))
    if not free:
        return {}
    index = {name: i for i, name in enumerate(free)}
    start = float(np.mean(list(pinned.values()))) if pinned else 0.0

    def ratings(x: np.ndarray) -> dict[str, float]:
        out = dict(pinned)
        out.update({name: float(x[i]) for name, i in index.items()})
        return out

    def nll(x: np.ndarray) -> float:
        r = ratings(x)
        total = 0.0
        for res in results:
            wins = res.score_a + virtual_draws / 2.0
            games = res.games + virtual_draws
            d = (r[res.a] - r[res.b]) / ELO_SCALE
            total += wins * np.logaddexp(0.0, -d) + (games - wins) * np.logaddexp(0.0, d)
        return float(total)

    fit = minimize(nll, np.full(len(free), start), method="BFGS")
    x = fit.x
    hessian = _hessian(nll, x)
    try:
        cov = np.linalg.inv(hessian)
        errors = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    except np.linalg.LinAlgError:
        errors = np.full(len(free), np.nan)
    return {name: (float(x[i]), float(errors[i])) for name, i in index.items()}


def _hessian(f: object, x: np.ndarray, h: float = 1.0) -> np.ndarray:
    """Central-difference Hessian of `f` at `x` (step `h` Elo)."""
    fn = f  # typed as object to keep the signature simple for callers
    assert callable(fn)
    n = len(x)
    out = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            e_i = np.zeros(n)
            e_j = np.zeros(n)
            e_i[i] = h
            e_j[j] = h
            out[i, j] = (
                fn(x + e_i + e_j) - fn(x + e_i - e_j) - fn(x - e_i + e_j) + fn(x - e_i - e_j)
            ) / (4 * h * h)
    return out

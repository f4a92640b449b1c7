"""The interval of repeated sampling (`evaluation/core/stats.py:repeated_bootstrap`): means and
spreads computed by hand, the sampling spread widening the interval, bad input refused."""

from __future__ import annotations

import math

import numpy as np
import pytest

from evaluation.core.repeated_stats import repeated_bootstrap
from evaluation.core.stats import t_interval


def test_the_mean_is_the_mean_of_each_units_mean_over_its_repeats() -> None:
    got = repeated_bootstrap([[1.0, 3.0], [5.0]], replicates=50)
    assert got.mean == pytest.approx((2.0 + 5.0) / 2)
    assert (got.units, got.repeats) == (2, 2)
    assert got.low <= got.mean <= got.high


def test_strata_weigh_each_stratum_once() -> None:
    got = repeated_bootstrap([[0.0], [10.0], [4.0]], replicates=50, strata=["a", "a", "b"])
    assert got.mean == pytest.approx((5.0 + 4.0) / 2)


def test_weights_weigh_strata_over_the_sum_of_every_weight() -> None:
    """The arena's rule: weight 1 on a (mean 5), 3 on b (mean 4), 4 on c with no unit (0)."""
    got = repeated_bootstrap(
        [[0.0], [10.0], [4.0]],
        replicates=50,
        strata=["a", "a", "b"],
        weights={"a": 1, "b": 3, "c": 4},
    )
    assert got.mean == pytest.approx((1 * 5.0 + 3 * 4.0) / 8)
    assert got.low <= got.mean <= got.high
    with pytest.raises(ValueError, match="every stratum"):
        repeated_bootstrap([[1.0]], strata=["a"], weights={"b": 1.0})
    with pytest.raises(ValueError, match="positive sum"):
        repeated_bootstrap([[1.0]], strata=["a"], weights={"a": 0.0})


def test_spreads_by_hand() -> None:
    got = repeated_bootstrap([[1.0, 3.0], [5.0, 5.0]], replicates=10)
    # within: ((1-2)^2 + (3-2)^2 + 0 + 0) / (1 + 1) = 1; between: sd of 2 and 5
    assert got.within_sd == pytest.approx(1.0)
    assert got.between_sd == pytest.approx(3.0 / math.sqrt(2.0))
    one = repeated_bootstrap([[4.0]], replicates=10)
    assert one.within_sd is None and one.between_sd is None
    assert (one.low, one.mean, one.high) == (4.0, 4.0, 4.0)


def test_identical_scores_give_a_zero_width_interval() -> None:
    got = repeated_bootstrap([[7.0, 7.0, 7.0]] * 12)
    assert (got.low, got.mean, got.high) == (7.0, 7.0, 7.0)
    assert got.within_sd == 0.0


def test_repeats_that_agree_give_the_single_repeat_interval() -> None:
    """Resampling identical repeats changes nothing: the units are drawn the same way."""
    scores = [float(v) for v in range(20)]
    once = repeated_bootstrap([[v] for v in scores], seed=3)
    twice = repeated_bootstrap([[v, v] for v in scores], seed=3)
    assert (twice.low, twice.mean, twice.high) == (once.low, once.mean, once.high)


def test_repeats_that_disagree_the_same_way_on_every_seed_widen_the_interval() -> None:
    """A model good in one sample and bad in the next on every seed: the seeds' means agree (a
    bootstrap of the means sees nothing), and so does one repeat alone; the interval does not."""
    scores = [[10.0, 0.0]] * 30
    got = repeated_bootstrap(scores)
    first = repeated_bootstrap([[row[0]] for row in scores])
    means_only = repeated_bootstrap([[float(np.mean(row))] for row in scores])
    assert first.high - first.low == 0.0 and means_only.high - means_only.low == 0.0
    mean, half = t_interval([row[0] for row in scores], min_n=2)
    assert half == 0.0 and mean == 10.0
    assert got.mean == 5.0 and got.high - got.low > 2.0
    assert got.within_sd == pytest.approx(math.sqrt(50.0))


def test_more_sampling_spread_means_a_wider_interval_around_the_same_mean() -> None:
    rng = np.random.default_rng(1)
    centres = rng.normal(50.0, 5.0, size=25)
    calm = repeated_bootstrap([[c - 1.0, c + 1.0] for c in centres])
    noisy = repeated_bootstrap([[c - 20.0, c + 20.0] for c in centres])
    assert calm.mean == pytest.approx(noisy.mean)
    assert noisy.high - noisy.low > calm.high - calm.low


def test_it_covers_the_true_mean_about_as_often_as_it_says() -> None:
    """Seeds x repeats drawn from a known model (seed effect sd 4, sampling sd 6, mean 20): the
    95% interval covers 20 in at least 90 of 100 draws (it is conservative by design)."""
    rng = np.random.default_rng(7)
    covered = 0
    for trial in range(100):
        effects = rng.normal(0.0, 4.0, size=20)
        scores = [list(20.0 + e + rng.normal(0.0, 6.0, size=3)) for e in effects]
        got = repeated_bootstrap(scores, replicates=400, seed=trial)
        covered += got.low <= 20.0 <= got.high
    assert covered >= 90


def test_the_same_seed_gives_the_same_interval() -> None:
    scores = [list(row) for row in np.random.default_rng(2).normal(size=(12, 3))]
    assert repeated_bootstrap(scores, seed=5) == repeated_bootstrap(scores, seed=5)
    assert repeated_bootstrap(scores, seed=5) != repeated_bootstrap(scores, seed=6)


def test_to_dict_is_camel_case() -> None:
    got = repeated_bootstrap([[1.0, 2.0], [3.0, 5.0]], replicates=20).to_dict()
    assert set(got) == {"mean", "low", "high", "units", "repeats", "withinSd", "betweenSd"}


@pytest.mark.parametrize(
    ("scores", "more", "message"),
    [
        ([], {}, "at least one unit"),
        ([[1.0], []], {}, "at least one repeat"),
        ([[1.0, math.nan]], {}, "finite"),
        ([[1.0], [2.0]], {"strata": ["a"]}, "label every unit"),
        ([[1.0]], {"confidence": 1.0}, "confidence"),
        ([[1.0]], {"replicates": 0}, "replicates"),
    ],
)
def test_bad_input_is_refused(scores: list[list[float]], more: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        repeated_bootstrap(scores, **more)

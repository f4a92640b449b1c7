"""Leaderboard statistics: every expected value here is computed by hand, not by the code tested.

Quantiles are written as literals (t(0.975, 9) = 2.262157) and Bradley-Terry optima are found by
solving the one-dimensional penalised likelihood the symmetry of each table leaves.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import brentq

from evaluation.core.stats import (
    Comparison,
    HeadToHead,
    bradley_terry,
    brier,
    bt_bootstrap,
    paired_bootstrap,
    seed_comparisons,
    separated,
    t_interval,
)

ELO_PER_NAT = 400.0 / math.log(10.0)


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


# --------------------------------------------------------------------------- t-interval

SAMPLE = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0, 10.0, 10.0]  # mean 6, sum of squares 72


def test_t_interval_matches_hand_computation_on_ten_seeds() -> None:
    sd = math.sqrt(72.0 / 9.0)  # sample sd, ddof = 1
    expected = 2.262157 * sd / math.sqrt(10.0)  # t(0.975, 9)
    mean, half = t_interval(SAMPLE)
    assert mean == pytest.approx(6.0)
    assert half == pytest.approx(expected, abs=1e-5)
    assert half == pytest.approx(2.023327, abs=1e-5)


def test_t_interval_other_confidence_uses_its_quantile() -> None:
    _, half = t_interval(SAMPLE, confidence=0.90)
    assert half == pytest.approx(1.833113 * math.sqrt(8.0) / math.sqrt(10.0), abs=1e-5)


def test_no_interval_under_ten_seeds_but_the_mean_is_reported() -> None:
    mean, half = t_interval(SAMPLE[:9])
    assert half is None
    assert mean == pytest.approx(sum(SAMPLE[:9]) / 9)


def test_minimum_seed_count_is_a_parameter() -> None:
    values = [1.0, 2.0, 6.0]  # mean 3, sd sqrt(7)
    mean, half = t_interval(values, min_n=3)
    assert mean == pytest.approx(3.0)
    assert half == pytest.approx(4.302653 * math.sqrt(7.0) / math.sqrt(3.0), abs=1e-5)
    assert t_interval([5.0], min_n=1) == (5.0, None)  # one value has no sd


def test_t_interval_refuses_empty_or_non_finite_input() -> None:
    with pytest.raises(ValueError):
        t_interval([])
    with pytest.raises(ValueError):
        t_interval([1.0, float("nan")])


@settings(max_examples=50, deadline=None)
@given(
    values=st.lists(st.integers(0, 100_000), min_size=10, max_size=40),
    scale=st.floats(0.01, 100.0),
    shift=st.floats(-1e4, 1e4),
)
def test_t_interval_scales_with_the_data_and_ignores_a_shift(
    values: list[int], scale: float, shift: float
) -> None:
    mean, half = t_interval([float(v) for v in values])
    mean2, half2 = t_interval([scale * v + shift for v in values])
    assert half is not None and half2 is not None
    assert mean2 == pytest.approx(scale * mean + shift, rel=1e-9, abs=1e-6)
    assert half2 == pytest.approx(scale * half, rel=1e-9, abs=1e-6)


# --------------------------------------------------------------------------- head-to-head

NOISY_A = [120.0, 80.0, 300.0, 50.0, 210.0, 95.0, 400.0, 10.0, 160.0, 240.0, 75.0, 130.0]
NOISY_B = [100.0, 90.0, 250.0, 70.0, 200.0, 60.0, 420.0, 15.0, 150.0, 180.0, 90.0, 110.0]


def test_bootstrap_is_reproducible_for_a_seed_and_changes_with_it() -> None:
    first = paired_bootstrap(NOISY_A, NOISY_B, seed=7)
    assert paired_bootstrap(NOISY_A, NOISY_B, seed=7) == first
    other = paired_bootstrap(NOISY_A, NOISY_B, seed=8)
    assert (other.low, other.high) != (first.low, first.high)
    assert other.mean_diff == first.mean_diff  # the point estimate does not depend on the seed


def test_bootstrap_counts_wins_ties_and_the_mean_difference() -> None:
    h = paired_bootstrap([10.0, 20.0, 30.0, 40.0], [5.0, 20.0, 35.0, 0.0])
    assert (h.wins_a, h.wins_b, h.ties, h.n) == (2, 1, 1, 4)
    assert h.mean_diff == pytest.approx((5 + 0 - 5 + 40) / 4)
    assert h.low <= h.mean_diff <= h.high


def test_a_dominating_brain_has_an_interval_excluding_zero() -> None:
    a = [b + 50.0 + (i % 3) * 10.0 for i, b in enumerate(NOISY_B)]
    h = paired_bootstrap(a, NOISY_B)
    assert h.wins_a == len(a)
    assert h.low >= 50.0 and h.high <= 70.0
    assert not h.includes_zero


def test_equal_brains_have_an_interval_including_zero() -> None:
    same = paired_bootstrap(NOISY_B, NOISY_B)
    assert (same.low, same.high, same.ties) == (0.0, 0.0, len(NOISY_B))
    assert same.includes_zero
    swings = [b + (30.0 if i % 2 else -30.0) for i, b in enumerate(NOISY_B)]  # mean diff 0
    h = paired_bootstrap(swings, NOISY_B)
    assert h.mean_diff == pytest.approx(0.0)
    assert h.includes_zero


def test_one_seed_gives_a_degenerate_interval_at_the_difference() -> None:
    assert paired_bootstrap([7.0], [3.0]) == HeadToHead(4.0, 4.0, 4.0, 1, 0, 0, 1)


def test_bootstrap_refuses_unaligned_or_empty_scores() -> None:
    with pytest.raises(ValueError, match="aligned"):
        paired_bootstrap([1.0, 2.0], [1.0])
    with pytest.raises(ValueError):
        paired_bootstrap([], [])


@settings(max_examples=30, deadline=None)
@given(
    pairs=st.lists(st.tuples(st.integers(0, 5000), st.integers(0, 5000)), min_size=1, max_size=30),
    seed=st.integers(0, 2**32),
)
def test_swapping_the_brains_mirrors_the_head_to_head(
    pairs: list[tuple[int, int]], seed: int
) -> None:
    a = [float(x) for x, _ in pairs]
    b = [float(y) for _, y in pairs]
    ab = paired_bootstrap(a, b, replicates=200, seed=seed)
    ba = paired_bootstrap(b, a, replicates=200, seed=seed)
    assert ba.mean_diff == pytest.approx(-ab.mean_diff)
    assert ba.low == pytest.approx(-ab.high, abs=1e-9)
    assert ba.high == pytest.approx(-ab.low, abs=1e-9)
    assert (ba.wins_a, ba.wins_b, ba.ties) == (ab.wins_b, ab.wins_a, ab.ties)


# --------------------------------------------------------------------------- Bradley-Terry

THREE_OF_FOUR = [Comparison("A", "B", 1.0)] * 3 + [Comparison("A", "B", 0.0)]


def test_bt_without_prior_recovers_the_log_odds() -> None:
    r = bradley_terry(THREE_OF_FOUR, prior_precision=0.0)
    assert r["A"] - r["B"] == pytest.approx(400.0 * math.log10(3.0), abs=1e-6)  # ≈ 190.85
    assert r["A"] - r["B"] == pytest.approx(190.85, abs=0.01)


def test_bt_prior_shrinks_the_gap_to_the_penalised_optimum() -> None:
    # theta_A = -theta_B = d/2 by symmetry; maximise 3 log s(d) + log s(-d) - 0.25/2 * d^2/2.
    # Its derivative is 3 - 4 s(d) - d/8.
    d = brentq(lambda x: 3.0 - 4.0 * sigmoid(x) - x / 8.0, 0.0, 10.0, xtol=1e-14)
    r = bradley_terry(THREE_OF_FOUR)
    gap = ELO_PER_NAT * d
    assert r["A"] - r["B"] == pytest.approx(gap, abs=1e-6)
    assert gap < 400.0 * math.log10(3.0)
    assert r["A"] == pytest.approx(1500.0 + gap / 2, abs=1e-6)
    assert r["B"] == pytest.approx(1500.0 - gap / 2, abs=1e-6)


def test_bt_ties_count_half_each() -> None:
    # One win, one loss and two ties: 2 "wins" each, so equal strength.
    table = [Comparison("A", "B", 1.0), Comparison("A", "B", 0.0)] + [Comparison("A", "B", 0.5)] * 2
    r = bradley_terry(table, prior_precision=0.0)
    assert r["A"] == pytest.approx(1500.0) and r["B"] == pytest.approx(1500.0)
    # Three wins and two ties out of five: 4 to 1 in half-points, so the gap is ln 4.
    r = bradley_terry([Comparison("A", "B", 1.0)] * 3 + [Comparison("B", "A", 0.5)] * 2, 0.0)
    assert r["A"] - r["B"] == pytest.approx(400.0 * math.log10(4.0), abs=1e-6)


def test_bt_flipping_every_outcome_mirrors_the_ratings() -> None:
    table = [
        Comparison("A", "B", 1.0),
        Comparison("B", "C", 1.0),
        Comparison("C", "A", 0.0, 0.5),
        Comparison("A", "C", 0.5),
    ]
    r = bradley_terry(table)
    flipped = bradley_terry([Comparison(c.a, c.b, 1.0 - c.score_a, c.weight) for c in table])
    for brain in r:
        assert flipped[brain] - 1500.0 == pytest.approx(-(r[brain] - 1500.0), abs=1e-6)


def test_bt_brains_without_comparisons_sit_at_the_centre() -> None:
    assert bradley_terry([], brains=["solo"]) == {"solo": 1500.0}
    r = bradley_terry(THREE_OF_FOUR, brains=["idle"])
    assert r["idle"] == pytest.approx(1500.0, abs=1e-9)
    assert bradley_terry([]) == {}


def test_seed_comparisons_weight_each_pair_one_over_n_minus_one() -> None:
    scores = {
        "A": {"s1": 30.0, "s2": 10.0},
        "B": {"s1": 20.0, "s2": 10.0},
        "C": {"s1": 10.0},  # s1 has three brains, s2 two
    }
    assert seed_comparisons(scores) == [
        Comparison("A", "B", 1.0, 0.5),
        Comparison("A", "C", 1.0, 0.5),
        Comparison("B", "C", 1.0, 0.5),
        Comparison("A", "B", 0.5, 1.0),
    ]


def test_bt_three_brain_field_matches_the_weighted_penalised_optimum() -> None:
    # On 3 seeds A > C > B, on 1 seed B > C > A: every pair goes 3 to 1, each weighted 1/2.
    # The table maps to itself under A <-> B with outcomes reversed, so theta = (t, -t, 0) and
    # the penalised likelihood is w[3 log s(2t) + log s(-2t)] + 2w[3 log s(t) + log s(-t)]
    # - 0.25 t^2, whose derivative over 2 is w(3 - 4 s(2t)) + w(3 - 4 s(t)) - 0.25 t.
    scores = {
        "A": {"s1": 300.0, "s2": 300.0, "s3": 300.0, "s4": 100.0},
        "B": {"s1": 100.0, "s2": 100.0, "s3": 100.0, "s4": 300.0},
        "C": {"s1": 200.0, "s2": 200.0, "s3": 200.0, "s4": 200.0},
    }

    def optimum(w: float) -> float:
        return brentq(
            lambda t: w * (3 - 4 * sigmoid(2 * t)) + w * (3 - 4 * sigmoid(t)) - 0.25 * t,
            0.0,
            10.0,
            xtol=1e-14,
        )

    r = bradley_terry(seed_comparisons(scores))
    t = optimum(0.5)
    assert r["A"] == pytest.approx(1500.0 + ELO_PER_NAT * t, abs=1e-6)
    assert r["B"] == pytest.approx(1500.0 - ELO_PER_NAT * t, abs=1e-6)
    assert r["C"] == pytest.approx(1500.0, abs=1e-6)
    # Unit weights would let the data outweigh the prior twice as much: a wider spread.
    assert optimum(1.0) > t + 0.05


@st.composite
def comparison_tables(draw: st.DrawFn) -> list[Comparison]:
    brains = draw(st.lists(st.sampled_from("ABCDEF"), min_size=2, max_size=6, unique=True))
    pair = st.tuples(st.sampled_from(brains), st.sampled_from(brains)).filter(
        lambda p: p[0] != p[1]
    )
    rows = draw(
        st.lists(
            st.tuples(pair, st.sampled_from([0.0, 0.5, 1.0]), st.sampled_from([1.0, 0.5, 0.25])),
            min_size=1,
            max_size=25,
        )
    )
    return [Comparison(a, b, s, w) for (a, b), s, w in rows]


@settings(max_examples=60, deadline=None)
@given(table=comparison_tables(), data=st.data())
def test_bt_ratings_do_not_depend_on_brain_or_comparison_order(
    table: list[Comparison], data: st.DataObject
) -> None:
    reference = bradley_terry(table)
    shuffled = data.draw(st.permutations(table))
    swapped = [Comparison(c.b, c.a, 1.0 - c.score_a, c.weight) for c in shuffled]
    again = bradley_terry(swapped)
    assert again.keys() == reference.keys()
    for brain, rating in reference.items():
        assert again[brain] == pytest.approx(rating, abs=1e-6)
    assert sum(reference.values()) / len(reference) == pytest.approx(1500.0, abs=1e-9)


def test_bt_refuses_bad_input() -> None:
    with pytest.raises(ValueError):
        Comparison("A", "A", 1.0)
    with pytest.raises(ValueError):
        Comparison("A", "B", 1.5)
    with pytest.raises(ValueError):
        bradley_terry(THREE_OF_FOUR, prior_precision=-1.0)


# --------------------------------------------------------------------------- BT bootstrap

FIELD = {  # top always first, bottom always last, mid1 and mid2 alternate
    "top": {f"s{i}": 1000.0 for i in range(12)},
    "mid1": {f"s{i}": 500.0 + (50.0 if i % 3 else -50.0) for i in range(12)},
    "mid2": {f"s{i}": 500.0 for i in range(12)},
    "bottom": {f"s{i}": 0.0 for i in range(12)},
}


def test_separated_records_are_flagged_and_their_interval_withheld() -> None:
    flags = separated(seed_comparisons(FIELD))
    assert flags == {"top": True, "bottom": True, "mid1": False, "mid2": False}
    intervals = bt_bootstrap(FIELD, replicates=300)
    assert intervals["top"] is None and intervals["bottom"] is None
    ratings = bradley_terry(seed_comparisons(FIELD))
    for brain in ("mid1", "mid2"):
        interval = intervals[brain]
        assert interval is not None
        assert interval[0] <= ratings[brain] <= interval[1]
        assert interval[0] < interval[1]


def test_a_brain_between_two_one_sided_records_is_separated() -> None:
    """Always beaten by one, always beating the other: the order is known, the distance is not
    (the bootstrap would give a zero-width interval), so its interval is withheld too."""
    field = {
        "search": {f"s{i}": 900.0 + i for i in range(10)},
        "heuristic": {f"s{i}": 300.0 + i for i in range(10)},
        "random": {f"s{i}": 1.0 + i for i in range(10)},
    }
    assert separated(seed_comparisons(field)) == dict.fromkeys(field, True)
    assert set(bt_bootstrap(field, replicates=100).values()) == {None}


def test_a_record_with_a_tie_is_not_separated() -> None:
    assert separated([Comparison("A", "B", 1.0), Comparison("A", "B", 0.5)]) == {
        "A": False,
        "B": False,
    }


def test_bt_bootstrap_is_reproducible_for_a_seed() -> None:
    first = bt_bootstrap(FIELD, replicates=200, seed=3)
    assert bt_bootstrap(FIELD, replicates=200, seed=3) == first
    assert bt_bootstrap(FIELD, replicates=200, seed=4)["mid1"] != first["mid1"]


def test_bt_bootstrap_of_a_lone_brain_is_withheld() -> None:
    assert bt_bootstrap({"solo": {"s1": 5.0}}, replicates=10) == {"solo": None}
    assert bt_bootstrap({}) == {}


# --------------------------------------------------------------------------- Brier, latency, cost


def test_brier_on_known_pairs() -> None:
    pairs = [(0.1, False), (0.8, True), (0.5, True)]
    assert brier(pairs) == pytest.approx((0.01 + 0.04 + 0.25) / 3)
    assert brier([(1.0, True), (0.0, False)]) == 0.0
    assert brier([]) is None


@given(st.lists(st.tuples(st.floats(0.0, 1.0), st.booleans()), min_size=1, max_size=50))
def test_brier_lies_between_zero_and_one(pairs: list[tuple[float, bool]]) -> None:
    score = brier(pairs)
    assert score is not None and 0.0 <= score <= 1.0

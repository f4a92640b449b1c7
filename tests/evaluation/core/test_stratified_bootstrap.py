"""`stratified_paired_bootstrap`: the paired difference of a weighted mean of per-stratum means
(a Sudoku tier score, an arena category score), its interval, and its agreement with the plain
seed-block bootstrap when there is one stratum."""

from __future__ import annotations

import pytest

from evaluation.core.stats import paired_bootstrap, stratified_paired_bootstrap


def test_one_stratum_draws_what_the_seed_block_bootstrap_draws() -> None:
    a = [5.0, 3.0, 8.0, 1.0, 9.0, 4.0]
    b = [4.0, 3.0, 2.0, 6.0, 1.0, 4.0]
    assert stratified_paired_bootstrap(a, b, [""] * 6, None, 500, 7) == paired_bootstrap(
        a, b, 500, 7
    )


def test_the_estimate_is_the_weighted_mean_of_the_strata_means() -> None:
    # stratum x: differences 1, 3 (mean 2); stratum y: differences -4 (mean -4)
    a, b, strata = [1.0, 3.0, 0.0], [0.0, 0.0, 4.0], ["x", "x", "y"]
    equal = stratified_paired_bootstrap(a, b, strata, None, 200, 0)
    assert equal.mean_diff == pytest.approx((2.0 - 4.0) / 2)
    weighted = stratified_paired_bootstrap(a, b, strata, {"x": 3.0, "y": 1.0}, 200, 0)
    assert weighted.mean_diff == pytest.approx((3 * 2.0 + 1 * -4.0) / 4)
    assert (weighted.wins_a, weighted.wins_b, weighted.ties, weighted.n) == (2, 1, 0, 3)
    # every replicate keeps stratum y's one difference (-4): the interval is x's spread only
    assert weighted.low == pytest.approx((3 * 1.0 - 4.0) / 4)
    assert weighted.high == pytest.approx((3 * 3.0 - 4.0) / 4)


def test_constant_differences_in_each_stratum_give_a_zero_width_interval() -> None:
    result = stratified_paired_bootstrap([100, 100, 0, 0], [0, 0, 0, 0], ["1", "1", "2", "2"])
    assert result.mean_diff == result.low == result.high == 50.0
    assert not result.includes_zero


@pytest.mark.parametrize(
    ("a", "b", "strata", "weights", "message"),
    [
        ([1.0], [1.0, 2.0], ["x"], None, "aligned"),
        ([1.0], [1.0], ["x", "y"], None, "aligned"),
        ([], [], [], None, "at least one"),
        ([1.0], [float("nan")], ["x"], None, "finite"),
        ([1.0], [0.0], ["x"], {"x": 0.0}, "weights"),
        ([1.0], [0.0], ["x"], {"x": float("inf")}, "weights"),
    ],
)
def test_bad_input_is_refused(
    a: list[float], b: list[float], strata: list[str], weights: dict | None, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        stratified_paired_bootstrap(a, b, strata, weights, 10, 0)

"""The one-player rating fit and the calibration fit (hand-computed cases)."""

from __future__ import annotations

import math

import pytest

from evaluation.benchmarks.chess_ladder.ratings import (
    PairResult,
    expected_score,
    fit_pinned,
    fit_rating,
)


def test_expected_score_is_elo() -> None:
    assert expected_score(1500, 1500) == 0.5
    assert expected_score(1900, 1500) == pytest.approx(10 / 11)


def test_even_score_against_one_rating_fits_that_rating() -> None:
    fit = fit_rating([(1500, 1), (1500, 0)])
    assert fit.rating == pytest.approx(1500, abs=1e-3)
    # Profile interval by hand: 2 * (l(1500) - l(r)) = 3.841 with l(r) = log E + log(1 - E)
    assert fit.low is not None and fit.high is not None
    assert 1500 - fit.low == pytest.approx(fit.high - 1500, abs=1e-3)
    e = expected_score(fit.high, 1500)
    assert 2 * (2 * math.log(0.5) - (math.log(e) + math.log(1 - e))) == pytest.approx(
        3.8415, abs=1e-3
    )


def test_three_of_four_against_1500_is_1500_plus_191() -> None:
    fit = fit_rating([(1500, 1), (1500, 1), (1500, 1), (1500, 0)])
    assert fit.rating == pytest.approx(1500 + 400 * math.log10(3), abs=0.01)


def test_draws_count_half() -> None:
    assert fit_rating([(1600, 0.5)]).rating == pytest.approx(1600, abs=1e-3)


@pytest.mark.parametrize(
    ("scores", "word"), [([1, 1], "won every"), ([0, 0, 0], "lost every"), ([], "no finished")]
)
def test_no_rating_when_all_won_or_lost(scores: list[float], word: str) -> None:
    fit = fit_rating([(1500, s) for s in scores])
    assert fit.rating is None and fit.low is None and word in fit.note


def test_bad_scores_are_refused() -> None:
    with pytest.raises(ValueError):
        fit_rating([(1500, 0.7)])


def test_adding_games_of_another_model_changes_nothing() -> None:
    mine = [(1350, 0.5), (1600, 0), (1100, 1)]
    assert fit_rating(mine) == fit_rating(list(mine))


def test_pinned_fit_orders_the_weak_rungs_and_keeps_the_pin() -> None:
    results = [
        PairResult("random", "greedy", 1, 20),
        PairResult("greedy", "material-2ply", 2, 20),
        PairResult("material-2ply", "sf", 3, 20),
    ]
    fitted = fit_pinned(results, {"sf": 1350.0})
    assert "sf" not in fitted
    assert fitted["random"][0] < fitted["greedy"][0] < fitted["material-2ply"][0] < 1350
    # one pair alone: 3.5 / 21 with the virtual draw -> 1350 - 400 log10(17.5 / 3.5)
    alone = fit_pinned([PairResult("m", "sf", 3, 20)], {"sf": 1350.0})
    assert alone["m"][0] == pytest.approx(1350 - 400 * math.log10(17.5 / 3.5), abs=0.5)

"""Grading one answer and scoring a set of answers."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arcade_gym.sudoku.sets import set_grids
from evaluation.benchmarks.sudoku.scoring import (
    GridScore,
    confidence_brier,
    repeats_a_digit,
    score_answer,
    summary,
    sure_but_wrong,
    table,
    tier_score,
)

RECORD = set_grids("v1", 2)[0]
SOLUTION = RECORD["solution"]
PUZZLE = RECORD["puzzle"]
FIRST_BLANK = PUZZLE.index("0")
FIRST_GIVEN = next(i for i, ch in enumerate(PUZZLE) if ch != "0")


def with_cell(grid: str, cell: int, digit: str) -> str:
    return grid[:cell] + digit + grid[cell + 1 :]


def other(digit: str) -> str:
    return "1" if digit != "1" else "2"


def test_the_solution_is_solved() -> None:
    r = score_answer(RECORD, SOLUTION, 90)
    assert r.outcome == "solved" and r.cells_right == PUZZLE.count("0") == r.blanks
    assert not r.broke_rules
    assert sum(t for _, t in r.by_technique.values()) == r.blanks


def test_one_wrong_cell_is_wrong_and_breaks_the_rules() -> None:
    answer = with_cell(SOLUTION, FIRST_BLANK, other(SOLUTION[FIRST_BLANK]))
    r = score_answer(RECORD, answer, 100)
    assert r.outcome == "wrong" and r.wrong_cells == 1 and r.cells_right == r.blanks - 1
    assert r.broke_rules  # complete, so the changed digit repeats somewhere


def test_cells_left_empty() -> None:
    r = score_answer(RECORD, with_cell(SOLUTION, FIRST_BLANK, "0"), 50)
    assert r.outcome == "empty" and r.empty_cells == 1 and not r.broke_rules


def test_a_changed_given_wins_over_everything() -> None:
    answer = with_cell(SOLUTION, FIRST_GIVEN, other(SOLUTION[FIRST_GIVEN]))
    answer = with_cell(answer, FIRST_BLANK, "0")
    r = score_answer(RECORD, answer, 50)
    assert r.outcome == "changedGiven" and r.changed_givens == 1


def test_unreadable_counts_nothing_right() -> None:
    r = score_answer(RECORD, None, None)
    assert r.outcome == "unreadable" and r.cells_right == 0 and not r.solved


def test_repeats_a_digit() -> None:
    assert not repeats_a_digit(SOLUTION)
    assert repeats_a_digit("11" + "0" * 79)
    assert not repeats_a_digit("0" * 81)


def _result(tier: int, solved: bool, confidence: float | None = None) -> GridScore:
    return GridScore("x", tier, "solved" if solved else "wrong", 50, 0, 0, 0, 0, False, confidence)


def test_tier_score_weighs_tiers_equally() -> None:
    results = [_result(1, True)] * 6 + [_result(7, False)] * 3 + [_result(7, True)] * 3
    s = tier_score(results)
    assert s.score == pytest.approx(75.0)
    assert s.tiers == {1: (6, 6), 7: (3, 6)}
    assert 0 <= s.low < 75 < s.high <= 100


def test_interval_does_not_collapse_when_every_tier_is_perfect() -> None:
    s = tier_score([_result(t, True) for t in range(1, 8) for _ in range(6)])
    assert s.score == 100 and s.high == 100 and s.low < 100


@given(st.lists(st.tuples(st.integers(1, 7), st.booleans()), min_size=1, max_size=60))
def test_interval_contains_the_score(pairs: list[tuple[int, bool]]) -> None:
    s = tier_score([_result(t, ok) for t, ok in pairs])
    assert 0 <= s.low <= s.score <= s.high <= 100
    assert not math.isnan(s.low)


def test_more_grids_narrow_the_interval() -> None:
    few = tier_score([_result(1, i % 2 == 0) for i in range(6)])
    many = tier_score([_result(1, i % 2 == 0) for i in range(60)])
    assert many.high - many.low < few.high - few.low


def test_brier_and_sure_but_wrong() -> None:
    results = [
        _result(1, True, 100),
        _result(1, False, 95),
        _result(1, False, 50),
        _result(1, True),
    ]
    assert confidence_brier(results) == pytest.approx((0 + 0.95**2 + 0.25) / 3)
    assert sure_but_wrong(results) == 1
    assert confidence_brier([_result(1, True)]) is None
    assert confidence_brier([_result(1, True, 50)] * 4) == pytest.approx(0.25)


def test_summary_and_table() -> None:
    good = [score_answer(g, g["solution"], 100) for g in set_grids("v1")]
    bad = [score_answer(g, None, None) for g in set_grids("v1")]
    rows = [summary("bad", bad), summary("good", good)]
    assert rows[1]["score"] == 100 and rows[0]["score"] == 0
    assert rows[1]["accuracyByTechnique"]["naked single"]["right"] > 0
    text = table(rows)
    assert text.index("| good") < text.index("| bad") and "n/a" in text
    assert "tiers" in rows[0] and all(k[0].islower() for k in rows[0])


def test_no_results_is_an_error() -> None:
    with pytest.raises(ValueError):
        tier_score([])

"""Grading one answer and scoring a set of answers."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arcade_gym.sudoku.sets import set_grids
from evaluation.benchmarks.sudoku.scoring import (
    GridScore,
    cell_tiers,
    confidence_brier,
    missing_confidences,
    repeats_a_digit,
    score_answer,
    summary,
    sure_but_wrong,
    table,
    tier_score,
    tiers_label,
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
    # the answer without a confidence counts as 50: (0.5 - 1)^2
    assert confidence_brier(results) == pytest.approx((0 + 0.95**2 + 0.25 + 0.25) / 4)
    assert sure_but_wrong(results) == 1 and missing_confidences(results) == 1
    assert confidence_brier([_result(1, True, 50)] * 4) == pytest.approx(0.25)
    assert confidence_brier([]) is None


def test_leaving_the_confidence_out_never_beats_stating_it() -> None:
    """A model cannot dodge calibration by leaving its confidence out: silence scores as 50."""

    def score(results: list[GridScore]) -> float:
        value = confidence_brier(results)
        assert value is not None
        return value

    solved, failed = _result(1, True), _result(1, False)
    assert score([solved]) == score([_result(1, True, 50)]) == 0.25
    assert score([failed]) == 0.25 > score([_result(1, False, 10)])
    assert score([solved, failed]) > score([_result(1, True, 90), _result(1, False, 10)])
    row = summary("quiet", [solved, failed])
    assert row["missingConfidence"] == 2 and row["brier"] == pytest.approx(0.25)


def test_summary_and_table() -> None:
    good = [score_answer(g, g["solution"], 100) for g in set_grids("v1")]
    bad = [score_answer(g, None, None) for g in set_grids("v1")]
    rows = [summary("bad", bad), summary("good", good)]
    assert rows[1]["score"] == 100 and rows[0]["score"] == 0
    assert rows[1]["accuracyByTechnique"]["naked single"]["right"] > 0
    text = table(rows)
    assert text.index("| good") < text.index("| bad") and "solved by tier (1..7)" in text
    assert "tiers" in rows[0] and all(k[0].islower() for k in rows[0])
    assert rows[0]["missingConfidence"] == 42 and rows[1]["missingConfidence"] == 0
    by_need = rows[1]["accuracyByNeededTier"]
    assert sorted(by_need, key=int) == [str(t) for t in range(1, 8)]
    assert all(v["right"] == v["cells"] > 0 for v in by_need.values())
    assert sum(v["cells"] for v in by_need.values()) == rows[1]["blankCells"]
    assert all(v["right"] == 0 for v in rows[0]["accuracyByNeededTier"].values())


def test_a_partial_run_is_labelled_with_the_tiers_it_covers() -> None:
    grids = [g for g in set_grids("v1") if g["tier"] in (1, 7)]
    rows = [summary("good", [score_answer(g, g["solution"], 100) for g in grids])]
    assert tiers_label(rows) == "1, 7"
    assert "solved by tier (1, 7)" in table(rows) and "(1..7)" not in table(rows)


def test_cells_are_scored_by_the_tier_each_needs() -> None:
    """A tier-4 grid answered with only the cells that need tiers up to 3: by tier needed, the
    cells up to tier 3 are right and those needing tier 4 are not."""
    record = next(g for g in set_grids("v1") if g["tier"] == 4)
    needs = cell_tiers(record["puzzle"])
    partial = "".join(record["solution"][c] if needs[c] <= 3 else "0" for c in range(81))
    score = score_answer(record, partial, 40)
    assert score.outcome == "empty"
    assert score.by_need[4] == (0, sum(1 for n in needs if n == 4))
    assert all(right == cells for tier, (right, cells) in score.by_need.items() if tier <= 3)
    assert GridScore.from_dict(score.to_dict()) == score


def test_no_results_is_an_error() -> None:
    with pytest.raises(ValueError):
        tier_score([])

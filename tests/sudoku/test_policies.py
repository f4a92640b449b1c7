"""The reference policies on set v1, through the shared policy grammar."""

from __future__ import annotations

import pytest

from arcade_gym.sudoku.contract import SudokuQuestion, validate
from arcade_gym.sudoku.sets import set_grids
from evaluation.benchmarks.sudoku.scoring import GridScore, score_answer, summary
from policies.base import DecisionContext, Policy
from policies.specs import make_policy


def play(spec: str) -> list[GridScore]:
    policy = make_policy(spec, "sudoku")
    assert isinstance(policy, Policy)
    results = []
    for record in set_grids("v1"):
        question = SudokuQuestion.from_puzzle(record["puzzle"], record["id"])
        verdict = validate(policy.act(question, DecisionContext()))
        assert verdict.usable
        results.append(score_answer(record, verdict.grid, verdict.confidence))
    return results


def test_solver_scores_100_with_brier_0() -> None:
    row = summary("solver", play("solver"))
    assert row["score"] == 100.0 and row["brier"] == 0.0 and row["sureButWrong"] == 0


def test_singles_solves_tier_1_and_nothing_from_tier_5() -> None:
    results = play("singles")
    assert all(r.solved for r in results if r.tier == 1)
    assert not any(r.solved for r in results if r.tier >= 5)
    assert all(r.outcome in ("solved", "empty") for r in results)  # never a wrong digit


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5, 6])
def test_techniques_k_solves_every_grid_up_to_tier_k(k: int) -> None:
    results = play(f"techniques:{k}")
    assert all(r.solved for r in results if r.tier <= k)
    assert not any(r.solved for r in results if r.tier > k)


def test_technique_confidence_is_the_share_filled() -> None:
    record = set_grids("v1", 7)[0]
    answer = make_policy("singles", "sudoku").act(
        SudokuQuestion.from_puzzle(record["puzzle"], record["id"]), DecisionContext()
    )
    filled = sum(ch != "0" for ch in "".join(answer.grid)) - sum(
        ch != "0" for ch in record["puzzle"]
    )
    blanks = record["puzzle"].count("0")
    assert answer.confidence == pytest.approx(100 * filled / blanks, abs=0.1)


def test_techniques_needs_a_tier() -> None:
    with pytest.raises(ValueError, match="tier K"):
        make_policy("techniques:9", "sudoku")

"""The grader: tiers of published puzzles, soundness of every step, restricted tiers."""

from __future__ import annotations

import numpy as np
import pytest

from arcade_gym.sudoku import engine
from arcade_gym.sudoku.board import Board
from arcade_gym.sudoku.generator import candidate, solve_count
from arcade_gym.sudoku.grader import ORDER, TIERS, grade
from arcade_gym.sudoku.rules import TECHNIQUE_TIER, TECHNIQUES, parse_puzzle
from tests.sudoku.famous import BEYOND_PUZZLES, NEWSPAPER


def test_technique_order_matches_the_rules_table() -> None:
    names = [name for name, tier in TECHNIQUES if 1 <= tier <= 6]
    assert len(ORDER) == len(names) == len(TIERS)
    for name, tier in zip(names, TIERS, strict=True):
        assert TECHNIQUE_TIER[name] == tier
    assert tuple(sorted(TIERS)) == TIERS


def test_a_newspaper_puzzle_grades_tier_1() -> None:
    g = grade(parse_puzzle(NEWSPAPER))
    assert g.finished and g.tier == 1
    assert set(g.technique_counts()) <= {"naked single", "hidden single"}
    assert "beyond" not in g.labels and "" not in g.labels


@pytest.mark.parametrize("name", sorted(BEYOND_PUZZLES))
def test_famous_hard_puzzles_grade_beyond(name: str) -> None:
    g = grade(parse_puzzle(BEYOND_PUZZLES[name]))
    assert g.tier == 7 and not g.finished
    assert "beyond" in g.labels


def test_every_step_agrees_with_the_solution() -> None:
    """Soundness on 60 generated minimal puzzles of all tiers: no placement differs from the
    solution and no elimination strikes the solution's digit."""
    seen_tiers = set()
    for i in range(60):
        cand = candidate(f"test-soundness-{i}")
        solution = cand.solution.tolist()
        seen_tiers.add(cand.grade.tier)
        for step in cand.grade.steps:
            for cell, digit in step.placements:
                assert solution[cell] == digit, (cand.seed, step)
            for cell, digit in step.eliminations:
                assert solution[cell] != digit, (cand.seed, step)
        if cand.grade.finished:
            assert cand.grade.grid == solution
    assert len(seen_tiers) >= 5


def test_a_tier_k_grid_is_not_finished_below_k_and_is_at_k() -> None:
    for i in range(20):
        cand = candidate(f"test-restricted-{i}")
        k = cand.grade.tier
        if k > 1:
            below = grade(cand.puzzle, max_tier=k - 1)
            assert not below.finished and below.tier == k
        if k <= 6:
            assert grade(cand.puzzle, max_tier=k).finished


def test_labels_name_the_placing_technique_of_every_cell() -> None:
    cand = candidate("test-labels")
    g = cand.grade
    for cell in range(81):
        if cand.puzzle[cell]:
            assert g.labels[cell] == "given"
        else:
            assert g.labels[cell] in TECHNIQUE_TIER
    placed = {c for s in g.steps for c, _ in s.placements}
    assert all(g.labels[c] not in ("given", "beyond") for c in placed)


def test_grading_leaves_its_input_untouched() -> None:
    puzzle = parse_puzzle(NEWSPAPER)
    before = puzzle.copy()
    grade(puzzle)
    assert (puzzle == before).all()


def test_board_candidates_match_the_solver_kernel() -> None:
    puzzle = parse_puzzle(BEYOND_PUZZLES["inkala-2012"])
    g = np.zeros(81, np.int8)
    cand = np.zeros(81, np.int32)
    engine.init_candidates(puzzle, g, cand)
    b = Board(puzzle)
    for i in range(81):
        assert b.cand[i] == (0 if puzzle[i] else cand[i])
    assert solve_count(puzzle)[0] == 1

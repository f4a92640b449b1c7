"""The numba solver: solution counts up to a limit, the first solution, guesses."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_gym.sudoku.generator import solve_count
from arcade_gym.sudoku.rules import PuzzleError, grid_text, parse_puzzle
from tests.sudoku.famous import BEYOND_PUZZLES, NEWSPAPER
from tests.sudoku.oracle import count_solutions

SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def test_a_full_valid_grid_has_one_solution_and_needs_no_guess() -> None:
    count, guesses, solution = solve_count(parse_puzzle(SOLUTION))
    assert (count, guesses) == (1, 0)
    assert grid_text(solution) == SOLUTION


def test_the_empty_grid_stops_counting_at_the_limit() -> None:
    empty = np.zeros(81, np.int8)
    assert solve_count(empty, limit=2)[0] == 2
    assert solve_count(empty, limit=5)[0] == 5


def test_a_contradiction_has_no_solution() -> None:
    # r1c1..r1c8 = 1..8 and 9 in column 9 lower down: r1c9 has no candidate left
    puzzle = "12345678" + "0" * 9 + "9" + "0" * 63
    assert solve_count(parse_puzzle(puzzle))[0] == 0


def test_a_singles_puzzle_needs_no_guess() -> None:
    count, guesses, solution = solve_count(parse_puzzle(NEWSPAPER))
    assert (count, guesses) == (1, 0)
    assert count_solutions(grid_text(solution)) == 1


@pytest.mark.parametrize("name", sorted(BEYOND_PUZZLES))
def test_famous_hard_puzzles_are_solved_and_unique(name: str) -> None:
    puzzle = parse_puzzle(BEYOND_PUZZLES[name])
    count, guesses, solution = solve_count(puzzle)
    assert count == 1 and guesses > 0
    givens = puzzle != 0
    assert (solution[givens] == puzzle[givens]).all()
    assert parse_puzzle(grid_text(solution)).all()  # complete and no digit repeats


@settings(max_examples=40, deadline=None)
@given(st.lists(st.booleans(), min_size=81, max_size=81))
def test_counts_agree_with_a_plain_solver(keep: list[bool]) -> None:
    """Any subset of a valid grid's clues: same count (up to 2) as the independent solver."""
    puzzle = "".join(ch if k else "0" for ch, k in zip(SOLUTION, keep, strict=True))
    if sum(keep) < 20:  # the plain solver is slow on near-empty grids; the limit is the point
        puzzle = SOLUTION[:20] + puzzle[20:]
    assert solve_count(parse_puzzle(puzzle))[0] == count_solutions(puzzle)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1" * 80, "81 cells"),
        ("x" + "0" * 80, "digits 1-9"),
        ("11" + "0" * 79, "digit 1 repeats in row 1"),
        ("1" + "0" * 8 + "1" + "0" * 71, "digit 1 repeats in column 1"),
        ("1" + "0" * 9 + "1" + "0" * 70, "digit 1 repeats in box 1"),
    ],
)
def test_malformed_puzzles_are_refused_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(PuzzleError, match=message):
        parse_puzzle(text)


def test_dots_and_surrounding_whitespace_are_accepted() -> None:
    assert parse_puzzle("  " + "." * 81 + "\n").sum() == 0

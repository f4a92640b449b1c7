"""Sudoku reference policies: the exact solver, and human-like solvers limited to the grader's
techniques up to a tier (`singles` = tier 1).

They read only the question's grid. The solver answers with confidence 100; a technique solver
fills what its techniques can, leaves the rest empty and reports the share of blank cells it
filled as its confidence (100 when it finished the grid).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from arcade_gym.sudoku.contract import SudokuAnswer, SudokuQuestion
from arcade_gym.sudoku.generator import solve_count
from arcade_gym.sudoku.grader import grade
from arcade_gym.sudoku.rules import BEYOND, parse_puzzle
from policies.base import DecisionContext, PolicyIdentity


def _puzzle(question: SudokuQuestion | dict[str, Any]) -> np.ndarray:
    if isinstance(question, SudokuQuestion):
        return parse_puzzle(question.puzzle)
    return parse_puzzle(SudokuQuestion.model_validate(question).puzzle)


def _rows(grid: np.ndarray | list[int]) -> list[str]:
    flat = [int(d) for d in np.asarray(grid).reshape(-1)]
    return ["".join(str(d) for d in flat[r * 9 : r * 9 + 9]) for r in range(9)]


class SolverPolicy(PolicyIdentity):
    """The numba solver: the (first) solution, confidence 100 (50 when the grid has several)."""

    def __init__(self) -> None:
        super().__init__(
            slug="solver",
            name="Solver",
            description="exact bitmask solver (propagation + backtracking)",
            kind="search",
        )

    def act(self, question: SudokuQuestion | dict[str, Any], ctx: DecisionContext) -> SudokuAnswer:
        puzzle = _puzzle(question)
        count, _, solution = solve_count(puzzle)
        if count == 0:
            return SudokuAnswer(grid=_rows(puzzle), confidence=0)
        return SudokuAnswer(grid=_rows(solution), confidence=100 if count == 1 else 50)


class TechniquesPolicy(PolicyIdentity):
    """The grader's techniques of tiers 1..K, easiest first; cells they cannot place stay empty."""

    def __init__(self, max_tier: int | str = 1) -> None:
        try:
            k = int(max_tier)
        except (TypeError, ValueError):
            raise ValueError(f"techniques:K needs a tier K in 1..6, got {max_tier!r}") from None
        if not 1 <= k < BEYOND:
            raise ValueError(f"techniques:K needs a tier K in 1..6, got {k}")
        self.max_tier = k
        super().__init__(
            slug=f"techniques-{k}",
            name=f"Techniques <= tier {k}",
            description=f"human techniques of tiers 1..{k}, no guessing",
            kind="heuristic",
        )

    def act(self, question: SudokuQuestion | dict[str, Any], ctx: DecisionContext) -> SudokuAnswer:
        puzzle = _puzzle(question)
        result = grade(puzzle, max_tier=self.max_tier)
        blanks = int(np.count_nonzero(puzzle == 0))
        filled = sum(1 for d in result.grid if d) - (81 - blanks)
        confidence = 100.0 if blanks == 0 else round(100.0 * filled / blanks, 1)
        return SudokuAnswer(grid=_rows(result.grid), confidence=confidence)


class SinglesPolicy(TechniquesPolicy):
    """Naked and hidden singles only (tier 1)."""

    def __init__(self) -> None:
        super().__init__(1)
        self.slug = "singles"
        self.name = "Singles"
        self.description = "naked and hidden singles only, no guessing"

"""Sudoku policies: `solver` (exact), `singles` (tier-1 techniques) and `techniques:K` (the
grader's techniques up to tier K), by name for the shared policy grammar (`policies/specs.py`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from policies.game_policies import GamePolicies
from policies.sudoku.baselines import SinglesPolicy, SolverPolicy, TechniquesPolicy

BUILTINS: dict[str, Callable[..., Any]] = {
    "solver": SolverPolicy,
    "singles": SinglesPolicy,
    "techniques": TechniquesPolicy,
}
"""Policy name -> factory; `techniques` takes the tier K (`techniques:3`)."""

POLICIES = (
    GamePolicies(
        "sudoku",
        BUILTINS,
        prompt="policies.sudoku.prompt:make_prompt",
        sb3="policies.sudoku.sb3:ADAPTER",
    ),
)
"""What the policy grammar reads about Sudoku (`policies/game_policies.py`)."""

__all__ = ["BUILTINS", "POLICIES", "SinglesPolicy", "SolverPolicy", "TechniquesPolicy"]

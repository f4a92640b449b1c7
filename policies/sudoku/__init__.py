"""Sudoku policies: `solver` (exact), `singles` (tier-1 techniques) and `techniques:K` (the
grader's techniques up to tier K), by name for the shared policy grammar (`policies/specs.py`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from policies.sudoku.baselines import SinglesPolicy, SolverPolicy, TechniquesPolicy

BUILTINS: dict[str, Callable[..., Any]] = {
    "solver": SolverPolicy,
    "singles": SinglesPolicy,
    "techniques": TechniquesPolicy,
}
"""Policy name -> factory; `techniques` takes the tier K (`techniques:3`)."""

__all__ = ["BUILTINS", "SinglesPolicy", "SolverPolicy", "TechniquesPolicy"]

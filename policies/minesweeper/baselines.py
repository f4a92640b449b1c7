"""Minesweeper baselines: a seeded random revealer and the exact-probability solver's policy.

How the solver chooses is told in `solver.py`; its names stay importable from here.
"""

from __future__ import annotations

import numpy as np

from arcade_gym.minesweeper.contract import MinesweeperAnswer, MinesweeperQuestion
from arcade_gym.minesweeper.render import board_view
from arcade_gym.minesweeper.rules import FLAG_CHAR
from policies.base import DecisionContext, PolicyIdentity
from policies.minesweeper.solver import (
    APPROXIMATE,
    EXACT,
    INCONSISTENT,
    NODE_BUDGET,
    SAFE_FOUND,
    analyse,
    choose_cell,
    mine_probabilities,
)

__all__ = [
    "APPROXIMATE",
    "EXACT",
    "INCONSISTENT",
    "NODE_BUDGET",
    "SAFE_FOUND",
    "HeuristicMinesweeper",
    "RandomMinesweeper",
    "analyse",
    "choose_cell",
    "mine_probabilities",
]


def _reveal_text(question: MinesweeperQuestion, row: int, col: int) -> str:
    """Reveal (row, col), or unflag it first when it carries a flag."""
    flagged = question.board[row][col] == FLAG_CHAR
    return f"{'flag' if flagged else 'reveal'} {row} {col}"


class RandomMinesweeper(PolicyIdentity):
    """Uniform over the listed reveal actions, keyed by (seed, decision, state hash): stateless and
    deterministic, so a replay reproduces the game."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(
            slug="random",
            name="Random",
            description="Uniform random reveal among the legal ones, seeded per decision",
            kind="baseline",
            adapter_version="1",
        )
        self.seed = int(seed)

    def act(
        self, question: MinesweeperQuestion, ctx: DecisionContext | None = None
    ) -> MinesweeperAnswer:
        """Draw one listed reveal (a flag toggle only if nothing can be revealed)."""
        reveals = [a for a in question.actions if a.startswith("reveal")] or question.actions
        rng = np.random.default_rng(
            [self.seed % 2**63, question.decision, int(question.state_hash, 16)]
        )
        return MinesweeperAnswer(action=reveals[int(rng.integers(len(reveals)))])


class HeuristicMinesweeper(PolicyIdentity):
    """Exact mine probabilities by constraint enumeration; reveals a safe cell, else the least
    likely mine (see the module docstring). Never flags: flags cost decisions and change nothing."""

    def __init__(self, node_budget: int = NODE_BUDGET) -> None:
        super().__init__(
            slug="heuristic",
            name="Heuristic",
            description="Constraint solver: exact mine probabilities, safest reveal",
            kind="heuristic",
            adapter_version="1",
        )
        if node_budget < 1:
            raise ValueError(f"node_budget must be >= 1, got {node_budget}")
        self.node_budget = int(node_budget)

    def act(
        self, question: MinesweeperQuestion, ctx: DecisionContext | None = None
    ) -> MinesweeperAnswer:
        """Reveal the safest cell of the question's board."""
        grid = board_view(question.board)
        row, col, _ = choose_cell(grid, question.mines, node_budget=self.node_budget)
        return MinesweeperAnswer(action=_reveal_text(question, row, col))

"""Minesweeper policies: a seeded random baseline and an exact-probability constraint solver."""

from __future__ import annotations

from policies.game_policies import GamePolicies
from policies.minesweeper.baselines import (
    HeuristicMinesweeper,
    RandomMinesweeper,
    choose_cell,
    mine_probabilities,
)

BUILTINS: dict[str, type[RandomMinesweeper] | type[HeuristicMinesweeper]] = {
    "random": RandomMinesweeper,
    "heuristic": HeuristicMinesweeper,
}
"""Policy slug -> class."""

POLICIES = (
    GamePolicies(
        "minesweeper",
        BUILTINS,
        prompt="policies.minesweeper.prompt:make_prompt",
        sb3="policies.minesweeper.sb3:ADAPTER",
        warmup="policies.minesweeper.solver:warmup",
    ),
)
"""What the policy grammar reads about Minesweeper (`policies/game_policies.py`)."""

__all__ = [
    "BUILTINS",
    "POLICIES",
    "HeuristicMinesweeper",
    "RandomMinesweeper",
    "choose_cell",
    "mine_probabilities",
]

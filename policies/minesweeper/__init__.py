"""Minesweeper policies: a seeded random baseline and an exact-probability constraint solver."""

from __future__ import annotations

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

__all__ = [
    "BUILTINS",
    "HeuristicMinesweeper",
    "RandomMinesweeper",
    "choose_cell",
    "mine_probabilities",
]

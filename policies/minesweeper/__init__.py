"""Minesweeper policies: a seeded random baseline and an exact-probability constraint solver."""

from __future__ import annotations

from policies.minesweeper.baselines import (
    HeuristicMinesweeper,
    RandomMinesweeper,
    choose_cell,
    mine_probabilities,
)

__all__ = ["HeuristicMinesweeper", "RandomMinesweeper", "choose_cell", "mine_probabilities"]

"""The published grid sets (`seeds/sudoku/<set>.json`, installed as `arcade_gym.seeds`)."""

from __future__ import annotations

from functools import cache
from typing import Any

from arcade_gym.seeds import load_json
from arcade_gym.sudoku.rules import SETS


@cache
def load_set(set_version: str = "v1") -> dict[str, Any]:
    """The set document: `set`, `graderVersion`, ..., and `grids` (id, tier, puzzle, solution,
    seed, clues, guesses, techniques, labels)."""
    if set_version not in SETS:
        raise ValueError(f"unknown Sudoku set {set_version!r}; known sets: {', '.join(SETS)}")
    document: dict[str, Any] = load_json(f"sudoku/{set_version}.json")
    return document


def set_grids(set_version: str = "v1", tier: int | None = None) -> list[dict[str, Any]]:
    """The grids of a set, optionally of one tier, in file order."""
    grids = load_set(set_version)["grids"]
    return [g for g in grids if tier is None or g["tier"] == tier]

"""Seeded grids and the published sets: `build_set("v1")` is what
`arcade-eval sudoku generate --set v1` writes, byte for byte the same on every run.

A candidate grid comes from one named seed (`sudoku-v1-t3-00017`): the seed's splitmix64 stream
fills a full grid (randomised backtracking) and then removes clues in a random order while the
solution stays unique, so every candidate is a minimal puzzle. Tiers 1..6 take, in seed order,
the first `GRIDS_PER_TIER` candidates the grader puts in that tier. Tier 7 (Beyond) collects
`BEYOND_POOL` candidates that tiers 1..6 do not finish and keeps the `GRIDS_PER_TIER` needing the
most guesses of the solver (ties: earlier seed first).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from arcade_gym.core.seeding import seed_to_u64
from arcade_gym.sudoku import engine
from arcade_gym.sudoku.grader import Grade, grade
from arcade_gym.sudoku.rules import (
    BEYOND,
    BEYOND_POOL,
    CELLS,
    CHAIN_MAX_NODES,
    GRADER_VERSION,
    GRIDS_PER_TIER,
    SETS,
    grid_text,
)


@dataclass(frozen=True)
class Candidate:
    """One generated puzzle with its solution, grade and the solver's guesses."""

    seed: str
    puzzle: np.ndarray
    solution: np.ndarray
    grade: Grade
    guesses: int

    def record(self, set_version: str, tier: int, index: int) -> dict[str, Any]:
        """The grid's entry in a set file (camelCase keys)."""
        return {
            "id": f"{set_version}-t{tier}-{index + 1}",
            "tier": tier,
            "puzzle": grid_text(self.puzzle),
            "solution": grid_text(self.solution),
            "seed": self.seed,
            "clues": int(np.count_nonzero(self.puzzle)),
            "guesses": self.guesses,
            "techniques": self.grade.technique_counts(),
            "labels": self.grade.labels,
        }


def grid_seed(set_version: str, tier: int, index: int) -> str:
    """The named seed of the `index`-th candidate of a tier."""
    return f"sudoku-{set_version}-t{tier}-{index:05d}"


def solve_count(puzzle: np.ndarray, limit: int = 2) -> tuple[int, int, np.ndarray]:
    """`(solutions up to limit, guesses, first solution)` from the numba solver (the solution is
    all zeros when there is none)."""
    solution = np.zeros((1, CELLS), np.int8)
    count, guesses = _search(puzzle, limit, solution)
    return count, guesses, solution[0]


def solve_all(puzzle: np.ndarray, limit: int = 2) -> tuple[list[np.ndarray], int]:
    """Every solution up to `limit` (in the solver's order) and the guesses it took."""
    solutions = np.zeros((limit, CELLS), np.int8)
    count, guesses = _search(puzzle, limit, solutions)
    return list(solutions[:count]), guesses


def _search(puzzle: np.ndarray, limit: int, out: np.ndarray) -> tuple[int, int]:
    grid = np.ascontiguousarray(puzzle, dtype=np.int8)
    count, guesses = engine.search(grid, limit, out, np.zeros(1, np.uint64), False)
    return int(count), int(guesses)


def candidate(seed: str) -> Candidate:
    """The minimal puzzle of one named seed, graded."""
    solution = np.zeros(CELLS, np.int8)
    puzzle = engine.new_puzzle(np.uint64(seed_to_u64(seed)), solution)
    _, guesses, _ = solve_count(puzzle)
    return Candidate(seed, puzzle, solution, grade(puzzle), guesses)


def tier_grids(
    set_version: str,
    tier: int,
    count: int = GRIDS_PER_TIER,
    pool: int = BEYOND_POOL,
    progress: Callable[[str], None] | None = None,
) -> list[Candidate]:
    """The grids of one tier of a set (see the module docstring for the rule)."""
    wanted = pool if tier == BEYOND else count
    found: list[Candidate] = []
    index = 0
    while len(found) < wanted:
        cand = candidate(grid_seed(set_version, tier, index))
        index += 1
        if cand.grade.tier == tier:
            found.append(cand)
            if progress is not None and (tier != BEYOND or len(found) % 50 == 0):
                progress(f"tier {tier}: {len(found)}/{wanted} after {index} candidates")
    if tier == BEYOND:
        order = sorted(range(len(found)), key=lambda i: (-found[i].guesses, i))
        found = [found[i] for i in order[:count]]
    return found


def build_set(
    set_version: str = "v1",
    *,
    count: int = GRIDS_PER_TIER,
    pool: int = BEYOND_POOL,
    tiers: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7),
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """A grid set as the JSON document shipped in `seeds/sudoku/<set>.json`."""
    if set_version not in SETS:
        raise ValueError(f"unknown Sudoku set {set_version!r}; known sets: {', '.join(SETS)}")
    grids = [
        cand.record(set_version, tier, i)
        for tier in tiers
        for i, cand in enumerate(tier_grids(set_version, tier, count, pool, progress))
    ]
    return {
        "set": set_version,
        "graderVersion": GRADER_VERSION,
        "chainMaxNodes": CHAIN_MAX_NODES,
        "gridsPerTier": count,
        "beyondPool": pool,
        "grids": grids,
    }


def set_json(document: dict[str, Any]) -> str:
    """The canonical text of a set file (what regenerating must reproduce byte for byte)."""
    return json.dumps(document, indent=1, ensure_ascii=True) + "\n"

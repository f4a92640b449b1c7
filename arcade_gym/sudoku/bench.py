"""Sudoku's own speed figures (`arcade-eval bench sudoku` adds them to `Sudoku-v0`'s steps/s):
the solver on tier-7 and tier-1 grids of set v1, the grader over the whole set, and the env on
set v1's grids.

Every figure is a rate, so the targets read: solver under 1 ms a tier-7 grid = at least 1,000
grids/s; at least 20,000 tier-1 solves/s; grading under 50 ms a grid = at least 20 grids/s. A
solve counts solutions up to 2 (the uniqueness check). The generic figures measure `Sudoku-v0` as
`gym.make` builds it (a minimal puzzle generated at every reset); the `set_v1` ones on set v1's
grids (cheap resets), single and batched.
"""

from __future__ import annotations

import time

import numpy as np

from arcade_gym.core.counting import StepUnit
from arcade_gym.core.throughput import (
    Figures,
    Peer,
    add_vector_figures,
    env_memory_bytes,
    passes_per_s,
    random_step_rates,
)
from arcade_gym.sudoku.generator import solve_count
from arcade_gym.sudoku.grader import grade
from arcade_gym.sudoku.rules import parse_puzzle
from arcade_gym.sudoku.sets import set_grids

ENV_ID = "arcade_gym/Sudoku-v0"

STEP_UNITS = {
    "Sudoku-v0": StepUnit(
        "one digit placed in an empty cell (any placement that breaks no constraint, right or "
        "wrong); a new minimal puzzle generated at each reset unless the figure says set v1"
    ),
}
"""What one counted step of `Sudoku-v0` is (`arcade_gym/core/counting.py`)."""

PEERS = "arcade_gym.sudoku.peers:peer_pairs"
"""The pairs `arcade-eval bench --peers` measures (`arcade_gym/core/peers.py`)."""


def _puzzles(tier: int | None) -> list[np.ndarray]:
    return [parse_puzzle(g["puzzle"]) for g in set_grids("v1", tier)]


def solves_per_s(tier: int, seconds: float) -> float:
    """Uniqueness solves (count up to 2) per second over the set's grids of one tier."""
    puzzles = _puzzles(tier)

    def one_pass() -> None:
        for p in puzzles:
            solve_count(p)

    return passes_per_s(one_pass, len(puzzles), seconds)


def grades_per_s(seconds: float, tier: int | None = None) -> float:
    """Full gradings (tiers 1..6 tried, the path recorded) per second over set v1."""
    puzzles = _puzzles(tier)

    def one_pass() -> None:
        for p in puzzles:
            grade(p)

    return passes_per_s(one_pass, len(puzzles), seconds)


def bench_sudoku(seconds: float = 3.0) -> Figures:
    """Sudoku's figures beyond `Sudoku-v0`'s generic steps/s, and the targets."""
    t0 = time.perf_counter()
    grade(_puzzles(7)[0])  # the grader's Python paths, outside the timed figures
    warm_s = time.perf_counter() - t0
    set_v1 = random_step_rates(ENV_ID, seconds, unit=STEP_UNITS["Sudoku-v0"], set="v1")
    figures = Figures(
        results={
            "solver_tier7_grids_per_s": solves_per_s(7, seconds),
            "solver_tier1_solves_per_s": solves_per_s(1, seconds),
            "grader_grids_per_s": grades_per_s(seconds),
            "grader_tier6_grids_per_s": grades_per_s(seconds, 6),
            "grader_tier7_grids_per_s": grades_per_s(seconds, 7),
            "sudoku_v0_set_v1_steps_per_s": set_v1["steps_per_s"],
            "sudoku_v0_set_v1_steps_per_cpu_s": set_v1["steps_per_cpu_s"],
            "sudoku_v0_env_bytes": env_memory_bytes(ENV_ID, set="v1"),
        },
        targets={
            "solver_tier7_grids_per_s": 1_000,
            "solver_tier1_solves_per_s": 20_000,
            "grader_grids_per_s": 20,
            "sudoku_v0_set_v1_steps_per_s": 150_000,
        },
        compile_s=warm_s,
        peer=Peer("jumanji Sudoku-v0", "jumanji"),
        units={
            "solver_tier7": "one tier-7 grid of set v1 solved to uniqueness (count up to 2)",
            "solver_tier1": "one tier-1 grid of set v1 solved to uniqueness (count up to 2)",
            "grader": "one grid of set v1 graded (every technique tier tried, the path kept)",
        },
    )
    add_vector_figures(
        figures.results,
        figures.durations,
        "sudoku_v0_set_v1",
        ENV_ID,
        seconds,
        unit=STEP_UNITS["Sudoku-v0"],
        set="v1",
    )
    return figures

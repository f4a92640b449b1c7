"""Sudoku throughput (`bench_sudoku`): the solver on tier-7 and tier-1 grids of set v1, the
grader over the whole set, and `Sudoku-v0` steps per second, in the shared report shape
(`evaluation/throughput/report.py`).

Every figure is a rate, so the targets read: solver under 1 ms a tier-7 grid = at least 1,000
grids/s; at least 20,000 tier-1 solves/s; grading under 50 ms a grid = at least 20 grids/s. A
solve counts solutions up to 2 (the uniqueness check). Speed is measured here, never asserted in
tests; compile time (or the numba cache load) is reported on its own. The env is measured on set
v1 grids (cheap resets; `generated` includes making a minimal puzzle at every reset), per second
of wall clock and per second of this process's CPU time (the figure a quiet machine shows).
"""

from __future__ import annotations

import time
from typing import Any

import gymnasium as gym
import numpy as np

from arcade_gym.sudoku.generator import solve_count
from arcade_gym.sudoku.grader import grade
from arcade_gym.sudoku.rules import parse_puzzle
from arcade_gym.sudoku.sets import set_grids
from arcade_gym.sudoku.warmup import compile_kernels
from evaluation.throughput.report import (
    add_vector_figures,
    env_memory_bytes,
    make_report,
    masked_random_steps,
    peer_status,
    rate,
)

ENV_ID = "arcade_gym/Sudoku-v0"


def _puzzles(tier: int | None) -> list[np.ndarray]:
    return [parse_puzzle(g["puzzle"]) for g in set_grids("v1", tier)]


def solves_per_s(tier: int, seconds: float) -> float:
    """Uniqueness solves (count up to 2) per second over the set's grids of one tier."""
    puzzles = _puzzles(tier)

    def run(deadline: float) -> int:
        done = 0
        while time.perf_counter() < deadline:
            for p in puzzles:
                solve_count(p)
            done += len(puzzles)
        return done

    return rate(run, seconds)


def grades_per_s(seconds: float, tier: int | None = None) -> float:
    """Full gradings (tiers 1..6 tried, the path recorded) per second over set v1."""
    puzzles = _puzzles(tier)

    def run(deadline: float) -> int:
        done = 0
        while True:
            for p in puzzles:
                grade(p)
            done += len(puzzles)
            if time.perf_counter() >= deadline:
                return done

    return rate(run, seconds)


def bench_sudoku(seconds: float = 3.0) -> dict[str, Any]:
    """Every Sudoku speed figure as one JSON-able dict (see `report.format_table`)."""
    compile_s = compile_kernels()
    gym.make(ENV_ID).reset(seed=0)  # load the env module outside the timed figures
    grade(_puzzles(7)[0])
    results = {
        "solver_tier7_grids_per_s": solves_per_s(7, seconds),
        "solver_tier1_solves_per_s": solves_per_s(1, seconds),
        "grader_grids_per_s": grades_per_s(seconds),
        "grader_tier6_grids_per_s": grades_per_s(seconds, 6),
        "grader_tier7_grids_per_s": grades_per_s(seconds, 7),
        "sudoku_v0_steps_per_s": masked_random_steps(ENV_ID, seconds, set="v1"),
        "sudoku_v0_steps_per_cpu_s": masked_random_steps(ENV_ID, seconds, set="v1", cpu_time=True),
        "sudoku_v0_generated_steps_per_s": masked_random_steps(ENV_ID, seconds),
        "sudoku_v0_env_bytes": env_memory_bytes(ENV_ID, set="v1"),
    }
    durations: dict[str, float] = {}
    if gym.spec(ENV_ID).vector_entry_point is not None:  # the native vector env is registered
        add_vector_figures(results, durations, "sudoku_v0", ENV_ID, seconds, set="v1")
    return make_report(
        "sudoku",
        seconds=seconds,
        compile_s=compile_s,
        results=results,
        targets={
            "solver_tier7_grids_per_s": 1_000,
            "solver_tier1_solves_per_s": 20_000,
            "grader_grids_per_s": 20,
            "sudoku_v0_steps_per_s": 150_000,
        },
        peer=peer_status("py-sudoku", "sudoku"),
        durations=durations,
    )

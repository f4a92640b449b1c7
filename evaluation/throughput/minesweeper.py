"""Minesweeper throughput (`bench_minesweeper`): env steps per second and env memory, in the report
shape of `evaluation.throughput.tetris.bench_tetris`.

Speed is measured here, never asserted in tests. Compile time (or numba cache load) is reported on
its own; every throughput figure is taken after the kernels are warm.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym

from arcade_gym.minesweeper.engine import warmup
from evaluation.throughput.report import (
    VECTOR_BATCH,
    add_vector_figures,
    env_memory_bytes,
    make_report,
    masked_random_steps,
    peer_status,
)

ENV_ID = "arcade_gym/Minesweeper-v0"


def minesweeper_steps(seconds: float, difficulty: str = "easy", seed: int = 0) -> float:
    """`gym.make(Minesweeper-v0)` with uniform random legal actions (reveals and flag toggles
    alike), resetting at each episode end."""
    return masked_random_steps(ENV_ID, seconds, seed=seed, difficulty=difficulty)


def bench_minesweeper(seconds: float = 3.0) -> dict[str, Any]:
    """Every Minesweeper speed figure as one JSON-able dict (see `report.format_table`)."""
    compile_s = warmup()
    gym.make(ENV_ID).reset(seed=0)  # load the env module outside the timed figures
    results = {
        "minesweeper_v0_steps_per_s": minesweeper_steps(seconds, "easy"),
        "minesweeper_v0_medium_steps_per_s": minesweeper_steps(seconds, "medium"),
        "minesweeper_v0_hard_steps_per_s": minesweeper_steps(seconds, "hard"),
        "minesweeper_v0_env_bytes": env_memory_bytes(ENV_ID, difficulty="easy"),
        "minesweeper_v0_hard_env_bytes": env_memory_bytes(ENV_ID, difficulty="hard"),
    }
    durations: dict[str, float] = {}
    add_vector_figures(results, durations, "minesweeper_v0", ENV_ID, seconds)
    add_vector_figures(
        results, durations, "minesweeper_v0_hard", ENV_ID, seconds, difficulty="hard"
    )
    return make_report(
        "minesweeper",
        seconds=seconds,
        compile_s=compile_s,
        results=results,
        targets={
            "minesweeper_v0_steps_per_s": 100_000,
            "minesweeper_v0_env_bytes": 1_000_000,
            f"minesweeper_v0_vector{VECTOR_BATCH}_steps_per_s": 900_000,
        },
        peer=peer_status("gym-minesweeper", "gym_minesweeper"),
        durations=durations,
    )

"""Minesweeper's own speed figures (`arcade-eval bench minesweeper` adds them to
`Minesweeper-v0`'s steps/s): the medium and hard boards, single and batched, and env memory.

Every step is a uniform random legal action: reveals and flag toggles alike.
"""

from __future__ import annotations

from arcade_gym.core.throughput import (
    VECTOR_BATCH,
    Figures,
    Peer,
    add_vector_figures,
    env_memory_bytes,
    masked_random_steps,
)

ENV_ID = "arcade_gym/Minesweeper-v0"


def bench_minesweeper(seconds: float = 3.0) -> Figures:
    """Minesweeper's figures beyond the easy board's generic steps/s, and the targets."""
    figures = Figures(
        results={
            "minesweeper_v0_medium_steps_per_s": masked_random_steps(
                ENV_ID, seconds, difficulty="medium"
            ),
            "minesweeper_v0_hard_steps_per_s": masked_random_steps(
                ENV_ID, seconds, difficulty="hard"
            ),
            "minesweeper_v0_env_bytes": env_memory_bytes(ENV_ID, difficulty="easy"),
            "minesweeper_v0_hard_env_bytes": env_memory_bytes(ENV_ID, difficulty="hard"),
        },
        targets={
            "minesweeper_v0_steps_per_s": 100_000,
            "minesweeper_v0_env_bytes": 1_000_000,
            f"minesweeper_v0_vector{VECTOR_BATCH}_steps_per_s": 900_000,
        },
        peer=Peer("gym-minesweeper", "gym_minesweeper"),
    )
    add_vector_figures(
        figures.results,
        figures.durations,
        "minesweeper_v0_hard",
        ENV_ID,
        seconds,
        difficulty="hard",
    )
    return figures

"""Minesweeper's own speed figures (`arcade-eval bench minesweeper` adds them to
`Minesweeper-v0`'s steps/s): the medium and hard boards, single and batched, flag toggles, and
env memory.

A counted step is a reveal (`STEP_UNITS`): the random player draws among the legal reveals only,
so a figure never mixes in the cheap flag toggles; those are measured on their own
(`*_flag_toggles_per_s`: a random legal toggle, on or off, of the easy board).
"""

from __future__ import annotations

import time
from typing import Any

import gymnasium as gym
import numpy as np

from arcade_gym.core.counting import StepUnit
from arcade_gym.core.throughput import (
    VECTOR_BATCH,
    Figures,
    Peer,
    add_vector_figures,
    env_memory_bytes,
    masked_random_steps,
    random_legal,
    rate,
)

ENV_ID = "arcade_gym/Minesweeper-v0"


def reveals(mask: np.ndarray) -> np.ndarray:
    """The reveal actions of a (…, 2 * cells) mask: its first half (a view)."""
    return mask[..., : mask.shape[-1] // 2]


STEP_UNITS = {
    "Minesweeper-v0": StepUnit(
        "one reveal of a hidden, unflagged cell (its flood fill included; flag toggles not "
        "counted, see flag_toggles); easy 9x9 board, 10 mines, unless the figure says medium "
        "(16x16, 40) or hard (16x30, 99)",
        actions=reveals,
    ),
}
"""What one counted step of `Minesweeper-v0` is (`arcade_gym/core/counting.py`)."""

PEERS = "arcade_gym.minesweeper.peers:peer_pairs"
"""The pairs `arcade-eval bench --peers` measures (`arcade_gym/core/peers.py`)."""


def flag_toggles(seconds: float, seed: int = 0, **make_kwargs: Any) -> float:
    """Flag toggles per second: each step a random legal toggle (flagging a hidden cell or
    unflagging a flagged one) of an easy board; the decision cap's resets are timed, not
    counted."""
    env = gym.make(ENV_ID, **make_kwargs)
    _, info = env.reset(seed=seed)
    draws = np.random.default_rng(seed).random(1 << 16).tolist()
    k = 0

    def run(deadline: float) -> int:
        nonlocal info, k
        steps = 0
        while time.perf_counter() < deadline:
            for _ in range(256):
                mask = info["action_mask"]
                half = mask.shape[0] // 2
                a, k = random_legal(mask[half:], draws, k)
                _, _, terminated, truncated, info = env.step(half + a)
                steps += 1
                if terminated or truncated:
                    _, info = env.reset()
        return steps

    return rate(run, seconds)


def bench_minesweeper(seconds: float = 3.0) -> Figures:
    """Minesweeper's figures beyond the easy board's generic steps/s, and the targets."""
    unit = STEP_UNITS["Minesweeper-v0"]
    figures = Figures(
        results={
            "minesweeper_v0_medium_steps_per_s": masked_random_steps(
                ENV_ID, seconds, unit=unit, difficulty="medium"
            ),
            "minesweeper_v0_hard_steps_per_s": masked_random_steps(
                ENV_ID, seconds, unit=unit, difficulty="hard"
            ),
            "minesweeper_v0_flag_toggles_per_s": flag_toggles(seconds),
            "minesweeper_v0_env_bytes": env_memory_bytes(ENV_ID, difficulty="easy"),
            "minesweeper_v0_hard_env_bytes": env_memory_bytes(ENV_ID, difficulty="hard"),
        },
        targets={
            "minesweeper_v0_steps_per_s": 100_000,
            "minesweeper_v0_env_bytes": 1_000_000,
            f"minesweeper_v0_vector{VECTOR_BATCH}_steps_per_s": 900_000,
        },
        peer=Peer("jumanji Minesweeper-v0", "jumanji"),
        units={
            "minesweeper_v0_flag_toggles": "one flag toggle (on or off) of a hidden cell, easy "
            "board; no reveal"
        },
    )
    add_vector_figures(
        figures.results,
        figures.durations,
        "minesweeper_v0_hard",
        ENV_ID,
        seconds,
        unit=unit,
        difficulty="hard",
    )
    return figures

"""Snake throughput (`arcade-eval bench snake`): env steps per second, questions, memory.

The report shape of `report.make_report`. Compile time is reported on its own; every
throughput figure is taken after the kernels are warm.
"""

from __future__ import annotations

import time
from typing import Any

import gymnasium as gym
import numpy as np

from arcade_gym.snake.env import warmup
from arcade_gym.snake.game import SnakeGame
from evaluation.throughput.report import (
    VECTOR_BATCH,
    add_vector_figures,
    env_memory_bytes,
    make_report,
    masked_random_steps,
    peer_status,
    rate,
)

SNAKE_ID = "arcade_gym/Snake-v0"


def snake_v0_steps(
    seconds: float, difficulty: str = "easy", seed: int = 0, *, cpu_time: bool = False
) -> float:
    """`gym.make("arcade_gym/Snake-v0")`, uniform random unmasked actions, reset at episode end
    (`cpu_time=True`: per second of this process's CPU time)."""
    return masked_random_steps(
        SNAKE_ID, seconds, seed=seed, cpu_time=cpu_time, difficulty=difficulty
    )


def snake_v0_vector_steps(seconds: float, num_envs: int = 8, seed: int = 0) -> float:
    """Total env steps per second of a synchronous vector of `Snake-v0` envs (autoreset)."""
    envs = gym.make_vec(SNAKE_ID, num_envs=num_envs, vectorization_mode="sync")
    _, info = envs.reset(seed=seed)
    rng = np.random.default_rng(seed)

    def run(deadline: float) -> int:
        nonlocal info
        steps = 0
        while time.perf_counter() < deadline:
            for _ in range(64):
                # the reversal is the one masked action: step one of the other three
                offsets = rng.integers(1, 4, num_envs)
                reversal = np.argmin(info["action_mask"], axis=1)
                _, _, _, _, info = envs.step((reversal + offsets) % 4)
                steps += num_envs
        return steps

    return rate(run, seconds)


def questions(seconds: float, seed: int = 0) -> float:
    """`SnakeGame.question()` (the pydantic question every harness decision builds) per second,
    on positions of a random game."""
    rng = np.random.default_rng(seed)
    games: list[SnakeGame] = []
    game = SnakeGame(seed)
    while len(games) < 256:
        if game.over:
            game = SnakeGame(int(rng.integers(2**62)))
        games.append(game.copy())
        game.step(int(rng.choice(game.legal_directions())))

    def run(deadline: float) -> int:
        done = 0
        while time.perf_counter() < deadline:
            for g in games:
                g.question()
            done += len(games)
        return done

    return rate(run, seconds)


def bench_snake(seconds: float = 3.0) -> dict[str, Any]:
    """Every Snake figure of the speed targets, as one JSON-able dict."""
    compile_s = warmup()
    results = {
        "snake_v0_steps_per_s": snake_v0_steps(seconds),
        "snake_v0_steps_per_cpu_s": snake_v0_steps(seconds, cpu_time=True),
        "snake_v0_hard_steps_per_s": snake_v0_steps(seconds, difficulty="hard"),
        "snake_v0_vector8_steps_per_s": snake_v0_vector_steps(seconds),
        "snake_questions_per_s": questions(seconds),
        "snake_v0_env_bytes": env_memory_bytes(SNAKE_ID),
    }
    durations: dict[str, float] = {}
    add_vector_figures(results, durations, "snake_v0", SNAKE_ID, seconds)
    return make_report(
        "snake",
        seconds=seconds,
        compile_s=compile_s,
        results=results,
        targets={
            "snake_v0_steps_per_s": 150_000,
            f"snake_v0_vector{VECTOR_BATCH}_steps_per_s": 3_800_000,
        },
        peer=peer_status("jumanji Snake-v1", "jumanji"),
        durations=durations,
    )

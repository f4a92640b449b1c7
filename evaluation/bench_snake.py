"""Snake throughput (`arcade-eval bench snake`): env steps per second, questions, memory.

Same report shape as `evaluation.bench.bench_tetris`. Compile time is reported on its own; every
throughput figure is taken after the kernels are warm.
"""

from __future__ import annotations

import importlib.util
import platform
import time
from typing import Any

import gymnasium as gym
import numpy as np

import arcade_gym
from arcade_gym.snake.env import warmup
from arcade_gym.snake.game import SnakeGame
from evaluation.bench import _rate, env_memory_bytes

SNAKE_ID = "arcade_gym/Snake-v0"


def snake_v0_steps(
    seconds: float, difficulty: str = "easy", seed: int = 0, *, cpu_time: bool = False
) -> float:
    """`gym.make("arcade_gym/Snake-v0")`, uniform random unmasked actions (rejection sampling
    over the mask: exactly one action, the reversal, is masked), reset at episode end.

    `cpu_time=True` divides by this process's CPU time instead of the wall clock: the figure a
    quiet machine would show, when other work shares the cores."""
    env = gym.make(SNAKE_ID, difficulty=difficulty)
    _, info = env.reset(seed=seed)
    draws = np.random.default_rng(seed).integers(0, 4, 1 << 16).tolist()

    def run(deadline: float) -> int:
        nonlocal info
        steps = k = 0
        while True:
            for _ in range(1024):
                mask = info["action_mask"]
                a = draws[k & 0xFFFF]
                k += 1
                while not mask[a]:
                    a = draws[k & 0xFFFF]
                    k += 1
                _, _, terminated, truncated, info = env.step(a)
                steps += 1
                if terminated or truncated:
                    _, info = env.reset()
            if time.perf_counter() >= deadline:
                return steps

    if not cpu_time:
        return _rate(run, seconds)
    c0 = time.process_time()
    done = run(time.perf_counter() + seconds)
    return done / (time.process_time() - c0)


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

    return _rate(run, seconds)


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

    return _rate(run, seconds)


def _peer() -> dict[str, Any]:
    """Whether a peer Snake env is installed to compare against (Jumanji's `Snake-v1`)."""
    installed = importlib.util.find_spec("jumanji") is not None
    return {
        "name": "jumanji Snake-v1",
        "installed": installed,
        "note": "install it to measure it beside ours" if not installed else "not measured yet",
    }


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
    return {
        "game": "snake",
        "package_version": arcade_gym.__version__,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "seconds_per_figure": seconds,
        "compile_or_cache_load_s": compile_s,
        "results": results,
        "targets": {"snake_v0_steps_per_s": 150_000},
        "peer": _peer(),
    }

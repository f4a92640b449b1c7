"""Minesweeper throughput (`bench_minesweeper`): env steps per second and env memory, in the report
shape of `evaluation.bench.bench_tetris`.

Speed is measured here, never asserted in tests. Compile time (or numba cache load) is reported on
its own; every throughput figure is taken after the kernels are warm.
"""

from __future__ import annotations

import gc
import importlib.util
import platform
import time
import tracemalloc
from typing import Any

import gymnasium as gym
import numpy as np

import arcade_gym
from arcade_gym.minesweeper.engine import warmup

ENV_ID = "arcade_gym/Minesweeper-v0"


def minesweeper_steps(seconds: float, difficulty: str = "easy", seed: int = 0) -> float:
    """Steps per second of `gym.make(Minesweeper-v0)` with uniform random legal actions (reveals
    and flag toggles alike), resetting at each episode end.

    A legal action is drawn by rejection from a pre-drawn stream of uniform indices: exactly
    uniform over the mask, and cheaper than listing the legal actions every step, so the figure
    measures the env rather than the chooser.
    """
    env = gym.make(ENV_ID, difficulty=difficulty)
    _, info = env.reset(seed=seed)
    n_actions = int(env.action_space.n)  # type: ignore[attr-defined]
    draws = np.random.default_rng(seed).integers(0, n_actions, 1 << 16).tolist()
    k = 0
    steps = 0
    t0 = time.perf_counter()
    deadline = t0 + seconds
    while True:
        for _ in range(256):
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
            break
    return steps / (time.perf_counter() - t0)


def env_memory_bytes(difficulty: str = "easy", count: int = 50) -> float:
    """Python-heap bytes each extra reset env instance adds (tracemalloc, numpy included)."""
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    envs = []
    for i in range(count):
        env = gym.make(ENV_ID, difficulty=difficulty)
        env.reset(seed=i)
        envs.append(env)
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before) / count


def _peer() -> dict[str, Any]:
    """Whether a peer library is installed to compare against (PyPI's `gym-minesweeper`)."""
    installed = importlib.util.find_spec("gym_minesweeper") is not None
    return {
        "name": "gym-minesweeper",
        "installed": installed,
        "note": "install it to measure it beside ours" if not installed else "not measured yet",
    }


def bench_minesweeper(seconds: float = 3.0) -> dict[str, Any]:
    """Every Minesweeper speed figure as one JSON-able dict (`evaluation.bench.format_table`)."""
    compile_s = warmup()
    gym.make(ENV_ID).reset(seed=0)  # load the env module outside the timed figures
    results = {
        "minesweeper_v0_steps_per_s": minesweeper_steps(seconds, "easy"),
        "minesweeper_v0_medium_steps_per_s": minesweeper_steps(seconds, "medium"),
        "minesweeper_v0_hard_steps_per_s": minesweeper_steps(seconds, "hard"),
        "minesweeper_v0_env_bytes": env_memory_bytes("easy"),
        "minesweeper_v0_hard_env_bytes": env_memory_bytes("hard"),
    }
    return {
        "game": "minesweeper",
        "package_version": arcade_gym.__version__,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "seconds_per_figure": seconds,
        "compile_or_cache_load_s": compile_s,
        "results": results,
        "targets": {
            "minesweeper_v0_steps_per_s": 100_000,
            "minesweeper_v0_env_bytes": 1_000_000,
        },
        "peer": _peer(),
    }

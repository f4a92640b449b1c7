"""Throughput of tic-tac-toe (`bench_tictactoe`): the AEC env, the oracle, the arena suite.

The report has the shape of `report.make_report` (figures per second under `results`,
their `targets`, a `peer`), plus `seconds`: wall times of the suite build and of a whole arena
run for the Tactician (its event logs written to a scratch directory), which are durations
rather than rates.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from arcade_gym.core.warmup import warm
from arcade_gym.multiagent import tictactoe_v0
from evaluation.benchmarks.arena.suite import build_suite, classify, selfplay_positions
from evaluation.core.grid import PolicyPool
from evaluation.throughput.report import (
    VECTOR_BATCH,
    add_vector_figures,
    format_table,
    make_report,
    peer_status,
    rate,
)

GYM_ID = "arcade_gym/TicTacToe-v0"


def warmup() -> float:
    """Compile (or load from numba's cache) every kernel the figures use: the game's registered
    warmup, then the suite classifier and the Tactician player; seconds taken."""
    t0 = time.perf_counter()
    warm("tictactoe")
    rng = np.random.default_rng(0)
    for size in (3, 5, 10):
        for board, side in selfplay_positions(size, rng)[:6]:
            classify(board, side)
    from policies.tictactoe import make_player

    make_player("tactician").choose(np.zeros(100, np.int8), 1)
    return time.perf_counter() - t0


def aec_steps(seconds: float, size: int = 3, *, wrapped: bool = False, seed: int = 0) -> float:
    """Steps per second through the AEC API (`last`, `step`, dead steps and resets included),
    each move uniform among the legal ones of the action mask."""
    env: Any = tictactoe_v0.wrapped_env(size=size) if wrapped else tictactoe_v0.env(size=size)
    env.reset(seed=seed)
    u = np.random.default_rng(seed).random(1 << 16).tolist()

    def run(deadline: float) -> int:
        steps = 0
        while True:
            for _ in range(1024):
                obs, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                    if not env.agents:
                        env.reset()
                else:
                    legal = obs["action_mask"].nonzero()[0]
                    env.step(int(legal[int(u[steps & 0xFFFF] * legal.size)]))
                steps += 1
            if time.perf_counter() >= deadline:
                return steps

    return rate(run, seconds)


def gym_steps(seconds: float, size: int = 3, opponent: str = "random", seed: int = 0) -> float:
    """`gym.make("arcade_gym/TicTacToe-v0")` steps per second (each includes the opponent's
    reply), uniform legal moves, reset at episode end."""
    env = gym.make(GYM_ID, size=size, opponent=opponent)
    _, info = env.reset(seed=seed)
    u = np.random.default_rng(seed).random(1 << 16).tolist()

    def run(deadline: float) -> int:
        nonlocal info
        steps = 0
        while True:
            for _ in range(256):
                legal = info["action_mask"].nonzero()[0]
                _, _, terminated, _, info = env.step(
                    int(legal[int(u[steps & 0xFFFF] * legal.size)])
                )
                steps += 1
                if terminated:
                    _, info = env.reset()
            if time.perf_counter() >= deadline:
                return steps

    return rate(run, seconds)


def oracle_positions(seconds: float, size: int, seed: int = 0) -> float:
    """Self-play positions per second fully classified by the oracle (threats, forks, forced
    win in 5, fork defense, 3x3 minimax), every category wanted."""
    rng = np.random.default_rng(seed)
    positions: list[tuple[np.ndarray, int]] = []
    while len(positions) < 256:
        positions.extend(selfplay_positions(size, rng))

    def run(deadline: float) -> int:
        done = 0
        while time.perf_counter() < deadline:
            for board, side in positions:
                classify(board, side)
            done += len(positions)
        return done

    return rate(run, seconds)


def bench_tictactoe(seconds: float = 3.0) -> dict[str, Any]:
    """Every tic-tac-toe figure of the issue's targets, as one JSON-able dict."""
    from evaluation.benchmarks.arena.runner import run_arena
    from policies.tictactoe import make_player

    compile_s = warmup()
    results = {
        "aec_3x3_steps_per_s": aec_steps(seconds, 3),
        "aec_10x10_steps_per_s": aec_steps(seconds, 10),
        "aec_3x3_pz_wrapped_steps_per_s": aec_steps(seconds, 3, wrapped=True),
        "gym_3x3_vs_random_steps_per_s": gym_steps(seconds, 3),
        "oracle_3x3_positions_per_s": oracle_positions(seconds, 3),
        "oracle_5x5_positions_per_s": oracle_positions(seconds, 5),
        "oracle_10x10_positions_per_s": oracle_positions(seconds, 10),
    }
    vector_s: dict[str, float] = {}
    add_vector_figures(results, vector_s, "gym_3x3_vs_random", GYM_ID, seconds)
    build_suite.cache_clear()
    t0 = time.perf_counter()
    build_suite()
    suite_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch:
        run_arena(["tactician"], PolicyPool(make_player), Path(scratch) / "run", say=lambda _: None)
    arena_s = time.perf_counter() - t0
    return make_report(
        "tictactoe",
        seconds=seconds,
        compile_s=compile_s,
        results=results,
        targets={
            "aec_3x3_steps_per_s": 100_000,
            f"gym_3x3_vs_random_vector{VECTOR_BATCH}_steps_per_s": 2_500_000,
        },
        peer=peer_status(
            "pettingzoo.classic.tictactoe_v3", "pygame", "needs pygame (pettingzoo[classic])"
        ),
        durations={
            "suite_build": suite_s,
            "tactician_arena": arena_s,
            **vector_s,
        },
    )


if __name__ == "__main__":
    print(format_table(bench_tictactoe(2.0)))

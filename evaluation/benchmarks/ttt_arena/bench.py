"""The arena's speed figures (`arcade-eval bench ttt-arena`): the suite's oracle classification per
position on each board size, and the wall times of building the suite and of a whole arena run
for the Tactician (its event logs written to a scratch directory).

The env figures of tic-tac-toe are the game's (`arcade-eval bench tictactoe`).
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import numpy as np

from arcade_gym.core.throughput import Figures, passes_per_s
from arcade_gym.core.warmup import warm
from evaluation.benchmarks.ttt_arena.suite import build_suite, classify, selfplay_positions
from evaluation.core.grid import PolicyPool


def warmup() -> float:
    """Compile (or load from numba's cache) the game's kernels, the suite classifier and the
    Tactician player; seconds taken."""
    from policies.tictactoe import make_player

    t0 = time.perf_counter()
    warm("tictactoe")
    rng = np.random.default_rng(0)
    for size in (3, 5, 10):
        for board, side in selfplay_positions(size, rng)[:6]:
            classify(board, side)
    make_player("tactician").choose(np.zeros(100, np.int8), 1)
    return time.perf_counter() - t0


def oracle_positions(seconds: float, size: int, seed: int = 0) -> float:
    """Self-play positions per second fully classified by the oracle (threats, forks, forced
    win in 5, fork defense, 3x3 minimax), every category wanted."""
    rng = np.random.default_rng(seed)
    positions: list[tuple[np.ndarray, int]] = []
    while len(positions) < 256:
        positions.extend(selfplay_positions(size, rng))

    def one_pass() -> None:
        for board, side in positions:
            classify(board, side)

    return passes_per_s(one_pass, len(positions), seconds)


def bench_arena(seconds: float = 3.0) -> Figures:
    """The oracle's positions per second, and the suite build and a Tactician arena run."""
    from evaluation.benchmarks.ttt_arena.runner import run_arena
    from policies.tictactoe import make_player

    compile_s = warmup()
    results = {
        f"oracle_{size}x{size}_positions_per_s": oracle_positions(seconds, size)
        for size in (3, 5, 10)
    }
    build_suite.cache_clear()
    t0 = time.perf_counter()
    build_suite()
    suite_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch:
        run_arena(["tactician"], PolicyPool(make_player), Path(scratch) / "run", say=lambda _: None)
    return Figures(
        results=results,
        durations={"suite_build": suite_s, "tactician_arena": time.perf_counter() - t0},
        compile_s=compile_s,
    )

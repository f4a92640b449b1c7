"""Throughput of chess (`bench_chess`): the AEC env beside a bare python-chess loop.

The bare loop is what any python-chess program pays per ply: list the legal moves, push one
(a new game when none is left, at 100 halfmoves or with insufficient material). The env's figure
is a full AEC cycle: `last()` (observation planes and mask), the choice of a uniform legal action
from the mask, `step()` (dead steps and resets included). Both run interleaved in short chunks and
are divided by this process's CPU time, so a busy machine shifts both alike; the target is the env
at >= 80% of the bare loop on the same machine. Figures are in the shape of `report.make_report`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import chess
import numpy as np

from arcade_gym.chess.warmup import compile_kernels
from arcade_gym.multiagent import chess_v0
from evaluation.throughput.report import (
    format_table,
    make_report,
    masked_random_steps,
    peer_status,
)

TARGET_SHARE = 0.8
CHUNKS = 6


def _aec_runner(seed: int = 0) -> Callable[[float], int]:
    """AEC cycles until the deadline; returns how many."""
    env = chess_v0.env()
    env.reset(seed=seed)
    u = np.random.default_rng(seed).random(1 << 16).tolist()
    count = 0

    def run(deadline: float) -> int:
        nonlocal count
        steps = 0
        while True:
            for _ in range(128):
                obs, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                    if not env.agents:
                        env.reset()
                else:
                    legal = obs["action_mask"].view(np.bool_).nonzero()[0]
                    env.step(int(legal[int(u[count & 0xFFFF] * legal.size)]))
                steps += 1
                count += 1
            if time.perf_counter() >= deadline:
                return steps

    return run


def _bare_runner(seed: int = 0) -> Callable[[float], int]:
    """python-chess push + legal-moves plies until the deadline; returns how many."""
    board = chess.Board()
    u = np.random.default_rng(seed).random(1 << 16).tolist()
    count = 0

    def run(deadline: float) -> int:
        nonlocal board, count
        steps = 0
        while True:
            for _ in range(128):
                moves = list(board.legal_moves)
                if not moves or board.halfmove_clock >= 100 or board.is_insufficient_material():
                    board = chess.Board()
                    continue
                board.push(moves[int(u[count & 0xFFFF] * len(moves))])
                steps += 1
                count += 1
            if time.perf_counter() >= deadline:
                return steps

    return run


def interleaved_rates(
    runners: dict[str, Callable[[float], int]], seconds: float, chunks: int = CHUNKS
) -> dict[str, float]:
    """Operations per CPU second of each runner, measured in alternating chunks."""
    done = dict.fromkeys(runners, 0)
    cpu = dict.fromkeys(runners, 0.0)
    for _ in range(chunks):
        for name, run in runners.items():
            c0 = time.process_time()
            done[name] += run(time.perf_counter() + seconds / chunks)
            cpu[name] += time.process_time() - c0
    return {name: done[name] / cpu[name] for name in runners}


def bench_chess(seconds: float = 3.0) -> dict[str, Any]:
    """The chess figures: AEC env and bare python-chess plies per second, side by side."""
    compile_s = compile_kernels()
    rates = interleaved_rates({"aec": _aec_runner(), "bare": _bare_runner()}, seconds)
    results = {
        "aec_standard_steps_per_s": rates["aec"],
        "bare_python_chess_plies_per_s": rates["bare"],
        "gym_chess_v0_vs_random_steps_per_s": masked_random_steps(
            "arcade_gym/Chess-v0", seconds, cpu_time=True
        ),
    }
    report = make_report(
        "chess",
        seconds=seconds,
        compile_s=compile_s,
        results=results,
        targets={"aec_standard_steps_per_s": round(TARGET_SHARE * rates["bare"])},
        peer=peer_status(
            "pettingzoo.classic.chess_v6", "pygame", "needs pygame (pettingzoo[classic])"
        ),
    )
    report["aec_share_of_bare"] = rates["aec"] / rates["bare"]
    return report


if __name__ == "__main__":
    out = bench_chess(2.0)
    print(format_table(out))
    print(f"  AEC env / bare python-chess: {out['aec_share_of_bare']:.0%}")

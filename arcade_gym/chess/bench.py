"""Chess's own speed figures (`arcade-eval bench chess` adds them to `Chess-v0`'s steps/s): the
AEC env beside a bare python-chess loop.

The bare loop is what any python-chess program pays per ply: list the legal moves, push one
(a new game when none is left, at 100 halfmoves or with insufficient material). The env's figure
counts plies, each a full AEC cycle: `last()` (observation planes and mask), the choice of a
uniform legal action from the mask, `step()`; a finished agent's dead step and the resets are
played and timed, never counted. Both run interleaved in short chunks and are divided by this
process's CPU time, so a busy machine shifts both alike; the target is the env at >= 80% of the
bare loop on the same machine. `STEP_UNITS` says what one counted step of `Chess-v0` is.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import chess
import numpy as np

from arcade_gym.chess import aec as chess_v0
from arcade_gym.core.counting import StepUnit
from arcade_gym.core.throughput import Figures, Peer, aec_random_steps


def plies(env: object) -> int:
    """Plies of a single `Chess-v0` game so far (both sides)."""
    return int(env.unwrapped.game.ply)  # type: ignore[attr-defined]


def vector_plies(envs: Any, obs: Any) -> np.ndarray:
    """Plies of each game of the chess vector env so far (its own ply counter)."""
    from arcade_gym.chess.vector_kernels import S_PLY

    return np.asarray(envs.unwrapped._st[:, S_PLY], np.int64)


STEP_UNITS = {
    "Chess-v0": StepUnit(
        "one move of the agent (white, standard start) against the random rung, whose reply is "
        "played inside the step: steps count the agent's moves, plies both sides' moves",
        plies=plies,
        vector_plies=vector_plies,
    ),
}
"""What one counted step of `Chess-v0` is (`arcade_gym/core/counting.py`)."""

PEERS = "arcade_gym.chess.peers:peer_pairs"
"""The pairs `arcade-eval bench --peers` measures (`arcade_gym/core/peers.py`)."""

TARGET_SHARE = 0.8
CHUNKS = 6


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
    return {name: done[name] / max(cpu[name], 1e-9) for name in runners}


def bench_chess(seconds: float = 3.0) -> Figures:
    """The AEC env and bare python-chess plies per CPU second, side by side, and their ratio."""
    rates = interleaved_rates(
        {"aec": aec_random_steps(chess_v0.env()), "bare": _bare_runner()}, seconds
    )
    return Figures(
        results={
            "aec_standard_steps_per_s": rates["aec"],
            "bare_python_chess_plies_per_s": rates["bare"],
        },
        targets={"aec_standard_steps_per_s": round(TARGET_SHARE * rates["bare"])},
        peer=Peer("pettingzoo.classic.chess_v6, pgx chess", "pgx"),
        extra={"aec_share_of_bare": rates["aec"] / rates["bare"]},
        units={
            "aec_standard": "one ply of either side through the AEC API (observation planes, "
            "mask, a random legal move); a finished agent's dead step not counted",
            "bare_python_chess": "one ply of a bare python-chess loop: list the legal moves, "
            "push one",
        },
    )

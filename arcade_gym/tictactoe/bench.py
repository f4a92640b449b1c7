"""Tic-tac-toe's own speed figures (`arcade-eval bench tictactoe` adds them to `TicTacToe-v0`'s
steps/s): the two-player AEC env on 3x3 and 10x10, bare and in PettingZoo's default wrappers.

A `TicTacToe-v0` step includes the opponent's reply; an AEC step is one agent's `last` + `step`,
dead steps and resets included. The arena's suite and oracle figures are the arena benchmark's
(`arcade-eval bench ttt-arena`).
"""

from __future__ import annotations

from typing import Any

from arcade_gym.core.throughput import VECTOR_BATCH, Figures, Peer, aec_random_steps, rate
from arcade_gym.tictactoe import aec as tictactoe_v0


def aec_steps(seconds: float, size: int = 3, *, wrapped: bool = False, seed: int = 0) -> float:
    """Steps per second through the AEC API, each move uniform among the legal ones."""
    env: Any = tictactoe_v0.wrapped_env(size=size) if wrapped else tictactoe_v0.env(size=size)
    return rate(aec_random_steps(env, seed), seconds)


def bench_tictactoe(seconds: float = 3.0) -> Figures:
    """Tic-tac-toe's figures beyond `TicTacToe-v0`'s generic steps/s, and the targets."""
    return Figures(
        results={
            "aec_3x3_steps_per_s": aec_steps(seconds, 3),
            "aec_10x10_steps_per_s": aec_steps(seconds, 10),
            "aec_3x3_pz_wrapped_steps_per_s": aec_steps(seconds, 3, wrapped=True),
        },
        targets={
            "aec_3x3_steps_per_s": 100_000,
            f"tic_tac_toe_v0_vector{VECTOR_BATCH}_steps_per_s": 2_500_000,
        },
        peer=Peer(
            "pettingzoo.classic.tictactoe_v3", "pygame", "needs pygame (pettingzoo[classic])"
        ),
    )

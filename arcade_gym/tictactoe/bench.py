"""Tic-tac-toe's own speed figures (`arcade-eval bench tictactoe` adds them to `TicTacToe-v0`'s
steps/s): the two-player AEC env on 3x3 and 10x10, bare and in PettingZoo's default wrappers.

A `TicTacToe-v0` step is the agent's move with the sparring partner's reply inside it: its
steps/s count the agent's moves, its plies/s both sides' (`STEP_UNITS`). An AEC figure counts
plies: one agent's `last` + `step`; a finished agent's dead step and the resets are played and
timed, never counted. The arena's suite and oracle figures are the arena benchmark's
(`arcade-eval bench ttt-arena`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from arcade_gym.core.counting import StepUnit
from arcade_gym.core.throughput import VECTOR_BATCH, Figures, Peer, aec_random_steps, rate
from arcade_gym.multiagent import tictactoe_v0
from arcade_gym.tictactoe.vector import S_PLACED, TicTacToeVectorEnv


def stones(env: Any) -> int:
    """Plies of a single `TicTacToe-v0` game so far: the stones on its board."""
    return int(np.count_nonzero(env.unwrapped.game.flat))


def vector_stones(envs: Any, obs: np.ndarray) -> np.ndarray:
    """Plies of each game of the vector env so far: the native env's own count of the stones on
    each board (a view of its state), or for another vector env of `TicTacToe-v0` the stones in
    its (N, size, size, 2) planes (own and the partner's; a flat (N, D) observation is the same
    planes flattened). Reading the count costs a step far less than summing the planes."""
    native = getattr(envs, "unwrapped", envs)
    if isinstance(native, TicTacToeVectorEnv):
        placed: np.ndarray = native._st[:, S_PLACED]
        return placed
    return np.asarray(obs).reshape(len(obs), -1).sum(axis=1).astype(np.int64)


STEP_UNITS = {
    "TicTacToe-v0": StepUnit(
        "one move of the agent (X) on 3x3 against the random sparring partner, whose reply is "
        "played inside the step: steps count the agent's moves, plies both sides' moves",
        plies=stones,
        vector_plies=vector_stones,
    ),
}
"""What one counted step of `TicTacToe-v0` is (`arcade_gym/core/counting.py`)."""

PEERS = "arcade_gym.tictactoe.peers:peer_pairs"
"""The pairs `arcade-eval bench --peers` measures (`arcade_gym/core/peers.py`)."""


def aec_steps(seconds: float, size: int = 3, *, wrapped: bool = False, seed: int = 0) -> float:
    """Plies per second through the AEC API, each move uniform among the legal ones."""
    env: Any = tictactoe_v0.wrapped_env(size=size) if wrapped else tictactoe_v0.env(size=size)
    return rate(aec_random_steps(env, seed), seconds)


def bench_tictactoe(seconds: float = 3.0) -> Figures:
    """Tic-tac-toe's figures beyond `TicTacToe-v0`'s generic steps/s, and the targets."""
    ply = "one ply of either player (X first) through the AEC API; a finished agent's dead step"
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
        peer=Peer("pettingzoo.classic.tictactoe_v3, pgx tic_tac_toe", "pgx"),
        units={
            "aec_3x3": f"{ply} not counted; 3x3, 3 in a row",
            "aec_10x10": f"{ply} not counted; 10x10, 5 in a row",
            "aec_3x3_pz_wrapped": f"{ply} not counted; 3x3, in PettingZoo's default wrappers",
        },
    )

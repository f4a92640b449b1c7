"""Compile (or load from numba's cache) every tic-tac-toe kernel: the registered warmup."""

from __future__ import annotations

import numpy as np

from arcade_gym.core.warmup import warm


def compile_kernels() -> None:
    """Play each env and sparring partner a little on every board size."""
    from arcade_gym.tictactoe import aec as tictactoe_v0
    from arcade_gym.tictactoe.env import TicTacToeEnv
    from arcade_gym.tictactoe.oracle import minimax_table
    from arcade_gym.tictactoe.sparring import SPARRING

    minimax_table()
    for size in (3, 5, 10):
        aec = tictactoe_v0.env(size=size)
        aec.reset()
        aec.step(0)
        for opponent in SPARRING:
            if opponent == "perfect" and size != 3:
                continue
            env = TicTacToeEnv(size=size, opponent=opponent)
            _, info = env.reset(seed=0)
            env.step(int(np.flatnonzero(info["action_mask"])[0]))


def warmup() -> float:
    """Warm the tic-tac-toe kernels once per process; seconds taken (0 when already warm)."""
    return warm("tictactoe")

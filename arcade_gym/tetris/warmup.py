"""Compile (or load from numba's cache) every Tetris kernel once per process."""

from __future__ import annotations

import time

_warm = False


def warmup() -> float:
    """Run each kernel once; returns the seconds it took (0 when already warm)."""
    global _warm
    if _warm:
        return 0.0
    t0 = time.perf_counter()
    from arcade_gym.tetris import engine as E
    from arcade_gym.tetris.env import TetrisEnv, TetrisPrimitiveEnv

    env = TetrisEnv()
    _, info = env.reset(seed=0)
    env.step(int(info["action_mask"].argmax()))
    primitive = TetrisPrimitiveEnv()
    primitive.reset(seed=0)
    for control in range(6):
        primitive.step(control)
    game = env.game
    E.state_hash(game.board, game.st, game.seq)
    E.shuffled_order(game.st[E.S_TICK], 4)
    E.gravity_rows(game.board, game.st, game.seq, 1)
    _warm = True
    return time.perf_counter() - t0

"""Compile (or load from numba's cache) every Tetris kernel: the registered warmup."""

from __future__ import annotations

from arcade_gym.core.warmup import warm


def compile_kernels() -> None:
    """Run each kernel once: both envs, hashing, bag order, gravity."""
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


def warmup() -> float:
    """Warm the Tetris kernels once per process; seconds taken (0 when already warm)."""
    return warm("tetris")

"""Compile (or load from numba's cache) the Tetris kernels a caller uses.

Each part compiles what one kind of caller runs and nothing else (a cold compile of the candidate
search alone takes seconds): `compile_game` what a Tetris Bench game plays, `compile_placement_env`
`Tetris-v3`'s step, `compile_primitive_env` the six controls. `compile_kernels`, the registered
warmup that `arcade-eval bench tetris` times, is all three. Every call passes the argument types
the real callers pass, so no kernel compiles a signature only the warmup uses.
"""

from __future__ import annotations

from arcade_gym.core.warmup import warm


def compile_game() -> None:
    """A Tetris Bench game: candidates, placing, holding, the question (state hash, shuffled
    order, afterstate grids) and Blitz gravity."""
    from arcade_gym.tetris.game import TetrisGame

    game = TetrisGame("warmup")
    game.question()
    x, rotation = game.legal_placements()[0]
    game.play(x, rotation)
    game.hold()
    placement = game.legal_placements()[0]
    game.blitz_answer(placement, False, 0.0)
    game.blitz_answer(None, False, 10_000.0)


def compile_placement_env() -> None:
    """`Tetris-v3`'s reset and step (the candidate search, the action view, the step kernel)."""
    from arcade_gym.tetris.env import TetrisEnv

    env = TetrisEnv()
    _, info = env.reset(seed=0)
    env.step(int(info["action_mask"].argmax()))


def compile_primitive_env() -> None:
    """`TetrisPrimitive-v3`'s reset and each of its six controls (no candidate search)."""
    from arcade_gym.tetris.env import TetrisPrimitiveEnv

    primitive = TetrisPrimitiveEnv()
    primitive.reset(seed=0)
    for control in range(6):
        primitive.step(control)


def compile_kernels() -> None:
    """Every Tetris kernel: a game, both envs (the registered warmup)."""
    compile_game()
    compile_placement_env()
    compile_primitive_env()


def warmup() -> float:
    """Warm the Tetris kernels once per process; seconds taken (0 when already warm)."""
    return warm("tetris")

"""Sudoku: a numba solver, a human-technique grader (tiers 1..7), a seeded generator, set v1 and
the `arcade_gym/Sudoku-v0` env."""

from arcade_gym.core.descriptor import EnvEntry, GameDescriptor

GAME = GameDescriptor(
    name="sudoku",
    title="Sudoku",
    envs=(
        EnvEntry(
            "Sudoku-v0",
            "arcade_gym.sudoku.env:SudokuEnv",
            "sudoku",
            vector_entry_point="arcade_gym.sudoku.vector:SudokuVectorEnv",
            # the game's natural cap: 81 placements at most, plus at most 729 penalised steps
            # (one per action: the base's cap for a game without a decision cap)
            max_episode_steps=810,
        ),
    ),
    warmup="arcade_gym.sudoku.warmup:compile_kernels",
    policies="policies.sudoku",
    bench="arcade_gym.sudoku.bench:bench_sudoku",
    viewer="arcade_gym.sudoku:viewer.js",
)
"""What the suite reads about this game (`arcade_gym/core/descriptor.py`)."""

__all__ = ["GAME"]

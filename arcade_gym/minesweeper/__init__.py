"""Minesweeper (NARCADE rules 0.4.0): seeded boards with a safe 3x3 opening, one numba kernel per
step, a Gymnasium env and a question/answer contract for policies."""

from arcade_gym.core.descriptor import EnvEntry, GameDescriptor

GAME = GameDescriptor(
    name="minesweeper",
    title="Minesweeper",
    envs=(
        EnvEntry(
            "Minesweeper-v0",
            "arcade_gym.minesweeper.env:MinesweeperEnv",
            "minesweeper",
            vector_entry_point="arcade_gym.minesweeper.vector:MinesweeperVectorEnv",
            max_episode_steps=2_000,  # the env's decision cap (max_decisions, NARCADE's default)
        ),
    ),
    warmup="arcade_gym.minesweeper.engine:warmup",
    policies="policies.minesweeper",
    bench="arcade_gym.minesweeper.bench:bench_minesweeper",
    viewer="arcade_gym.minesweeper:viewer.js",
)
"""What the suite reads about this game (`arcade_gym/core/descriptor.py`)."""

__all__ = ["GAME"]

"""Snake: NARCADE rules 0.4.0 (easy 8x8, medium 12x12, hard 16x16) over one numba engine."""

from arcade_gym.core.descriptor import EnvEntry, GameDescriptor

GAME = GameDescriptor(
    name="snake",
    title="Snake",
    envs=(
        EnvEntry(
            "Snake-v0",
            "arcade_gym.snake.env:SnakeEnv",
            "snake",
            vector_entry_point="arcade_gym.snake.vector:SnakeVectorEnv",
            max_episode_steps=2_000,  # the env's decision cap (max_decisions, NARCADE's default)
        ),
    ),
    warmup="arcade_gym.snake.env:compile_kernels",
    policies="policies.snake",
    bench="arcade_gym.snake.bench:bench_snake",
    viewer="arcade_gym.snake:viewer.js",
)
"""What the suite reads about this game (`arcade_gym/core/descriptor.py`)."""

__all__ = ["GAME"]

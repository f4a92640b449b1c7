"""Tetris: the `tetris-bench@3` ruleset (guideline scoring, candidate placements) and NARCADE's
primitive-control variant, over one numba engine."""

from arcade_gym.core.descriptor import EnvEntry, GameDescriptor

GAME = GameDescriptor(
    name="tetris",
    title="Tetris",
    envs=(
        EnvEntry(
            "Tetris-v3",
            "arcade_gym.tetris.env:TetrisEnv",
            "tetris",
            vector_entry_point="arcade_gym.tetris.vector:TetrisVectorEnv",
            # the env's tick cap (rules.TICK_CAP): one tick a step, penalised steps included;
            # the 500-piece cap usually ends a game first
            max_episode_steps=10_000,
        ),
        EnvEntry(
            "TetrisPrimitive-v3",
            "arcade_gym.tetris.env:TetrisPrimitiveEnv",
            "tetris-primitive",
            vector_entry_point="arcade_gym.tetris.vector:TetrisPrimitiveVectorEnv",
            game_aliases=("tetris-controls",),
            max_episode_steps=10_000,  # the env's decision cap (max_decisions, rules.TICK_CAP)
        ),
    ),
    warmup="arcade_gym.tetris.warmup:compile_kernels",
    policies="policies.tetris",
    bench="arcade_gym.tetris.bench:bench_tetris",
    viewer="arcade_gym.tetris:viewer.js",
)
"""What the suite reads about this game (`arcade_gym/core/descriptor.py`)."""

__all__ = ["GAME"]

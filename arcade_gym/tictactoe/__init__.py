"""k-in-a-row tic-tac-toe: 3x3 (3 in a row), 5x5 (4) and 10x10 (5), X first, no gravity.

numba kernels (`engine`), a brute-force oracle (`oracle`), the sparring partners' move rules
(`sparring`), the engine contract of the Brainfuck arena (`contract`), and the single-agent
Gymnasium env (`env`, `arcade_gym/TicTacToe-v0`); the two-player PettingZoo env is
`arcade_gym.tictactoe.aec`, public as `arcade_gym.multiagent.tictactoe_v0`.
"""

from arcade_gym.core.descriptor import AecEntry, EnvEntry, GameDescriptor

GAME = GameDescriptor(
    name="tictactoe",
    title="Tic-tac-toe",
    envs=(
        EnvEntry(
            "TicTacToe-v0",
            "arcade_gym.tictactoe.env:TicTacToeEnv",
            "tictactoe",
            vector_entry_point="arcade_gym.tictactoe.vector:TicTacToeVectorEnv",
            # the game's natural cap: a 10x10 board's 100 squares (a game lasts at most size *
            # size steps, penalised ones included)
            max_episode_steps=100,
        ),
    ),
    warmup="arcade_gym.tictactoe.warmup:compile_kernels",
    policies="policies.tictactoe",
    bench="arcade_gym.tictactoe.bench:bench_tictactoe",
    aec=AecEntry("tictactoe_v0", "arcade_gym.tictactoe.aec"),
    viewer="arcade_gym.tictactoe:viewer.js",
    selfplay="arcade_gym.tictactoe.selfplay:builtin_opponent",
)
"""What the suite reads about this game (`arcade_gym/core/descriptor.py`)."""

__all__ = ["GAME"]

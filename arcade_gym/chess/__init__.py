"""Chess and Chess960 on python-chess, encoded the way PettingZoo's `chess_v6` encodes them.

`rules` (constants), `encoding` (the 8x8x73 = 4672 move-index action space), `movegen` (the numba
legal-move generator that writes masks and history rows), `engine` (the numba kernel that draws
the observation planes), `game` (a board with its history, repetitions and legal actions),
`positions` (start positions: standard, Chess960 by index, any FEN), `opponents` (the weak ladder
rungs as move rules), `contract` (the ladder's question and answer), `render` (text boards),
`warmup`, `env` (`arcade_gym/Chess-v0`) and `vector` (its native batched form, all in numba:
`board_kernels`, `position_kernels`, `rule_kernels`, `rule_rng`, `vector_kernels`,
`fen_kernel`); the two-player PettingZoo env is `arcade_gym.chess.aec`, public as
`arcade_gym.multiagent.chess_v0`. The rules are in `docs/rules/chess.md`.
"""

from arcade_gym.core.descriptor import AecEntry, EnvEntry, GameDescriptor

GAME = GameDescriptor(
    name="chess",
    title="Chess",
    envs=(
        EnvEntry(
            "Chess-v0",
            "arcade_gym.chess.env:ChessEnv",
            "chess",
            vector_entry_point="arcade_gym.chess.vector:ChessVectorEnv",
            # the game's natural cap (no max_plies by default): 5,949 moves a side, the longest
            # game the fifty-move rule the env applies allows, plus at most 4,672 penalised
            # steps (one per action: the base's cap for a game without a decision cap)
            max_episode_steps=10_621,
        ),
    ),
    warmup="arcade_gym.chess.warmup:compile_kernels",
    policies="policies.chess",
    bench="arcade_gym.chess.bench:bench_chess",
    aec=AecEntry("chess_v0", "arcade_gym.chess.aec"),
    viewer="arcade_gym.chess:viewer.js",
    selfplay="arcade_gym.chess.selfplay:builtin_opponent",
)
"""What the suite reads about this game (`arcade_gym/core/descriptor.py`)."""

__all__ = ["GAME"]

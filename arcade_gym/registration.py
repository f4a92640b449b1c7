"""Registers every arcade-gym environment with Gymnasium, and every game's warmup (idempotent).

A new game adds its env ids to `ENVS` and its warmup to `WARMUPS`; nothing else in the core
changes. The envs enforce the call order themselves (`arcade_gym/core/env.py`), so Gymnasium's
`OrderEnforcing` wrapper is left out: `step()` before `reset()` is the env's own RuntimeError.
"""

from __future__ import annotations

from gymnasium.envs.registration import register, registry

from arcade_gym.core.warmup import register_warmup

NAMESPACE = "arcade_gym"

ENVS: dict[str, str] = {
    f"{NAMESPACE}/Tetris-v3": "arcade_gym.tetris.env:TetrisEnv",
    f"{NAMESPACE}/TetrisPrimitive-v3": "arcade_gym.tetris.env:TetrisPrimitiveEnv",
    f"{NAMESPACE}/Snake-v0": "arcade_gym.snake.env:SnakeEnv",
    f"{NAMESPACE}/Minesweeper-v0": "arcade_gym.minesweeper.env:MinesweeperEnv",
    f"{NAMESPACE}/TicTacToe-v0": "arcade_gym.tictactoe.env:TicTacToeEnv",
    f"{NAMESPACE}/Sudoku-v0": "arcade_gym.sudoku.env:SudokuEnv",
    f"{NAMESPACE}/Chess-v0": "arcade_gym.chess.env:ChessEnv",
}
"""Env id -> entry point. Episode caps live in the envs themselves (truncation), not TimeLimit."""

VECTOR_ENVS: dict[str, str] = {
    f"{NAMESPACE}/Snake-v0": "arcade_gym.snake.vector:SnakeVectorEnv",
    f"{NAMESPACE}/TicTacToe-v0": "arcade_gym.tictactoe.vector:TicTacToeVectorEnv",
    f"{NAMESPACE}/Minesweeper-v0": "arcade_gym.minesweeper.vector:MinesweeperVectorEnv",
    f"{NAMESPACE}/TetrisPrimitive-v3": "arcade_gym.tetris.vector:TetrisPrimitiveVectorEnv",
    f"{NAMESPACE}/Tetris-v3": "arcade_gym.tetris.vector:TetrisVectorEnv",
    f"{NAMESPACE}/Sudoku-v0": "arcade_gym.sudoku.vector:SudokuVectorEnv",
}
"""Env id -> entry point of its native batched env (`gym.make_vec(..., "vector_entry_point")`)."""

WARMUPS: dict[str, str] = {
    "tetris": "arcade_gym.tetris.warmup:compile_kernels",
    "snake": "arcade_gym.snake.env:compile_kernels",
    "minesweeper": "arcade_gym.minesweeper.engine:warmup",
    "tictactoe": "arcade_gym.tictactoe.warmup:compile_kernels",
    "sudoku": "arcade_gym.sudoku.warmup:compile_kernels",
    "chess": "arcade_gym.chess.warmup:compile_kernels",
}
"""Game -> its warmup entry point (`arcade_gym.core.warmup.warm_all()` runs them all)."""


def register_envs() -> None:
    """Register the ids in `ENVS` that Gymnasium does not know yet, and the games' warmups."""
    for env_id, entry_point in ENVS.items():
        if env_id not in registry:
            register(
                id=env_id,
                entry_point=entry_point,
                vector_entry_point=VECTOR_ENVS.get(env_id),
                order_enforce=False,
            )
    for game, warmup in WARMUPS.items():
        register_warmup(game, warmup)

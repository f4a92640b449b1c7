"""Registers every arcade-gym environment with Gymnasium (idempotent)."""

from __future__ import annotations

from gymnasium.envs.registration import register, registry

NAMESPACE = "arcade_gym"

ENVS: dict[str, str] = {
    f"{NAMESPACE}/Tetris-v3": "arcade_gym.tetris.env:TetrisEnv",
    f"{NAMESPACE}/TetrisPrimitive-v3": "arcade_gym.tetris.env:TetrisPrimitiveEnv",
    f"{NAMESPACE}/Snake-v0": "arcade_gym.snake.env:SnakeEnv",
    f"{NAMESPACE}/Minesweeper-v0": "arcade_gym.minesweeper.env:MinesweeperEnv",
    f"{NAMESPACE}/TicTacToe-v0": "arcade_gym.tictactoe.env:TicTacToeEnv",
}
"""Env id -> entry point. Episode caps live in the envs themselves (truncation), not TimeLimit."""


def register_envs() -> None:
    """Register the ids in `ENVS` that Gymnasium does not know yet."""
    for env_id, entry_point in ENVS.items():
        if env_id not in registry:
            register(id=env_id, entry_point=entry_point)

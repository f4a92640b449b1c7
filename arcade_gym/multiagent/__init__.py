"""PettingZoo (AEC) environments of arcade-gym, importable the PettingZoo way:

from arcade_gym.multiagent import chess_v0, tictactoe_v0
env = tictactoe_v0.env(size=5)
"""

from __future__ import annotations

from arcade_gym.multiagent import chess_v0, tictactoe_v0

__all__ = ["chess_v0", "tictactoe_v0"]

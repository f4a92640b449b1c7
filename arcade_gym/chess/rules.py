"""Constants of the chess envs and the chess ladder: ruleset id, spaces, end rules, caps."""

from __future__ import annotations

RULESET_ID = "chess@1"
"""Bumped by any change of behaviour of the envs (encoding, planes, end rules)."""

VARIANTS = ("standard", "chess960")

CHESS960_POSITIONS = 960
"""Chess960 start positions are numbered 0..959 (python-chess / Scharnagl numbering; 518 is the
standard array)."""

ACTION_PLANES = 73
"""Per from-square: 56 queen-like moves (7 distances x 8 directions), 8 knight moves, 9
underpromotions (3 directions x knight, bishop, rook)."""
ACTION_SIZE = 8 * 8 * ACTION_PLANES
"""4672, as in PettingZoo's `chess_v6`."""

HISTORY = 8
"""Boards kept in the observation (the newest first)."""
PLANES_PER_BOARD = 13
"""Six own piece planes, six opponent piece planes, one repetition plane."""
AUX_PLANES = 7
"""Castling (4), colour, fifty-move counter, all ones."""
OBS_PLANES = AUX_PLANES + HISTORY * PLANES_PER_BOARD
"""111."""

FIFTY_MOVE_HALFMOVES = 100
"""The fifty-move rule ends the game at 100 halfmoves without a capture or pawn move."""
REPETITIONS = 3
"""The game ends when the position on the board has occurred this many times."""

"""NARCADE's versions, games and task statements: what every log, result and publication names.

The rules (Snake, Minesweeper, Tetris with primitive controls) are those of `docs/rules/` and the
games' `rules.py`; this module fixes what the benchmark adds on top: the observation protocol
(what a policy is told), the file formats, and which policy family plays each game.
"""

from __future__ import annotations

from collections.abc import Mapping

RULES_VERSION = "0.4.0"
"""NARCADE rules version (Snake, Minesweeper, Tetris with primitive controls)."""
PROTOCOL_VERSION = "arcade-narcade-obs@2"
"""Observation protocol: the question models of the three games and `INSTRUCTIONS`. Bump it when
what a policy sees changes; publications may compare across it, never across rules versions.
Version 2: the Minesweeper question holds its board once (the text rows; version 1 also sent it as
numbers, `grid`). Logs of version 1 still replay (`replay.py`)."""

READABLE_PROTOCOLS = ("arcade-narcade-obs@1", PROTOCOL_VERSION)
"""Observation protocols whose logs `verify` replays."""

RESULT_FORMAT = "narcade-result@2"
"""Result files of a model on a game. Version 2 lives at `results/<model>/<game>.json` and holds
only episodes whose event log verifies; version 1 (`<model>-<game>.json`) is still published."""
READABLE_RESULT_FORMATS = ("narcade-result@1", RESULT_FORMAT)
MANIFEST_FORMAT = "narcade-manifest@2"

GAMES = ("minesweeper", "snake", "tetris")
"""The NARCADE games, in run order."""

POLICY_GAMES: Mapping[str, str] = {
    "minesweeper": "minesweeper",
    "snake": "snake",
    "tetris": "tetris-primitive",
}
"""NARCADE game -> the game name of the policy grammar (`policies/specs.py`)."""

MODES = ("realtime", "lockstep")
DIFFICULTIES = ("easy", "medium", "hard")

INSTRUCTIONS: Mapping[str, str] = {
    "minesweeper": (
        "Minesweeper: reveal every safe cell without revealing a mine. The board rows use # for "
        "hidden, F for flagged and 0-8 for revealed counts of neighbouring mines. Reply with "
        'exactly one action from "actions" as {"action": "reveal r c"}.'
    ),
    "snake": (
        "Snake: eat food to grow and score; hitting a wall or your own body ends the game. "
        "Directions are absolute; reversing into the neck keeps the heading. Reply with exactly "
        'one action from "actions" as {"action": "up"}.'
    ),
    "tetris": (
        "Tetris with primitive controls: move and rotate the falling piece, clear full rows to "
        "score, and avoid stacking above the top. Each answer is one control. Reply with exactly "
        'one action from "actions" as {"action": "left"}.'
    ),
}
"""The task statement of each game under `PROTOCOL_VERSION` (recorded in every log header;
`verify` refuses a log whose statement differs)."""


def game_mode(game: str, mode: str) -> str:
    """`realtime`/`lockstep` for Tetris and Snake; Minesweeper is always `turn-based`."""
    return "turn-based" if game == "minesweeper" else mode

"""Constants of NARCADE Snake, rules version 0.4.0 (`docs/rules/narcade.md`, "Snake").

Coordinates: `(row, col)`, row 0 at the top; a cell's flat index is `row * cols + col`. Directions
are absolute and numbered clockwise from up, so the reversal of `d` is `(d + 2) % 4`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

GAME = "snake"
RULES_VERSION = "0.4.0"

UP, RIGHT, DOWN, LEFT = range(4)
Direction = Literal["up", "right", "down", "left"]
DIRECTION_NAMES: tuple[Direction, Direction, Direction, Direction] = ("up", "right", "down", "left")
"""Direction index -> name (the action names of questions and answers)."""
N_DIRECTIONS = 4

# Row and column step of each direction.
DR = np.array([-1, 0, 1, 0], dtype=np.int64)
DC = np.array([0, 1, 0, -1], dtype=np.int64)

START_LENGTH = 3
START_HEADING = RIGHT
MAX_DECISIONS = 2000
"""NARCADE's `--max-decisions` default; a capped game is not a win."""


@dataclass(frozen=True)
class Difficulty:
    """Board size and realtime tick of one NARCADE difficulty."""

    rows: int
    cols: int
    tick_ms: int


DIFFICULTIES: dict[str, Difficulty] = {
    "easy": Difficulty(8, 8, 250),
    "medium": Difficulty(12, 12, 150),
    "hard": Difficulty(16, 16, 100),
}

# Grid cell contents.
EMPTY, SNAKE, FOOD = 0, 1, 2

# Observation planes of the RL env (last axis of `board`).
PLANE_BODY, PLANE_HEAD, PLANE_TAIL, PLANE_FOOD, PLANE_ORDER = range(5)
N_PLANES = 5

# End reasons (the log strings are the values of END_REASONS).
END_NONE, END_WALL, END_BODY, END_WON, END_DECISION_CAP, END_STARVED = range(6)
END_REASONS: dict[int, str | None] = {
    END_NONE: None,
    END_WALL: "wall",
    END_BODY: "body",
    END_WON: "won",
    END_DECISION_CAP: "decision cap",
    END_STARVED: "no food",
}
TERMINAL_ENDS = frozenset({END_WALL, END_BODY, END_WON})
"""Ends that belong to the game (Gymnasium `terminated`); the others are caps (`truncated`)."""


def opposite(direction: int) -> int:
    """The reversal of `direction` (turning back into the neck)."""
    return (direction + 2) % 4

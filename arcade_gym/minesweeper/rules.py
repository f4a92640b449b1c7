"""Constants of NARCADE Minesweeper (rules 0.4.0, `docs/rules/narcade.md`): sizes, cells, actions.

The visible board is an int8 grid: `HIDDEN` (-2), `FLAGGED` (-1) or the revealed cell's count of
neighbouring mines (0..8). Env actions are one flat index: `index < rows*cols` reveals cell `index`
(row-major), `rows*cols + index` toggles its flag.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

GAME: Literal["minesweeper"] = "minesweeper"
RULES_VERSION = "0.4.0"
"""NARCADE rules version; bump it with any change of board generation, actions or scoring."""

MAX_DECISIONS = 2000
"""NARCADE's default decision cap (`--max-decisions`); a capped game is not a win."""


@dataclass(frozen=True)
class Difficulty:
    """A board size and its mine count."""

    rows: int
    cols: int
    mines: int

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @property
    def safe_cells(self) -> int:
        return self.cells - self.mines


DIFFICULTIES: dict[str, Difficulty] = {
    "easy": Difficulty(9, 9, 10),
    "medium": Difficulty(16, 16, 40),
    "hard": Difficulty(16, 30, 99),
}
"""NARCADE's three boards (`docs/rules/narcade.md`, "Difficulties")."""

HIDDEN = -2
FLAGGED = -1
MINE = 9
"""Marks a mine in the engine's hidden field (counts are 0..8)."""

# Game status (engine `st[S_STATUS]`).
PLAYING, LOST, WON, CAPPED = range(4)
END_REASONS: dict[int, str | None] = {
    PLAYING: None,
    LOST: "mine",
    WON: "solved",
    CAPPED: "decision cap",
}

ActionKind = Literal["reveal", "flag"]
REVEAL: ActionKind = "reveal"
FLAG: ActionKind = "flag"
ACTION_KINDS: tuple[ActionKind, ActionKind] = (REVEAL, FLAG)

HIDDEN_CHAR = "#"
FLAG_CHAR = "F"
"""Board rows in questions: `#` hidden, `F` flagged, `0`-`8` revealed counts."""


def action_index(kind: str, row: int, col: int, rows: int, cols: int) -> int:
    """The env's flat action index of `kind` ("reveal" or "flag") on cell (row, col)."""
    if kind not in ACTION_KINDS:
        raise ValueError(f"action kind must be 'reveal' or 'flag', got {kind!r}")
    if not (0 <= row < rows and 0 <= col < cols):
        raise ValueError(f"cell ({row}, {col}) is outside the {rows}x{cols} board")
    return (0 if kind == REVEAL else rows * cols) + row * cols + col


def action_from_index(index: int, rows: int, cols: int) -> tuple[ActionKind, int, int]:
    """`(kind, row, col)` of a flat env action index."""
    n = rows * cols
    if not 0 <= index < 2 * n:
        raise ValueError(f"action {index} is out of range [0, {2 * n})")
    kind = REVEAL if index < n else FLAG
    row, col = divmod(index % n, cols)
    return kind, row, col


def action_text(kind: str, row: int, col: int) -> str:
    """The contract's spelling of an action: `"reveal 3 4"`, `"flag 3 4"` (row then column)."""
    return f"{kind} {row} {col}"

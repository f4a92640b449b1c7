"""Adjudication of chess ladder games: when a measured position settles a game early.

Every position after a move is measured by a full-strength Stockfish at `ADJUDICATION_NODES`
nodes; scores are in pawns from white's side, a forced mate counts as `MATE_PAWNS`.

- **Decisive**: the same side is ahead by at least 10 pawns in 6 measured positions in a row: it
  wins.
- **Dead level**: from ply 80 on, 40 measured positions in a row within 0.2 pawns of level: a
  draw. (Long shuffles in a dead-equal position say nothing more about either player.)
- **Ply cap**: the game reaching 300 plies is a draw.

Adjudicated games are flagged (`Adjudication.reason`). The rules are pure: feed measurements in
order with `Adjudicator.add`.
"""

from __future__ import annotations

from dataclasses import dataclass

import chess.engine

WIN_PAWNS = 10.0
WIN_RUN = 6
LEVEL_PAWNS = 0.2
LEVEL_RUN = 40
LEVEL_FROM_PLY = 80
PLY_CAP = 300
MATE_PAWNS = 100.0
ADJUDICATION_NODES = 20_000
"""Nodes per measured position (a cheap, steady reading; grading uses far more)."""


def score_pawns(score: chess.engine.PovScore) -> float:
    """A python-chess score as pawns from white's side (mates as +-MATE_PAWNS)."""
    white = score.white()
    if white.is_mate():
        mate = white.mate()
        return MATE_PAWNS if mate is not None and mate > 0 else -MATE_PAWNS
    cp = white.score()
    return 0.0 if cp is None else cp / 100.0


@dataclass(frozen=True)
class Adjudication:
    """An adjudicated end: `result` ("1-0", "0-1", "1/2-1/2") and `reason` ("decisive",
    "dead_level", "ply_cap")."""

    result: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        """JSON form."""
        return {"result": self.result, "reason": self.reason}


class Adjudicator:
    """Reads measured positions in order and says when the game is settled."""

    def __init__(self) -> None:
        self.white_run = 0
        self.black_run = 0
        self.level_run = 0

    def add(self, ply: int, pawns: float | None) -> Adjudication | None:
        """The measurement (pawns, white's side; None: not measured) of the position after
        `ply` plies; an Adjudication when the game is settled there."""
        if pawns is not None:
            self.white_run = self.white_run + 1 if pawns >= WIN_PAWNS else 0
            self.black_run = self.black_run + 1 if pawns <= -WIN_PAWNS else 0
            if ply >= LEVEL_FROM_PLY:
                self.level_run = self.level_run + 1 if abs(pawns) <= LEVEL_PAWNS else 0
            if self.white_run >= WIN_RUN:
                return Adjudication("1-0", "decisive")
            if self.black_run >= WIN_RUN:
                return Adjudication("0-1", "decisive")
            if self.level_run >= LEVEL_RUN:
                return Adjudication("1/2-1/2", "dead_level")
        if ply >= PLY_CAP:
            return Adjudication("1/2-1/2", "ply_cap")
        return None

"""Blitz: how gravity and a late answer resolve one question (`docs/rules/tetris.md`, "Blitz").

Apart from `game.py` because it is a rule about time on top of the moves: gravity acts for the
time the answer took, then the answer is played only if it still lands where it was disclosed.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from arcade_gym.tetris import engine as E
from arcade_gym.tetris.state import TetrisState


class BlitzOutcome(StrEnum):
    """How a Blitz question ended (`docs/rules/tetris.md`, "Blitz")."""

    IN_TIME = "in-time"
    LATE = "late"
    UNREACHABLE = "unreachable"
    LOCKED_BY_GRAVITY = "locked-by-gravity"
    HELD = "held"
    UNUSABLE = "unusable"


@dataclass(frozen=True)
class BlitzResult:
    """What gravity and the answer did to one Blitz question."""

    outcome: BlitzOutcome
    rows_fallen: int
    score_delta: int


def resolve_blitz(
    game: TetrisState, placement: tuple[int, int] | None, hold: bool, elapsed_ms: float
) -> BlitzResult:
    """Resolve one Blitz question of `game` (still playing) answered `elapsed_ms` after it was
    asked (one tick); see `TetrisGame.blitz_answer`."""
    disclosed: int | None = None
    if placement is not None:
        index = game.candidate_index(*placement)
        if index is None:
            raise ValueError(f"placement {placement} was not a listed candidate")
        disclosed = int(game.cinfo[index, E.C_Y_LAND])
    score_before = game.score
    rows, locked = game.fall(elapsed_ms)
    outcome: BlitzOutcome
    if locked:
        outcome = BlitzOutcome.LOCKED_BY_GRAVITY
    elif hold and game.can_hold:
        E.hold_piece(game.board, game.st, game.seq)
        outcome = BlitzOutcome.HELD
    elif placement is None:
        outcome = BlitzOutcome.UNUSABLE
    else:
        game.refresh()
        index = game.candidate_index(*placement)
        if index is None or int(game.cinfo[index, E.C_Y_LAND]) != disclosed:
            outcome = BlitzOutcome.UNREACHABLE
        else:
            E.play_placement(game.board, game.st, game.seq, game.cinfo[index])
            outcome = BlitzOutcome.IN_TIME if rows == 0 else BlitzOutcome.LATE
    E.end_tick(game.st)
    game.refresh()
    return BlitzResult(outcome, rows, game.score - score_before)

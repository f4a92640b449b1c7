"""The ladder schedule: which game a model plays next, from the results so far (deterministic).

Per variant (in the order given), the model climbs from the bottom rung: `games_per_rung` games
against each rung, then the next rung up. A variant stops after two consecutive rungs against
which the model scored zero, or after the top rung.

Colours alternate over the whole climb of a variant, not per rung: its n-th game (from 0) is
played as white when n is even, so with any `games_per_rung` (1 included) the model's games
alternate white, black, white, ... rung after rung, and over the climb it plays each colour as
often (one more white game when the climb has an odd number). Chess960 games go in pairs: games
2k and 2k+1 of the climb start from the k-th position of `seeds/chess/chess960-v1.json` (the
same order for every model), once as white and once as black; with an odd `games_per_rung` a
pair spans two rungs, and a climb that stops after the first game of a pair leaves that start
played with white only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

STOP_AFTER_ZERO_RUNGS = 2


@dataclass(frozen=True)
class ScheduledGame:
    """The next game: variant, rung, the game's number at that rung, the model's colour, and the
    Chess960 start index (None in standard chess)."""

    variant: str
    rung: str
    index: int
    colour: str
    start: int | None


@dataclass(frozen=True)
class PlayedGame:
    """A finished game's place in the schedule and the model's score (1, 0.5, 0)."""

    variant: str
    rung: str
    score: float


def next_game(
    rungs: Sequence[str],
    variants: Sequence[str],
    games_per_rung: int,
    played: Sequence[PlayedGame],
    chess960_starts: Sequence[int],
) -> ScheduledGame | None:
    """The game to play after `played` (in the order they were played), or None when the
    schedule is complete. `rungs` are in rising rating order."""
    if games_per_rung < 1:
        raise ValueError(f"games per rung must be at least 1, got {games_per_rung}")
    for variant in variants:
        climbed = sum(1 for g in played if g.variant == variant)
        zero_run = 0
        for rung in rungs:
            games = [g for g in played if g.variant == variant and g.rung == rung]
            if len(games) < games_per_rung:
                start = None
                if variant == "chess960":
                    if not chess960_starts:
                        raise ValueError("Chess960 games need start positions")
                    start = chess960_starts[(climbed // 2) % len(chess960_starts)]
                colour = "white" if climbed % 2 == 0 else "black"
                return ScheduledGame(variant, rung, len(games), colour, start)
            zero_run = zero_run + 1 if sum(g.score for g in games) == 0 else 0
            if zero_run >= STOP_AFTER_ZERO_RUNGS:
                break
    return None


def full_schedule_if(
    rungs: Sequence[str],
    variants: Sequence[str],
    games_per_rung: int,
    scores: Sequence[float],
    chess960_starts: Sequence[int],
) -> list[ScheduledGame]:
    """The games a model would play if it scored `scores` in order (then zeros): the schedule
    spelled out, for documentation and tests."""
    played: list[PlayedGame] = []
    out: list[ScheduledGame] = []
    while (game := next_game(rungs, variants, games_per_rung, played, chess960_starts)) is not None:
        out.append(game)
        score = scores[len(played)] if len(played) < len(scores) else 0.0
        played.append(PlayedGame(game.variant, game.rung, score))
    return out

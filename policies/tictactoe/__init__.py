"""Tic-tac-toe players: the arena's sparring partners (Random, Greedy, Tactician, Perfect)."""

from __future__ import annotations

from policies.tictactoe.sparring import (
    GreedyPlayer,
    PerfectPlayer,
    RandomPlayer,
    SparringPlayer,
    TacticianPlayer,
)

PLAYERS: dict[
    str, type[RandomPlayer] | type[GreedyPlayer] | type[TacticianPlayer] | type[PerfectPlayer]
] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "tactician": TacticianPlayer,
    "perfect": PerfectPlayer,
}
"""Player slug -> class."""


def make_player(slug: str, seed: int = 0) -> SparringPlayer:
    """A sparring player by slug (`random`, `greedy`, `tactician`, `perfect`)."""
    try:
        cls = PLAYERS[slug]
    except KeyError:
        raise ValueError(
            f"unknown tic-tac-toe player {slug!r}; choose one of {list(PLAYERS)}"
        ) from None
    return cls(seed=seed)


__all__ = [
    "PLAYERS",
    "GreedyPlayer",
    "PerfectPlayer",
    "RandomPlayer",
    "SparringPlayer",
    "TacticianPlayer",
    "make_player",
]

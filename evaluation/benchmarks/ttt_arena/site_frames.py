"""Replay frames of arena games: the game's frame (`arcade_gym/tictactoe/render.py:frame`) and the
arena's own fields on top (`docs/frames.md`).

`evaluation/core/replay_export.py` replays a verified log through the one loop and calls `frame`
at the start and after each engine decision; the board comes from the replayed game (a suite
position: the position asked), the move's instruction count and verdict from the decision just
applied.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arcade_gym.tictactoe.frame import frame as game_frame
from arcade_gym.tictactoe.game import TicTacToeGame
from evaluation.benchmarks.ttt_arena.episode import MatchEpisode, PositionEpisode


def _cells(pairs: Any) -> list[list[int]]:
    return [[int(r), int(c)] for r, c in pairs or []]


def _decision(event: Mapping[str, Any] | None) -> dict[str, Any]:
    if event is None:
        return {"lastMove": None, "replies": [], "instructions": None, "illegal": None}
    move = event.get("move")
    return {
        "lastMove": None if move is None else [int(move[0]), int(move[1])],
        "replies": _cells(event.get("replies")),
        "instructions": event.get("instructions"),
        "illegal": event.get("illegal"),
    }


def frame(episode: Any, event: Mapping[str, Any] | None) -> dict[str, Any]:
    """The board after `event` (None: the start) with the arena's fields: the kind (`match` or
    `position`), the engine's mark, its last move with its instruction count and verdict, the
    sparring side's replies; a match adds its opponent and outcome (its end, a forfeit included,
    is the match's), a position its category, the expected moves and whether it passed."""
    if isinstance(episode, MatchEpisode):
        shown = game_frame(episode.game)
        return {
            "kind": "match",
            **shown,
            "toMove": None if episode.over else shown["toMove"],
            "engineMark": episode.spec.engine_mark,
            "opponent": episode.spec.opponent,
            "over": episode.over,
            "outcome": episode.outcome if episode.over else None,
            **_decision(event),
        }
    if isinstance(episode, PositionEpisode):
        item = episode.item
        return {
            "kind": "position",
            **game_frame(TicTacToeGame.from_question(item.question)),
            "engineMark": item.to_move,
            "category": item.category,
            "expected": _cells(item.expected),
            "passed": episode.passed if episode.over else None,
            "over": episode.over,
            **_decision(event),
        }
    raise TypeError(f"not an arena episode: {type(episode).__name__}")

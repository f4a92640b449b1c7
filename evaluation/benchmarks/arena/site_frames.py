"""Replay frames of arena games for the site's `tictactoe` viewer
(`evaluation/site/assets/viewers/tictactoe.js`).

`evaluation/core/replay_export.py` replays a verified log through the one loop and calls `frame`
at the start and after each engine decision; the board comes from the replayed game, the move's
instruction count and verdict from the decision just applied.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arcade_gym.tictactoe.rules import X
from evaluation.benchmarks.arena.episode import MatchEpisode, PositionEpisode


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
    """The board after `event` (None: the start): cells as rows of `X`/`O`/`.`, size, k, whose
    turn, the engine's last move with its instruction count, the sparring side's replies."""
    if isinstance(episode, MatchEpisode):
        game = episode.game
        spec = episode.spec
        winner = None if not game.winner else ("X" if game.winner == X else "O")
        return {
            "kind": "match",
            "size": game.size,
            "k": game.k,
            "rows": list(game.rows()),
            "toMove": None if episode.over else ("X" if game.to_move == X else "O"),
            "engineMark": spec.engine_mark,
            "opponent": spec.opponent,
            "ply": game.placed,
            "winner": winner,
            "over": episode.over,
            "outcome": episode.outcome if episode.over else None,
            **_decision(event),
        }
    if isinstance(episode, PositionEpisode):
        item = episode.item
        return {
            "kind": "position",
            "size": item.size,
            "k": item.question.k,
            "rows": list(item.rows),
            "toMove": item.to_move,
            "engineMark": item.to_move,
            "category": item.category,
            "expected": _cells(item.expected),
            "passed": episode.passed if episode.over else None,
            "over": episode.over,
            **_decision(event),
        }
    raise TypeError(f"not an arena episode: {type(episode).__name__}")

"""Tetris Bench replay frames for the site's `tetris` viewer (`evaluation/site/assets/viewers/`).

A frame is the shared Tetris frame shape (board rows top to bottom with 0 empty, 1-7 for
I O T S Z J L; the piece in play, its ghost, next and hold; score, lines, level) plus `chosen`:
the cells where the placement just played landed. Those come from the candidate table the
previous frame saw (the landing row the question disclosed), so the viewer highlights exactly
the candidate the brain chose, even when its lines were cleared.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from typing import Any

from arcade_gym.tetris import engine as E
from arcade_gym.tetris.game import TetrisGame
from arcade_gym.tetris.rules import PIECE_LETTERS, SHAPES
from evaluation.benchmarks.tetris_bench.episode import TetrisEpisode

VIEWER_KINDS = "IOTSZJL"
"""The shared frame's piece codes: kind `VIEWER_KINDS[code - 1]`."""
_CODE = {letter: VIEWER_KINDS.index(letter) + 1 for letter in PIECE_LETTERS}
_BOARD_CODES = [0] + [_CODE[letter] for letter in PIECE_LETTERS]
"""Engine cell value (piece type + 1) -> the shared frame's code."""

_LANDINGS: weakref.WeakKeyDictionary[TetrisEpisode, tuple[int, dict[tuple[int, int], int]]] = (
    weakref.WeakKeyDictionary()
)
"""Per replayed episode: the piece type in play at the last frame and its candidates' landing
rows by (x, rotation), so the next frame knows where the chosen placement landed."""


def piece_cells(kind: int, x: int, y: int, rotation: int) -> list[list[int]]:
    """`[row, col]` of a piece's four cells (rows above the board are negative)."""
    return [[y + int(dy), x + int(dx)] for dx, dy in SHAPES[kind, rotation]]


def _piece(kind: int, cells: list[list[int]]) -> dict[str, Any]:
    return {"cells": cells, "kind": PIECE_LETTERS[kind]}


def _landings(game: TetrisGame) -> dict[tuple[int, int], int]:
    rows = game.candidate_rows()
    return {(int(r[E.C_X]), int(r[E.C_ROT])): int(r[E.C_Y_LAND]) for r in rows}


def frame(episode: TetrisEpisode, event: Mapping[str, Any] | None) -> dict[str, Any]:
    """The game after `event` (None: before the first decision) as a viewer frame."""
    game = episode.game
    chosen = None
    played = (event or {}).get("played")
    previous = _LANDINGS.get(episode)
    if isinstance(played, Mapping) and previous is not None:
        kind, landings = previous
        x, rotation = int(played["x"]), int(played["rotation"])
        landing = landings.get((x, rotation))
        if landing is not None:
            chosen = {**_piece(kind, piece_cells(kind, x, landing, rotation)), "x": x}
            chosen["rotation"] = rotation
    active = ghost = None
    if not game.over:
        kind, x, y, rotation = game.active
        active = _piece(kind, piece_cells(kind, x, y, rotation))
        drop = int(E.drop_distance(game.board, kind, x, y, rotation))
        ghost = _piece(kind, piece_cells(kind, x, y + drop, rotation))
        _LANDINGS[episode] = (kind, _landings(game))
    hold = game.hold_piece
    blitz = (event or {}).get("blitz")
    verdict = (event or {}).get("verdict") or {}
    return {
        "board": [[_BOARD_CODES[v] for v in row] for row in game.board.tolist()],
        "active": active,
        "ghost": ghost,
        "chosen": chosen,
        "score": game.score,
        "lines": game.lines,
        "level": game.level,
        "pieces": game.pieces,
        "tick": game.tick,
        "next": [PIECE_LETTERS[p] for p in game.next_pieces],
        "hold": None if hold is None else PIECE_LETTERS[hold],
        "combo": game.combo,
        "backToBack": game.back_to_back,
        "mode": episode.mode,
        "held": bool((event or {}).get("hold")),
        "verdict": verdict.get("status"),
        "blitz": blitz.get("outcome") if isinstance(blitz, Mapping) else None,
        "over": game.over,
        "endReason": game.end_reason,
    }

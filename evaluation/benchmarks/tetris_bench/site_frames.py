"""Tetris Bench replay frames: the game's frame (`arcade_gym/tetris/render.py:frame`) and the
benchmark's own fields on top (`docs/frames.md`).

The benchmark adds `chosen`, the cells where the placement just played landed, with its `x` and
`rotation`: the landing row is the one the question the placement answered disclosed (the
episode keeps that question), so the viewer highlights exactly the candidate the brain chose,
even when its lines were cleared. Then the mode, whether the piece was held, the verdict and the
Blitz outcome of the decision.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arcade_gym.tetris import engine as E
from arcade_gym.tetris.frame import frame as game_frame
from arcade_gym.tetris.game import TetrisGame
from arcade_gym.tetris.rules import PIECE_LETTERS, SHAPES
from evaluation.benchmarks.tetris_bench.episode import TetrisEpisode


def piece_cells(kind: int, x: int, y: int, rotation: int) -> list[list[int]]:
    """`[row, col]` of a piece's four cells (rows above the board are negative)."""
    return [[y + int(dy), x + int(dx)] for dx, dy in SHAPES[kind, rotation]]


def chosen_cells(question: Any, x: int, rotation: int) -> dict[str, Any] | None:
    """Where placement `(x, rotation)` of the piece `question` asked about lands: `kind`, its
    four `cells`, `x`, `rotation` (None when the question listed no such placement)."""
    asked = TetrisGame.from_question(question)
    index = asked.candidate_index(x, rotation)
    if index is None:
        return None
    kind = asked.active[0]
    landing = int(asked.candidate_rows()[index, E.C_Y_LAND])
    cells = piece_cells(kind, x, landing, rotation)
    return {"cells": cells, "kind": PIECE_LETTERS[kind], "x": x, "rotation": rotation}


def frame(episode: TetrisEpisode, event: Mapping[str, Any] | None) -> dict[str, Any]:
    """The game after `event` (None: before the first decision) as a viewer frame."""
    decision = event or {}
    played = decision.get("played")
    chosen = None
    if isinstance(played, Mapping) and episode.asked is not None:
        chosen = chosen_cells(episode.asked, int(played["x"]), int(played["rotation"]))
    blitz = decision.get("blitz")
    verdict = decision.get("verdict") or {}
    return {
        **game_frame(episode.game),
        "chosen": chosen,
        "mode": episode.mode,
        "held": bool(decision.get("hold")),
        "verdict": verdict.get("status"),
        "blitz": blitz.get("outcome") if isinstance(blitz, Mapping) else None,
    }

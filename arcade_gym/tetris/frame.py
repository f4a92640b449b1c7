"""The JSON frame of a Tetris game that the site's viewer (`viewer.js` beside this file) draws:
a pure function of the game's state (`docs/frames.md`). Apart from `render.py` because the game
imports `render`'s text helpers, and a frame reads the game."""

from __future__ import annotations

from typing import Any

from arcade_gym.tetris import engine as E
from arcade_gym.tetris.game import TetrisGame
from arcade_gym.tetris.primitive_game import TetrisControlGame
from arcade_gym.tetris.render import ActiveTuple, _check_board, _piece_index, active_cells
from arcade_gym.tetris.rules import PIECE_LETTERS

FRAME_FORMAT = 2
"""The Tetris frame's `format`: 2 codes cells in `PIECE_LETTERS` order, the engine's own (format 1,
gone, had its own order)."""


def frame(game: TetrisGame | TetrisControlGame) -> dict[str, Any]:
    """The game's state as the viewer's JSON frame (`docs/frames.md`).

    Keys: `format`; `board`, rows top to bottom, each cell the engine's value (0 empty, `k` the
    piece `PIECE_LETTERS[k - 1]`); `active` and `ghost` (where it would hard-drop), each
    `{"cells": [[row, col]], "kind": letter}` with only the cells on the board, or None once the
    game is over; `score`, `lines`, `level`, `pieces` (locked), `tick`, `next` and `hold`
    (letters), `combo`, `backToBack`, `gravityMs`, `over`, `endReason`. A `TetrisControlGame`
    (primitive controls) is framed as the `TetrisGame` it plays, ending when it ends.
    """
    inner = game.game if isinstance(game, TetrisControlGame) else game
    board = inner.board
    active = ghost = None
    if not game.over:
        kind, x, y, rotation = inner.active
        drop = int(E.drop_distance(board, kind, x, y, rotation))
        active = _frame_piece((kind, x, y, rotation), board.shape)
        ghost = _frame_piece((kind, x, y + drop, rotation), board.shape)
    hold = inner.hold_piece
    return {
        "format": FRAME_FORMAT,
        "board": _check_board(board).tolist(),
        "active": active,
        "ghost": ghost,
        "score": inner.score,
        "lines": inner.lines,
        "level": inner.level,
        "pieces": inner.pieces,
        "tick": inner.tick,
        "next": [PIECE_LETTERS[p] for p in inner.next_pieces],
        "hold": None if hold is None else PIECE_LETTERS[hold],
        "combo": inner.combo,
        "backToBack": inner.back_to_back,
        "gravityMs": inner.gravity_ms(),
        "over": game.over,
        "endReason": game.end_reason,
    }


def _frame_piece(active: ActiveTuple, shape: tuple[int, int]) -> dict[str, Any]:
    rows, cols = active_cells(active, shape)
    cells = [[int(r), int(c)] for r, c in zip(rows.tolist(), cols.tolist(), strict=True)]
    return {"cells": cells, "kind": PIECE_LETTERS[_piece_index(active[0])]}

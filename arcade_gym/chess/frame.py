"""The JSON frame of a chess game that the site's viewer (`viewer.js` beside this file) draws:
a pure function of the game's state (`docs/frames.md`). Apart from `render.py` because the game
imports `render`'s text helpers, and a frame reads the game."""

from __future__ import annotations

from typing import Any

import chess

from arcade_gym.chess.game import ChessGame


def frame(game: ChessGame) -> dict[str, Any]:
    """The game's state as the viewer's JSON frame (`docs/frames.md`): `fen`, `variant`, `ply`
    (halfmoves from the start position), `turn` (`white` / `black`), `check`, `over`, `result`
    (`1-0`, `0-1`, `1/2-1/2`, or None while it goes on) and `endReason` (the termination)."""
    board = game.board
    return {
        "fen": board.fen(),
        "variant": game.variant,
        "ply": len(board.move_stack),
        "turn": "white" if board.turn == chess.WHITE else "black",
        "check": board.is_check(),
        "over": game.over,
        "result": game.result if game.over else None,
        "endReason": game.termination,
    }

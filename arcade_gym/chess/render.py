"""Text pictures of a chess position (the `ansi` render mode and the benchmark's text board), and
the JSON frame the site's viewer (`viewer.js` beside this file) draws."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import chess

if TYPE_CHECKING:
    from arcade_gym.chess.game import ChessGame


def text_board(board: chess.Board) -> str:
    """Ranks 8..1 top to bottom, files a..h, `.` for empty squares, upper case for white,
    with coordinates on the edges."""
    rows = []
    for rank in range(7, -1, -1):
        cells = []
        for file in range(8):
            piece = board.piece_at(chess.square(file, rank))
            cells.append(piece.symbol() if piece else ".")
        rows.append(f"{rank + 1} " + " ".join(cells))
    rows.append("  a b c d e f g h")
    return "\n".join(rows)


def render_ansi(board: chess.Board, header: str = "") -> str:
    """`header` (when given) above the text board."""
    body = text_board(board)
    return f"{header}\n{body}" if header else body


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

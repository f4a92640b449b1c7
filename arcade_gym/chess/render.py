"""Text pictures of a chess position (the `ansi` render mode and the benchmark's text board); the
JSON frame the site's viewer draws is `frame.py`'s."""

from __future__ import annotations

import chess


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

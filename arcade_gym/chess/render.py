"""Pictures of a chess position: text (the `ansi` render mode and the benchmark's text board) and
RGB frames (`rgb_array`, for Gymnasium's RecordVideo and HumanRendering); the JSON frame the site's
viewer draws is `frame.py`'s."""

from __future__ import annotations

import chess
import numpy as np

LIGHT_SQUARE = np.array((240, 217, 181), np.uint8)
DARK_SQUARE = np.array((181, 136, 99), np.uint8)
LAST_MOVE = np.array((205, 210, 106), np.uint8)
WHITE_PIECE, WHITE_INK = np.array((250, 250, 245), np.uint8), np.array((30, 30, 30), np.uint8)
BLACK_PIECE, BLACK_INK = np.array((40, 40, 40), np.uint8), np.array((235, 235, 235), np.uint8)

_FONT = {  # 5 x 7 letters naming the piece on its disc
    chess.KING: "#...#|#..#.|#.#..|##...|#.#..|#..#.|#...#",
    chess.QUEEN: ".###.|#...#|#...#|#...#|#.#.#|#..#.|.##.#",
    chess.ROOK: "####.|#...#|#...#|####.|#.#..|#..#.|#...#",
    chess.BISHOP: "####.|#...#|#...#|####.|#...#|#...#|####.",
    chess.KNIGHT: "#...#|##..#|#.#.#|#..##|#...#|#...#|#...#",
    chess.PAWN: "####.|#...#|#...#|####.|#....|#....|#....",
}
_GLYPHS = {
    piece: np.array([[ch == "#" for ch in row] for row in rows.split("|")])
    for piece, rows in _FONT.items()
}


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


def render_rgb(board: chess.Board, *, square_px: int = 32, flipped: bool = False) -> np.ndarray:
    """An RGB frame, uint8 (8 * square_px, 8 * square_px, 3): the board with white at the bottom
    (`flipped`: black), the last move's squares tinted, each piece a disc in its colour with the
    letter of its type (K Q R B N P)."""
    if square_px < 8:
        raise ValueError(f"square_px must be >= 8, got {square_px}")
    px = square_px
    image = np.empty((8 * px, 8 * px, 3), np.uint8)
    last = board.peek() if board.move_stack else None
    tinted = {last.from_square, last.to_square} if last is not None else set()
    y, x = np.mgrid[0:px, 0:px].astype(np.float64) + 0.5
    disc = np.hypot(x - px / 2, y - px / 2) < px * 0.42
    scale = max(1, int(px * 0.45) // 7)
    for square in chess.SQUARES:
        file, rank = chess.square_file(square), chess.square_rank(square)
        row, col = (rank, 7 - file) if flipped else (7 - rank, file)
        cell = image[row * px : (row + 1) * px, col * px : (col + 1) * px]
        light = (file + rank) % 2 == 1
        cell[:] = LAST_MOVE if square in tinted else (LIGHT_SQUARE if light else DARK_SQUARE)
        piece = board.piece_at(square)
        if piece is None:
            continue
        cell[disc] = WHITE_PIECE if piece.color == chess.WHITE else BLACK_PIECE
        glyph = np.repeat(np.repeat(_GLYPHS[piece.piece_type], scale, axis=0), scale, axis=1)
        h, w = glyph.shape
        top, left = (px - h) // 2, (px - w) // 2
        cell[top : top + h, left : left + w][glyph] = (
            WHITE_INK if piece.color == chess.WHITE else BLACK_INK
        )
    return image

"""Pictures of a Tetris board: the contract's grid form, text for terminals and LLM prompts, and RGB
frames for Gymnasium's `rgb_array` mode.

Pure functions over numpy arrays so the environment, the harness and the replay viewer share them
without a game object (the JSON frame the site's viewer draws is `frame.py`'s). A board is a
uint8 array, shape (20, 10), row 0 at the top: 0 is empty and `k` is piece type `k - 1` (an index
into `PIECE_LETTERS`). The optional active piece is a tuple `(type, x, y, rotation)`; its cells
are `SHAPES[type, rotation] + (x, y)`, and cells above the board (negative rows) are not drawn.
"""

from __future__ import annotations

import numpy as np

from arcade_gym.tetris.rules import PIECE_LETTERS, SHAPES

ActiveTuple = tuple[int | str, int, int, int]
"""(type, x, y, rotation); `type` is a piece index or its letter."""

FILLED, EMPTY, ACTIVE = "#", ".", "@"

# Guideline colours, indexed by piece type (I J L O S T Z).
PIECE_COLOURS = np.array(
    [
        (0, 240, 240),  # I cyan
        (0, 0, 240),  # J blue
        (240, 160, 0),  # L orange
        (240, 240, 0),  # O yellow
        (0, 240, 0),  # S green
        (160, 0, 240),  # T purple
        (240, 0, 0),  # Z red
    ],
    dtype=np.uint8,
)
BACKGROUND = np.array((18, 18, 24), dtype=np.uint8)
GRID_LINE = np.array((44, 44, 56), dtype=np.uint8)
ACTIVE_LIGHTEN = 0.45
"""How far the falling piece's colour moves towards white, so it stands out from the stack."""

# Palette index: 0 background, 1..7 locked pieces, 8..14 the active piece (lighter).
_PALETTE = np.concatenate(
    [
        BACKGROUND[None, :],
        PIECE_COLOURS,
        np.round(PIECE_COLOURS + (255 - PIECE_COLOURS.astype(np.float64)) * ACTIVE_LIGHTEN).astype(
            np.uint8
        ),
    ]
)
_N_TYPES = len(PIECE_LETTERS)


def _check_board(board: np.ndarray, *, stacked: bool = False) -> np.ndarray:
    """Boards come from many callers; fail loudly on a shape or value that would draw nonsense."""
    board = np.asarray(board)
    if board.ndim != (3 if stacked else 2):
        want = "3-D (boards, rows, cols)" if stacked else "2-D (rows, cols)"
        raise ValueError(f"board must be {want}, got shape {board.shape}")
    if board.size and (board.min() < 0 or board.max() > _N_TYPES):
        raise ValueError(f"board cells must be in 0..{_N_TYPES}")
    return board


def _piece_index(piece: int | str) -> int:
    """Accept a letter too, since the contract's ActivePiece names pieces by letter."""
    return PIECE_LETTERS.index(piece) if isinstance(piece, str) else int(piece)


def active_cells(active: ActiveTuple, shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Rows and columns of the active piece's cells that lie on a board of `shape`."""
    piece, x, y, rotation = active
    offsets = SHAPES[_piece_index(piece), int(rotation) % 4]
    cols = offsets[:, 0] + int(x)
    rows = offsets[:, 1] + int(y)
    on_board = (rows >= 0) & (rows < shape[0]) & (cols >= 0) & (cols < shape[1])
    return rows[on_board], cols[on_board]


_CELL_LETTERS = np.array([None, *PIECE_LETTERS], dtype=object)


def grid_to_cells(board: np.ndarray) -> list[list[str | None]]:
    """The contract's grid form: a piece letter per filled cell, None for an empty one."""
    cells: list[list[str | None]] = _CELL_LETTERS[_check_board(board)].tolist()
    return cells


def grids_to_cells(boards: np.ndarray) -> list[list[list[str | None]]]:
    """`grid_to_cells` of a stack of boards (n, rows, cols) in one pass (every candidate's grid)."""
    cells: list[list[list[str | None]]] = _CELL_LETTERS[_check_board(boards, stacked=True)].tolist()
    return cells


def grid_to_rows(board: np.ndarray) -> list[str]:
    """One string per row, `#` filled and `.` empty: the compact form prompts and logs use."""
    board = _check_board(board)
    return ["".join(FILLED if v else EMPTY for v in row) for row in board]


def render_ansi(board: np.ndarray, active: ActiveTuple | None = None, *, header: str = "") -> str:
    """The board as text: numbered rows of `#` and `.`, the falling piece as `@`, a column ruler.

    Every row is shown (unlike the seed's LLM prompt, which crops empty rows) so frames of a
    replay line up.
    """
    board = _check_board(board)
    chars = np.where(board > 0, FILLED, EMPTY).astype("<U1")
    if active is not None:
        rows, cols = active_cells(active, board.shape)
        chars[rows, cols] = ACTIVE
    ruler = "   " + "".join(str(c % 10) for c in range(board.shape[1]))
    lines = header.splitlines() if header else []
    lines += [f"{r:2d} {''.join(row)}" for r, row in enumerate(chars)]
    lines.append(ruler)
    return "\n".join(lines)


def render_rgb(
    board: np.ndarray, active: ActiveTuple | None = None, *, cell_px: int = 16
) -> np.ndarray:
    """An RGB frame, uint8 (rows * cell_px, cols * cell_px, 3): guideline colours on a dark
    background, 1 px grid lines, the falling piece in a lighter shade of its colour."""
    board = _check_board(board)
    if cell_px < 1:
        raise ValueError(f"cell_px must be >= 1, got {cell_px}")
    index = board.astype(np.intp)
    if active is not None:
        rows, cols = active_cells(active, board.shape)
        index[rows, cols] = 1 + _N_TYPES + _piece_index(active[0])
    pixels = np.repeat(np.repeat(index, cell_px, axis=0), cell_px, axis=1)
    image = _PALETTE[pixels]
    if cell_px > 1:  # at 1 px per cell a grid line would erase the cell
        image[::cell_px, :] = GRID_LINE
        image[:, ::cell_px] = GRID_LINE
    return image

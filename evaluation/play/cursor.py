"""A cursor over a grid of cells, moved by arrows (or h j k l) and kept on the board: the keys of
every board game whose answer is a cell share it."""

from __future__ import annotations

MOVES = {
    "up": (-1, 0),
    "k": (-1, 0),
    "down": (1, 0),
    "j": (1, 0),
    "left": (0, -1),
    "h": (0, -1),
    "right": (0, 1),
    "l": (0, 1),
}


class Cursor:
    """A (row, col) on a rows x cols board, starting in the middle."""

    def __init__(self) -> None:
        self.cell: tuple[int, int] | None = None

    def at(self, rows: int, cols: int) -> tuple[int, int]:
        """The cursor, kept on a board of this size."""
        row, col = self.cell if self.cell is not None else (rows // 2, cols // 2)
        self.cell = (min(max(row, 0), rows - 1), min(max(col, 0), cols - 1))
        return self.cell

    def move(self, key: str, rows: int, cols: int) -> bool:
        """Move by an arrow key; whether `key` was one."""
        if key not in MOVES:
            return False
        row, col = self.at(rows, cols)
        dr, dc = MOVES[key]
        self.cell = (row + dr, col + dc)
        self.at(rows, cols)
        return True

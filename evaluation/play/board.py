"""A board drawn for a person: cells in a grid with row and column numbers on the axes, counted
from 1, the one convention of every game of `arcade-eval play` whose answer is a cell (a game with
a notation of its own, files a-h and ranks 1-8, keeps it).

The numbers a person reads on screen, in the status line and in every message are these; a
game's protocol may count from 0 (an action text `reveal r c`, a (row, col) pair), and its keys
translate. `Board` also says where each cell sits on screen (for the cursor) and carries the
styled spans of its cells and labels (`screen.Span`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from evaluation.play.screen import Span, View, beside


@dataclass(frozen=True)
class Board:
    """The lines of a labelled grid, where cell (row, col) (0-based) is drawn, and its spans."""

    lines: list[str]
    origin: tuple[int, int]
    box: int
    spans: list[Span]

    def at(self, row: int, col: int) -> tuple[int, int]:
        """The (line, column) within `lines` of cell (row, col)."""
        top, left = self.origin
        line = top + row + (row // self.box if self.box else 0)
        return line, left + 2 * col + (2 * (col // self.box) if self.box else 0)

    def view(
        self,
        head: Sequence[str],
        tail: Sequence[str],
        cursor: tuple[int, int] | None = None,
        spans: Sequence[Span] = (),
        side: Sequence[str] = (),
    ) -> View:
        """The frame: `head` lines (the first styled as a title), the board with the `side`
        panel to its right, `tail` lines (with `spans` given relative to the tail), the cursor
        on cell `cursor`."""
        above = len(head)
        below = above + len(self.lines)
        lines = beside(self.lines, side) if side else self.lines
        drawn = [Span(0, 0, len(head[0]), "title")] if head else []
        drawn += [Span(s.line + above, s.col, s.length, s.style) for s in self.spans]
        drawn += [Span(s.line + below, s.col, s.length, s.style) for s in spans]
        mark = None
        if cursor is not None:
            line, col = self.at(*cursor)
            mark = (line + above, col)
        return View([*head, *lines, *tail], mark, drawn)


def labelled(
    cells: Sequence[Sequence[str]],
    *,
    box: int = 0,
    style: Callable[[int, int], str | None] | None = None,
) -> Board:
    """A grid of one-character `cells` with 1-based column numbers above (two lines, tens then
    units, past 9 columns) and row numbers to the left; `box` > 0 draws a rule every `box` rows
    and columns (3x3 boxes of a 9x9 puzzle); `style(row, col)` names a cell's style, or None."""
    rows = len(cells)
    cols = len(cells[0]) if rows else 0
    width = len(str(rows))
    left = width + 2

    def cell_x(col: int) -> int:
        return left + 2 * col + (2 * (col // box) if box else 0)

    def ruler(digit: Callable[[int], str]) -> str:
        line = [" "] * (cell_x(cols - 1) + 1 if cols else left)
        for col in range(cols):
            line[cell_x(col)] = digit(col + 1)
        return "".join(line).rstrip()

    lines: list[str] = []
    if cols > 9:
        lines.append(ruler(lambda n: str(n // 10) if n >= 10 else " "))
    lines.append(ruler(lambda n: str(n % 10)))
    spans = [Span(y, 0, len(line), "label") for y, line in enumerate(lines)]
    top = len(lines)
    for row in range(rows):
        if box and row and row % box == 0:
            lines.append(_rule(left, cols, box))
        label = str(row + 1).rjust(width)
        spans.append(Span(len(lines), 0, width, "label"))
        text = [" "] * (cell_x(cols - 1) + 1 if cols else left)
        text[:width] = label
        for col in range(cols):
            text[cell_x(col)] = cells[row][col]
            if box and col and col % box == 0:
                text[cell_x(col) - 2] = "|"
        y = len(lines)
        lines.append("".join(text).rstrip())
        if style is not None:
            for col in range(cols):
                name = style(row, col)
                if name is not None:
                    spans.append(Span(y, cell_x(col), 1, name))
    return Board(lines, (top, left), box, spans)


def _rule(left: int, cols: int, box: int) -> str:
    """The line between two bands of boxes: dashes under the cells, `+` under the bars."""
    parts = []
    for start in range(0, cols, box):
        parts.append("-" * (2 * min(box, cols - start) - 1))
    return " " * left + "-+-".join(parts)


def render_cells(picture: Sequence[str], rows: int, cols: int, prefix: int = 3) -> list[list[str]]:
    """The cells of a game's own text render whose first `rows` lines are a `prefix`-wide row
    number then one character a cell (the ansi renders of `arcade_gym`), to label anew."""
    return [list(line[prefix : prefix + cols].ljust(cols)) for line in picture[:rows]]

"""The JSON frame of a Sudoku game that the site's viewer (`viewer.js` beside this file) draws:
a pure function of the game's state (`docs/frames.md`). Apart from `render.py` because the game
imports `render`'s text helpers, and a frame reads the game."""

from __future__ import annotations

from typing import Any

from arcade_gym.sudoku.game import SudokuGame
from arcade_gym.sudoku.rules import grid_text


def cell_marks(puzzle: str, solution: str, grid: str | None) -> list[str]:
    """Per cell of `grid` (None: the puzzle itself) `given`, `right`, `wrong`, `changed` (a given
    altered) or `empty`; grids as 81 characters, `0` for blanks."""
    marks = []
    for c in range(81):
        shown = grid[c] if grid is not None else puzzle[c]
        if puzzle[c] != "0":
            marks.append("given" if shown == puzzle[c] else "changed")
        elif shown == "0":
            marks.append("empty")
        else:
            marks.append("right" if shown == solution[c] else "wrong")
    return marks


def grid_frame(puzzle: str, solution: str, grid: str | None) -> dict[str, Any]:
    """The viewer's frame of `grid` (81 characters, None: nothing written yet) over `puzzle`:
    `givens`, `grid`, `filled` (the cells that differ from the puzzle) and `marks`
    (`cell_marks`). A whole-grid answer is framed here, since it may break the rules a
    `SudokuGame` keeps."""
    shown = grid if grid is not None else puzzle
    return {
        "givens": puzzle,
        "grid": shown,
        "filled": [c for c in range(81) if shown[c] != puzzle[c]],
        "marks": cell_marks(puzzle, solution, grid),
    }


def frame(game: SudokuGame) -> dict[str, Any]:
    """The game's state as the viewer's JSON frame (`docs/frames.md`): `grid_frame` of its board,
    with `solved` and `over`."""
    shown = grid_frame(grid_text(game.puzzle), grid_text(game.solution), grid_text(game.board))
    return {**shown, "solved": game.solved, "over": game.over}

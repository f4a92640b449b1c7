"""The JSON frame of a Minesweeper game that the site's viewer (`viewer.js` beside this file) draws:
a pure function of the game's state (`docs/frames.md`). Apart from `render.py` because the game
imports `render`'s text helpers, and a frame reads the game."""

from __future__ import annotations

from typing import Any

from arcade_gym.minesweeper.game import MinesweeperGame
from arcade_gym.minesweeper.render import _chars


def frame(game: MinesweeperGame) -> dict[str, Any]:
    """The game's state as the viewer's JSON frame (`docs/frames.md`): `rows`, `cols`, `board`
    (one string per row as `board_rows` writes it, and once the game is over also `*` for the
    mines still hidden and `X` for the one revealed), `mines`, `flags`, `revealed`, `safeCells`,
    `moves` (actions since the opening), `score`, `over`, `endReason`."""
    over = game.over
    field = game.field_grid if over else None
    chars = _chars(game.board, field, game.exploded if over else None)
    return {
        "rows": game.rows,
        "cols": game.cols,
        "board": ["".join(row) for row in chars.tolist()],
        "mines": game.n_mines,
        "flags": game.flags,
        "revealed": game.revealed,
        "safeCells": game.safe_cells,
        "moves": game.decisions,
        "score": game.score,
        "over": over,
        "endReason": game.end_reason,
    }

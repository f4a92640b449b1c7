"""The JSON frame of a tic-tac-toe game that the site's viewer (`viewer.js` beside this file) draws:
a pure function of the game's state (`docs/frames.md`). Apart from `render.py` because the game
imports `render`'s text helpers, and a frame reads the game."""

from __future__ import annotations

from typing import Any

from arcade_gym.tictactoe.game import TicTacToeGame
from arcade_gym.tictactoe.rules import MARKS


def frame(game: TicTacToeGame) -> dict[str, Any]:
    """The game's state as the viewer's JSON frame (`docs/frames.md`): `size`, `k`, `rows` (of
    `X` / `O` / `.`), `toMove` (`X` or `O`, None once over), `ply` (marks placed), `winner`
    (`X`, `O` or None) and `over`."""
    return {
        "size": game.size,
        "k": game.k,
        "rows": list(game.rows()),
        "toMove": None if game.over else MARKS[game.to_move],
        "ply": game.placed,
        "winner": MARKS[game.winner] if game.winner else None,
        "over": game.over,
    }

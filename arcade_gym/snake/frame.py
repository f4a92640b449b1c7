"""The JSON frame of a Snake game that the site's viewer (`viewer.js` beside this file) draws:
a pure function of the game's state (`docs/frames.md`). Apart from `render.py` because the game
imports `render`'s text helpers, and a frame reads the game."""

from __future__ import annotations

from typing import Any

from arcade_gym.snake.game import SnakeGame


def frame(game: SnakeGame) -> dict[str, Any]:
    """The game's state as the viewer's JSON frame (`docs/frames.md`): `rows`, `cols`, `snake`
    (`[row, col]` cells, head first), `food` (`[row, col]` or None), `length`, `heading` (a
    direction name), `moves` (steps taken, realtime ticks included), `score`, `over`,
    `endReason`."""
    from arcade_gym.snake.rules import DIRECTION_NAMES

    food = game.food
    return {
        "rows": game.rows,
        "cols": game.cols,
        "snake": [[r, c] for r, c in game.snake_cells()],
        "food": None if food is None else [food[0], food[1]],
        "length": game.length,
        "heading": DIRECTION_NAMES[game.heading],
        "moves": game.moves,
        "score": game.score,
        "over": game.over,
        "endReason": game.end_reason,
    }

"""NARCADE replay frames: a JSON snapshot of a replayed episode for the site's viewers.

`frame(episode, event)` (the `Benchmark.frame` hook, called by
`evaluation/core/replay_export.py` on an episode it re-simulates) reads the engine's state after
`event` (None at the start), never the log's own claims. Every frame holds `game`, `score`,
`decisions`, `over`, `endReason` and, after a decision, the control or cell played (`action`,
None for a bad answer), its judgement (`status`) and what realtime play did meanwhile (`effect`).
The game's own fields:

- snake: `rows`, `cols`, `snake` (`[row, col]` cells, head first), `food` (`[row, col]` or None),
  `length`, `heading`, `moves` (decisions plus realtime ticks);
- minesweeper: `rows`, `cols`, `board` (one string per row: `#` hidden, `F` flagged, `0`-`8`
  revealed; once the game is over also `*` the mines still hidden and `X` the one revealed),
  `mines`, `flags`, `revealed`, `safeCells`, `moves`, `cell` (`[row, col]` of the action);
- tetris: the shared Tetris frame of the site (`board` rows top to bottom with 0 empty and 1-7 for
  I O T S Z J L, `active` and `ghost` as `{"cells": [[row, col]], "kind"}` or None, `score`,
  `lines`, `level`, `next`, `hold`) plus `pieces` and `gravityMs`; only cells on the board are
  drawn (a piece spawns partly above it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arcade_gym.tetris.rules import PIECE_LETTERS

FRAME_KINDS = "IOTSZJL"
"""The site's Tetris cell codes: `FRAME_KINDS.index(letter) + 1` (0 is empty)."""

_ENGINE_TO_FRAME = [FRAME_KINDS.index(letter) + 1 for letter in PIECE_LETTERS]
"""Engine board value - 1 (a piece type in `PIECE_LETTERS` order) -> the site's cell code."""


def frame(episode: Any, event: Mapping[str, Any] | None) -> dict[str, Any]:
    """The snapshot of a `NarcadeEpisode` (`episode.py`) after `event`, None for the start."""
    lane = episode.lane
    game_name = episode.config.game
    out: dict[str, Any] = {
        "game": game_name,
        "score": lane.score,
        "decisions": episode.decisions,
        "over": lane.over,
        "endReason": lane.end_reason,
    }
    if event is not None:
        verdict = event.get("verdict") or {}
        out["action"] = verdict.get("action")
        out["status"] = verdict.get("status")
        out["effect"] = dict(event.get("effect") or {})
    out.update(_GAME_FRAMES[game_name](lane.game, out.get("action")))
    return out


def snake_frame(game: Any, action: str | None) -> dict[str, Any]:
    """A `SnakeGame`'s board, body (head first) and food."""
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
    }


def minesweeper_frame(game: Any, action: str | None) -> dict[str, Any]:
    """What a `MinesweeperGame`'s player sees, with the mines shown once the game is over."""
    from arcade_gym.minesweeper.contract import parse_action
    from arcade_gym.minesweeper.render import board_rows

    rows = [list(row) for row in board_rows(game.board)]
    if game.over:
        for r, c in zip(*game.mines.nonzero(), strict=True):
            if rows[r][c] == "#":
                rows[r][c] = "*"
        if game.exploded is not None:
            r, c = game.exploded
            rows[r][c] = "X"
    parsed = parse_action(action) if action is not None else None
    return {
        "rows": game.rows,
        "cols": game.cols,
        "board": ["".join(row) for row in rows],
        "mines": game.n_mines,
        "flags": game.flags,
        "revealed": game.revealed,
        "safeCells": game.safe_cells,
        "moves": game.decisions,
        "cell": None if parsed is None else [parsed[1], parsed[2]],
    }


def tetris_frame(game: Any, action: str | None) -> dict[str, Any]:
    """A `TetrisControlGame` in the site's shared Tetris frame shape."""
    from arcade_gym.tetris import engine as E
    from arcade_gym.tetris.rules import SHAPES

    inner = game.game
    codes = [0, *_ENGINE_TO_FRAME]
    board = [[codes[int(v)] if 0 <= int(v) <= 7 else 8 for v in row] for row in inner.board]
    active = ghost = None
    if not game.over:
        t, x, y, r = inner.active
        kind = PIECE_LETTERS[t]
        drop = int(E.drop_distance(inner.board, t, x, y, r))
        shape = [(int(dy), int(dx)) for dx, dy in SHAPES[t, r]]
        active = {"cells": _visible(shape, y, x), "kind": kind}
        ghost = {"cells": _visible(shape, y + drop, x), "kind": kind}
    return {
        "board": board,
        "active": active,
        "ghost": ghost,
        "lines": game.lines,
        "level": game.level,
        "next": [PIECE_LETTERS[p] for p in inner.next_pieces],
        "hold": None,
        "pieces": game.pieces,
        "gravityMs": game.gravity_ms(),
    }


def _visible(shape: list[tuple[int, int]], y: int, x: int) -> list[list[int]]:
    """The piece's `[row, col]` cells at `(x, y)` that lie on the board (row 0 and below)."""
    return [[y + dy, x + dx] for dy, dx in shape if y + dy >= 0]


_GAME_FRAMES = {"snake": snake_frame, "minesweeper": minesweeper_frame, "tetris": tetris_frame}

"""NARCADE replay frames: the game's frame and NARCADE's own fields on top (`docs/frames.md`).

`frame(episode, event)` (the `Benchmark.frame` hook, called by
`evaluation/core/replay_export.py` on an episode it re-simulates) reads the engine's state after
`event` (None at the start), never the log's own claims. The game's fields come from its
`frame.frame` (`arcade_gym/snake/frame.py`, `arcade_gym/minesweeper/frame.py`,
`arcade_gym/tetris/frame.py`); NARCADE adds `game`, `score`, `decisions`, `over` and
`endReason` (the episode's: a policy's failure or a cap ends it too) and, after a decision, the
control or cell played (`action`, None for a bad answer), its judgement (`status`) and what
realtime play did meanwhile (`effect`); a Minesweeper frame also names the action's `cell`
(`[row, col]`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from arcade_gym.minesweeper.frame import frame as minesweeper_frame
from arcade_gym.snake.frame import frame as snake_frame
from arcade_gym.tetris.frame import frame as tetris_frame

GAME_FRAMES: dict[str, Callable[[Any], dict[str, Any]]] = {
    "snake": snake_frame,
    "minesweeper": minesweeper_frame,
    "tetris": tetris_frame,
}
"""Each NARCADE game's frame (`frame.frame` of its game folder)."""


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
    for key, value in GAME_FRAMES[game_name](lane.game).items():
        out.setdefault(key, value)  # NARCADE's own fields win
    if game_name == "minesweeper":
        out["cell"] = _cell(out.get("action"))
    return out


def _cell(action: str | None) -> list[int] | None:
    """`[row, col]` of a Minesweeper action (None for none)."""
    from arcade_gym.minesweeper.contract import parse_action

    parsed = parse_action(action) if action is not None else None
    return None if parsed is None else [parsed[1], parsed[2]]

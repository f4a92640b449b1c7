"""Chess ladder replay frames: the game's frame (`arcade_gym/chess/render.py:frame`) and the
ladder's own fields on top (`docs/frames.md`).

A decision is one model answer: a legal one plays the model's move and the rung's reply, a
rejected one leaves the board as it was (with the feedback the model got). On top of the game
after it the ladder adds the model's colour, the moves the decision added (UCI and SAN, whose
they are), the recorded measurements (pawns from white's side), a quick judgement of the model's
move from them, and the ladder's end (adjudication and forfeits included).

The quick judgement applies the grading's formulas (`grading.py`: Lichess winning chances, 5 / 10
/ 15 points for inaccuracy / mistake / blunder) to the adjudication measurements the log holds
(`ADJUDICATION_NODES` a position); the official grades, at `--grade-nodes`, are in the run's
results and PGN, and the site shows those where a run has them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import chess

from arcade_gym.chess.frame import frame as game_frame
from evaluation.benchmarks.chess_ladder.grading import judgement, win_percent


def _added_moves(board: chess.Board, since: int, model_white: bool) -> list[dict[str, Any]]:
    """The moves played from ply `since` on: ply, UCI, SAN and who played it."""
    start = board.copy()
    added = [start.pop() for _ in range(len(board.move_stack) - since)][::-1]
    moves = []
    for move in added:
        moves.append(
            {
                "ply": len(start.move_stack),
                "uci": move.uci(),
                "san": start.san(move),
                "by": "model" if start.turn == model_white else "rung",
            }
        )
        start.push(move)
    return moves


def quick_judgement(
    before: float | None, after: float | None, mover_white: bool
) -> dict[str, Any] | None:
    """Winning chances lost by a move, from the measurements before and after it (pawns from
    white's side), and its class (None when either is missing)."""
    if before is None or after is None:
        return None
    sign = 1.0 if mover_white else -1.0
    win_before = win_percent(sign * before * 100)
    win_after = win_percent(sign * after * 100)
    loss = max(0.0, win_before - win_after)
    return {
        "winBefore": round(win_before, 2),
        "winAfter": round(win_after, 2),
        "loss": round(loss, 2),
        "judgement": judgement(loss),
    }


def _measured_before(episode: Any, decision: int) -> float | None:
    """The last measurement recorded before `decision` (the position the model moved in): the
    reply's of the latest legal answer, or the rung's opening move's."""
    recorded = getattr(episode.side, "events", [])[:decision]
    for earlier in reversed(recorded):
        evals = earlier.get("evals")
        if isinstance(evals, list) and evals:
            value = evals[-1]
            return float(value) if isinstance(value, int | float) else None
    return episode.opening_eval if isinstance(episode.opening_eval, int | float) else None


def frame(episode: Any, event: Mapping[str, Any] | None) -> dict[str, Any]:
    """The game after `event` (None: the start, after the rung's opening move when the model
    plays black) of a replayed `LadderEpisode` (`evaluation/benchmarks/chess_ladder/episode.py`)."""
    board: chess.Board = episode.game.board
    since = int(event["ply"]) if event is not None else 0
    moves = _added_moves(board, since, episode.model_white)
    snapshot: dict[str, Any] = {
        **game_frame(episode.game),
        "modelColour": "white" if episode.model_white else "black",
        "moves": moves,
        "lastMove": moves[-1]["uci"] if moves else None,
        "evals": [],
        "judgement": None,
        "over": episode.over,
        "result": None,
        "endReason": None,
        "rejected": episode.rejected,
    }
    if event is None:
        if episode.opening_eval is not None:
            snapshot["evals"] = [episode.opening_eval]
    else:
        snapshot["attempt"] = event.get("attempt")
        snapshot["verdict"] = event.get("verdict")
        snapshot["feedback"] = event.get("feedback")
        evals = list(event.get("evals") or [])
        snapshot["evals"] = evals
        if event.get("move") is not None and evals:
            before = _measured_before(episode, int(event["n"]))
            snapshot["judgement"] = quick_judgement(before, evals[0], episode.model_white)
    if episode.over:
        ended = episode.result()
        snapshot["result"], snapshot["endReason"] = ended["result"], ended["endReason"]
    return snapshot

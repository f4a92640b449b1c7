"""Sudoku replay frames: the grid's frame (`arcade_gym/sudoku/render.py:grid_frame`, the givens,
the digits the answer put in and whether each is right) and the benchmark's own fields on top
(`docs/frames.md`).

A grid is answered whole, so a replay has a frame for the givens and one per attempt (one retry
for an unreadable reply). On top of the grid the benchmark adds the grid's id and tier, the
attempt and its verdict, the score, and per cell the technique the set's grading placed it with
(`labels` of the set record) together with the tier that cell needs (`scoring.cell_tiers`, the
one computation the reports' accuracy by tier uses too): the hardest technique on the reference
grader's path (`arcade_gym/sudoku/grader.py`) up to the step that placed it, so a naked single
found only after an X-Wing counts as needing tier 4.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arcade_gym.sudoku.frame import grid_frame
from arcade_gym.sudoku.rules import TIER_NAMES
from evaluation.benchmarks.sudoku.scoring import cell_tiers

__all__ = ["cell_tiers", "frame"]


def frame(episode: Any, event: Mapping[str, Any] | None) -> dict[str, Any]:
    """The grid after `event` (None: the givens before any answer) of a replayed
    `GridEpisode` (`evaluation/benchmarks/sudoku/episode.py`)."""
    record = episode.record
    puzzle, solution = record["puzzle"], record["solution"]
    answer = event.get("answer") if event is not None else None
    grid = answer if isinstance(answer, str) and len(answer) == 81 else None
    score = episode.score
    return {
        "gridId": record["id"],
        "tier": record["tier"],
        "tierName": TIER_NAMES[record["tier"]],
        **grid_frame(puzzle, solution, grid),
        "labels": list(record["labels"]),
        "needs": list(cell_tiers(puzzle)),
        "tierNames": {str(t): name for t, name in TIER_NAMES.items()},
        "attempt": episode.attempts,
        "status": event.get("status") if event is not None else None,
        "reason": event.get("reason") if event is not None else None,
        "confidence": event.get("confidence") if event is not None else None,
        "cellsRight": score.cells_right if score is not None else 0,
        "blanks": puzzle.count("0"),
        "outcome": score.outcome if score is not None else None,
        "solved": bool(score is not None and score.solved),
        "endReason": episode.end_reason,
    }

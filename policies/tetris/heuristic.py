"""El-Tetris / Dellacherie weighted evaluation of every candidate's afterstate, with greedy hold.

A one-piece greedy brain is the classic strong baseline: six board features with weights fitted by
El-Tetris clear lines for a very long time without any lookahead. The answer is a softmax over
all listed placements (a real `choice`), plus a top-out `risk` and the `noul.hold` decision.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from arcade_gym.tetris import engine as E
from arcade_gym.tetris.game import TetrisGame
from policies.tetris.greedy import GreedyBrain
from policies.tetris.search_kernels import eltetris_features

ELTETRIS_WEIGHTS: Mapping[str, float] = {
    "landing_height": -4.500158825082766,
    "eroded_cells": 3.4181268101392694,
    "row_transitions": -3.2178882868487753,
    "col_transitions": -9.348695305445199,
    "holes": -7.899265427351652,
    "wells": -3.3855972247263626,
    "new_holes": -10.0,
}
"""El-Tetris' published weights, plus a penalty for holes the placement itself adds (so a hole-free
alternative always wins over a slightly lower landing)."""

FEATURE_ORDER = (
    "landing_height",
    "eroded_cells",
    "row_transitions",
    "col_transitions",
    "holes",
    "wells",
    "new_holes",
)
TOP_OUT_SCORE = -1.0e6
"""Score of a placement that tops out: below every legal alternative."""


def _board_rows(game: TetrisGame) -> np.ndarray:
    rows = np.empty(E.H, np.int64)
    E.row_masks(game.board, rows)
    return rows


HOLE_DISCIPLINE = 1_000.0
"""Penalty that puts every hole-adding placement below every hole-free one."""


class HeuristicBrain(GreedyBrain):
    """Greedy El-Tetris evaluation of each candidate; holds when the held (or next) piece's best
    placement beats the active piece's by `hold_margin`."""

    def __init__(
        self,
        weights: Mapping[str, float] | None = None,
        *,
        hold_margin: float = 5.0,
        temperature: float = 5.0,
    ) -> None:
        super().__init__(
            slug="heuristic",
            name="El-Tetris heuristic",
            description="Greedy El-Tetris/Dellacherie afterstate evaluation with hold",
            kind="heuristic",
            adapter_version="1",
        )
        merged = dict(ELTETRIS_WEIGHTS)
        if weights is not None:
            unknown = set(weights) - set(FEATURE_ORDER)
            if unknown:
                raise ValueError(
                    f"unknown heuristic weights {sorted(unknown)}; use {FEATURE_ORDER}"
                )
            merged.update(weights)
        self.weights = np.array([merged[name] for name in FEATURE_ORDER], np.float64)
        self.hold_margin = hold_margin
        self.temperature = temperature

    def scores(self, game: TetrisGame) -> np.ndarray:
        """Weighted evaluation of each candidate of `game` (canonical order)."""
        n = game.n_candidates
        if n == 0:
            return np.zeros(0, np.float64)
        cinfo = game.candidate_rows()
        feats = np.zeros((n, 8), np.float64)
        eltetris_features(_board_rows(game), game.active[0], cinfo, n, feats)
        values = feats[:, :7] @ self.weights
        dead = (feats[:, 7] > 0) | (cinfo[:, E.C_TOP_OUT] > 0)
        values[dead] = TOP_OUT_SCORE
        # Hole discipline: when some placement adds no hole, every one that adds a hole ranks
        # below all of them (the probe's rule; El-Tetris alone sometimes trades a hole away).
        holes_now = game.features()[E.F_HOLES]
        adds_hole = game.candidate_features()[:, E.F_HOLES] > holes_now
        if (~adds_hole & ~dead).any():
            values[adds_hole & ~dead] -= HOLE_DISCIPLINE
        return values

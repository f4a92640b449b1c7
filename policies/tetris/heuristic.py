"""El-Tetris / Dellacherie weighted evaluation of every candidate's afterstate, with greedy hold.

A one-piece greedy brain is the classic strong baseline: six board features with weights fitted by
El-Tetris clear lines for a very long time without any lookahead. The answer is a softmax over
all listed placements (a real `choice`), plus a top-out `risk` and the `noul.hold` decision.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

from arcade_gym.tetris import engine as E
from arcade_gym.tetris.contract import (
    AgentAnswer,
    AgentInput,
    ChoiceEntry,
    Noul,
    Placement,
    ScoreField,
)
from arcade_gym.tetris.game import TetrisGame
from policies.base import DecisionContext, PolicyIdentity
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


def topout_risk(
    max_height: int,
    holes: int,
    *,
    slope: float = 0.8,
    midpoint: float = 16.0,
    per_hole: float = 0.15,
) -> float:
    """P(top-out within ten pieces) as a logistic in the stack height and holes.

    The defaults suit brains that play well (about 2% at height 10 on a clean board, 50% at 16,
    four rows from the spawn rows); a weaker brain passes the coefficients fitted to its own games.
    """
    z = slope * (max_height - midpoint) + per_hole * holes
    return 1.0 / (1.0 + math.exp(-z))


def choice_from_scores(
    legal: Sequence[Placement], scores: Sequence[float], pick: int, temperature: float
) -> list[ChoiceEntry]:
    """A softmax over the listed placements whose strict maximum is `pick`.

    The validator breaks ties towards the lower x, so the picked entry is nudged above any entry
    that rounds to the same probability.
    """
    values = np.asarray(scores, dtype=np.float64)
    top = float(values[pick])
    weights = np.exp(np.clip((values - top) / temperature, -700.0, 0.0))
    weights[pick] = 1.0
    total = float(weights.sum())
    probs = weights / total
    others = np.delete(probs, pick)
    if others.size and float(others.max()) >= float(probs[pick]):
        probs[pick] = float(others.max()) + 1e-9
        probs = probs / float(probs.sum())
    return [
        ChoiceEntry(x=p.x, rotation=p.rotation, p=float(prob))
        for p, prob in zip(legal, probs, strict=True)
    ]


def _board_rows(game: TetrisGame) -> np.ndarray:
    rows = np.empty(E.H, np.int64)
    E.row_masks(game.board, rows)
    return rows


HOLE_DISCIPLINE = 1_000.0
"""Penalty that puts every hole-adding placement below every hole-free one."""


class HeuristicBrain(PolicyIdentity):
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

    def act(self, question: AgentInput, ctx: DecisionContext | None = None) -> AgentAnswer:
        """Score every listed placement; hold when the other piece is clearly better."""
        game = TetrisGame.from_question(question)
        values = self.scores(game)
        index = {placement: i for i, placement in enumerate(game.legal_placements())}
        scores = [float(values[index[(p.x, p.rotation)]]) for p in question.legal]
        pick = max(
            range(len(scores)),
            key=lambda i: (scores[i], -question.legal[i].x, -question.legal[i].rotation),
        )
        hold = False
        active = question.active.type
        if question.can_hold and question.hold != active:
            other = game.copy()
            other.hold()
            if other.n_candidates:
                best_other = float(self.scores(other).max())
                hold = best_other > scores[pick] + self.hold_margin
        features = question.features
        return AgentAnswer(
            state_hash=question.state_hash,
            choice=choice_from_scores(question.legal, scores, pick, self.temperature),
            noul=Noul(hold=hold),
            score=ScoreField(risk=topout_risk(features.max_height, features.holes)),
        )

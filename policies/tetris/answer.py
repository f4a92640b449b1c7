"""What every Tetris brain's answer carries besides its pick: a softmax `choice` over the listed
placements and a top-out `risk`."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from arcade_gym.tetris.contract import (
    AgentAnswer,
    AgentInput,
    ChoiceEntry,
    Noul,
    Placement,
    ScoreField,
)


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


def ranked_answer(
    question: AgentInput, scores: Sequence[float], pick: int, *, hold: bool, temperature: float
) -> AgentAnswer:
    """The answer of a brain that scored every listed placement: the softmax `choice` whose
    maximum is `pick`, the hold decision, and the default top-out risk of the position."""
    features = question.features
    return AgentAnswer(
        state_hash=question.state_hash,
        choice=choice_from_scores(question.legal, scores, pick, temperature),
        noul=Noul(hold=hold),
        score=ScoreField(risk=topout_risk(features.max_height, features.holes)),
    )

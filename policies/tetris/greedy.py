"""One-piece greedy brains with hold lookahead: score every listed placement, play the best, and
hold when the other piece (the held one, or the next when the slot is empty) places better.

The El-Tetris heuristic and the trained linear controller differ only in how they score a
placement (`scores`); everything else about an answer is shared here, so a trained controller is
played exactly the way its training kernel plays it (`policies/tetris/linear_kernels.py` keeps the
same tie and hold rules).
"""

from __future__ import annotations

import math

import numpy as np

from arcade_gym.tetris.contract import AgentAnswer, AgentInput
from arcade_gym.tetris.game import TetrisGame
from policies.base import DecisionContext, PolicyIdentity
from policies.tetris.answer import ranked_answer


class GreedyBrain(PolicyIdentity):
    """Plays the best-scoring placement (ties: lower x, then lower rotation); holds when the other
    piece's best score beats it by more than `hold_margin` (infinite: never)."""

    hold_margin: float
    temperature: float

    def scores(self, game: TetrisGame) -> np.ndarray:
        """Score of each candidate of `game`, in the game's canonical candidate order."""
        raise NotImplementedError

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
        may_hold = question.can_hold and question.hold != question.active.type
        if may_hold and self.hold_margin < math.inf:
            other = game.copy()
            other.hold()
            if other.n_candidates:
                hold = float(self.scores(other).max()) > scores[pick] + self.hold_margin
        return ranked_answer(question, scores, pick, hold=hold, temperature=self.temperature)

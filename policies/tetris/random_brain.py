"""The seeded random baseline: a uniform pick among the listed candidates.

Seeded from (its own seed, the question's stateHash), so it is deterministic and stateless: the
same question always gets the same answer, and a replay reproduces the game.
"""

from __future__ import annotations

import numpy as np

from arcade_gym.tetris.contract import AgentAnswer, AgentInput
from policies.base import DecisionContext, PolicyIdentity
from policies.tetris.answer import topout_risk

RANDOM_RISK = {"slope": 0.43, "midpoint": 13.2, "per_hole": 0.05}
"""Top-out risk coefficients fitted (logistic regression) to 300 games of this brain: random play
tops out within ten pieces a quarter of the time already at height 10."""


class RandomBrain(PolicyIdentity):
    """Uniform over `question.candidates`, p = 1 on the pick, no hold."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(
            slug="random",
            name="Random",
            description="Uniform random pick among the listed placements, seeded per question",
            kind="baseline",
            adapter_version="1",
        )
        self.seed = int(seed)

    def act(self, question: AgentInput, ctx: DecisionContext | None = None) -> AgentAnswer:
        """Draw one listed placement from a generator keyed by (seed, stateHash)."""
        rng = np.random.default_rng([self.seed % 2**63, int(question.state_hash, 16)])
        pick = question.candidates[int(rng.integers(len(question.candidates)))]
        features = question.features
        return AgentAnswer.single(
            question.state_hash,
            pick.placement,
            risk=topout_risk(features.max_height, features.holes, **RANDOM_RISK),
        )

"""Snake policies for NARCADE rules 0.4.0: a seeded random baseline and a greedy path planner."""

from __future__ import annotations

from typing import Any

from policies.game_policies import GamePolicies
from policies.snake.baselines import HeuristicSnake, RandomSnake

BUILTINS: dict[str, type[RandomSnake] | type[HeuristicSnake]] = {
    "random": RandomSnake,
    "heuristic": HeuristicSnake,
}
"""Policy slug -> class."""


def make_policy(slug: str, **kw: Any) -> RandomSnake | HeuristicSnake:
    """A Snake policy by slug (`random`, `heuristic`); keyword arguments go to its class."""
    try:
        cls = BUILTINS[slug]
    except KeyError:
        choices = sorted(BUILTINS)
        raise ValueError(f"unknown Snake policy {slug!r}; choose one of {choices}") from None
    return cls(**kw)


POLICIES = (
    GamePolicies(
        "snake",
        BUILTINS,
        prompt="policies.snake.prompt:make_prompt",
        sb3="policies.snake.sb3:ADAPTER",
    ),
)
"""What the policy grammar reads about Snake (`policies/game_policies.py`)."""

__all__ = ["BUILTINS", "POLICIES", "HeuristicSnake", "RandomSnake", "make_policy"]

"""Snake policies for NARCADE rules 0.4.0: a seeded random baseline and a greedy path planner."""

from __future__ import annotations

from typing import Any

from policies.snake.baselines import HeuristicSnake, RandomSnake

POLICIES: dict[str, type[RandomSnake] | type[HeuristicSnake]] = {
    "random": RandomSnake,
    "heuristic": HeuristicSnake,
}
"""Policy slug -> class."""


def make_policy(slug: str, **kw: Any) -> RandomSnake | HeuristicSnake:
    """A Snake policy by slug (`random`, `heuristic`); keyword arguments go to its class."""
    try:
        cls = POLICIES[slug]
    except KeyError:
        choices = sorted(POLICIES)
        raise ValueError(f"unknown Snake policy {slug!r}; choose one of {choices}") from None
    return cls(**kw)


__all__ = ["POLICIES", "HeuristicSnake", "RandomSnake", "make_policy"]

"""Snake policies for NARCADE rules 0.4.0: a seeded random baseline and a greedy path planner."""

from __future__ import annotations

from typing import Any

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


__all__ = ["BUILTINS", "HeuristicSnake", "RandomSnake", "make_policy"]

"""Tetris brains for `tetris-bench@3`: a seeded random baseline, the El-Tetris heuristic and a
beam search that builds back-to-back tetrises."""

from __future__ import annotations

from typing import Any

from policies.tetris.heuristic import HeuristicBrain
from policies.tetris.random_brain import RandomBrain
from policies.tetris.search import SearchBrain

BUILTINS: dict[str, type[RandomBrain] | type[HeuristicBrain] | type[SearchBrain]] = {
    "random": RandomBrain,
    "heuristic": HeuristicBrain,
    "search": SearchBrain,
}
"""Brain slug -> class."""


def make_brain(slug: str, **kw: Any) -> RandomBrain | HeuristicBrain | SearchBrain:
    """A brain by slug (`random`, `heuristic`, `search`); keyword arguments go to its class."""
    try:
        cls = BUILTINS[slug]
    except KeyError:
        raise ValueError(
            f"unknown Tetris brain {slug!r}; choose one of {sorted(BUILTINS)}"
        ) from None
    return cls(**kw)


def warmup() -> float:
    """Compile (or load from numba's cache) the brains' kernels; returns the seconds it took.

    A cold compile takes several seconds, which a harness should not charge to the first move.
    """
    import time

    from arcade_gym.tetris.game import TetrisGame
    from arcade_gym.tetris.warmup import warmup as warm_engine

    t0 = time.perf_counter()
    warm_engine()
    question = TetrisGame("warmup").question()
    for cls in BUILTINS.values():
        cls().act(question, None)
    return time.perf_counter() - t0


__all__ = ["BUILTINS", "HeuristicBrain", "RandomBrain", "SearchBrain", "make_brain", "warmup"]

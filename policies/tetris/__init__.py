"""Tetris brains for `tetris-bench@3`: a seeded random baseline, the El-Tetris heuristic, a beam
search that builds back-to-back tetrises, and a linear controller from a trained weights file
(`linear:PATH.json`)."""

from __future__ import annotations

from typing import Any

from policies.game_policies import GamePolicies
from policies.tetris.controls import BUILTINS as CONTROLS_BUILTINS
from policies.tetris.heuristic import HeuristicBrain
from policies.tetris.linear import LinearBrain
from policies.tetris.random_brain import RandomBrain
from policies.tetris.search import SearchBrain

Brain = RandomBrain | HeuristicBrain | SearchBrain | LinearBrain

BUILTINS: dict[str, type[Brain]] = {
    "random": RandomBrain,
    "heuristic": HeuristicBrain,
    "search": SearchBrain,
    "linear": LinearBrain,
}
"""Brain name -> class (`linear` takes its weights file: `linear:PATH.json`)."""


def make_brain(slug: str, **kw: Any) -> Brain:
    """A brain by name (`random`, `heuristic`, `search`, `linear`); keyword arguments go to its
    class."""
    try:
        cls = BUILTINS[slug]
    except KeyError:
        raise ValueError(
            f"unknown Tetris brain {slug!r}; choose one of {sorted(BUILTINS)}"
        ) from None
    return cls(**kw)


def warmup(brain: str | None = None) -> float:
    """Compile (or load from numba's cache) what a Tetris Bench game and the brain `brain` run
    (every built-in brain when None); returns the seconds it took.

    A cold compile takes seconds, which a harness should not charge to the first move; only the
    game's kernels and the named brain's are compiled (not the envs', nor the other brains').
    """
    import time

    from arcade_gym.tetris.game import TetrisGame
    from arcade_gym.tetris.warmup import compile_game
    from policies.tetris.linear_kernels import warmup as warm_linear

    t0 = time.perf_counter()
    compile_game()
    plays = [cls for name, cls in BUILTINS.items() if name != "linear" and brain in (None, name)]
    if plays:
        question = TetrisGame("warmup").question()
        for cls in plays:
            cls().act(question, None)
    if brain in (None, "linear"):
        warm_linear()
    return time.perf_counter() - t0


POLICIES = (
    GamePolicies(
        "tetris",
        BUILTINS,
        prompt="policies.tetris.prompt:make_prompt",
        sb3="policies.tetris.sb3:ADAPTER",
        warmup="policies.tetris:warmup",
    ),
    GamePolicies(
        "tetris-primitive",
        CONTROLS_BUILTINS,
        prompt="policies.tetris.controls_prompt:make_prompt",
        prompt_game="tetris",
        sb3="policies.tetris.sb3:CONTROLS_ADAPTER",
        warmup="policies.tetris.controls:warmup",
    ),
)
"""Tetris Bench placements and NARCADE's primitive controls (`policies/game_policies.py`)."""

__all__ = [
    "BUILTINS",
    "POLICIES",
    "HeuristicBrain",
    "LinearBrain",
    "RandomBrain",
    "SearchBrain",
    "make_brain",
    "warmup",
]

"""The warmup registry: one call compiles (or loads from numba's cache) every game's kernels.

Games register a warmup by entry point (`"package.module:function"`, a function returning the
seconds it took), so this module imports no game; `warm_all()` imports and runs each registered
warmup once per process. Benchmarks call it before the first timed decision;
`python -m arcade_gym.core.build_cache` runs every warmup in processes of their own, so numba's
cache holds every kernel (`arcade_gym/core/build_cache.py`).
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable

_REGISTRY: dict[str, str] = {}
_DONE: dict[str, float] = {}


def register_warmup(game: str, entry_point: str) -> None:
    """Register `game`'s warmup, `"module:function"` (idempotent for the same entry point)."""
    if ":" not in entry_point:
        raise ValueError(f"warmup entry point must read 'module:function', got {entry_point!r}")
    known = _REGISTRY.get(game)
    if known is not None and known != entry_point:
        raise ValueError(f"game {game!r} already registers warmup {known!r}")
    _REGISTRY[game] = entry_point


def unregister_warmup(game: str) -> None:
    """Forget `game`'s warmup (a game removed again, e.g. a test's toy game)."""
    _REGISTRY.pop(game, None)
    _DONE.pop(game, None)


def registered_warmups() -> dict[str, str]:
    """Game -> warmup entry point, as registered."""
    return dict(_REGISTRY)


def _load(entry_point: str) -> Callable[[], object]:
    module, _, name = entry_point.partition(":")
    function: Callable[[], object] = getattr(importlib.import_module(module), name)
    return function


def warm(game: str) -> float:
    """Warm one registered game once per process; the seconds it took (0 when already warm)."""
    if game in _DONE:
        return 0.0
    if game not in _REGISTRY:
        raise KeyError(f"no warmup registered for {game!r}; known: {sorted(_REGISTRY)}")
    t0 = time.perf_counter()
    _load(_REGISTRY[game])()
    _DONE[game] = seconds = time.perf_counter() - t0
    return seconds


def warm_all() -> dict[str, float]:
    """Warm every registered game once per process; game -> seconds spent now (0 if warm)."""
    return {game: warm(game) for game in sorted(_REGISTRY)}

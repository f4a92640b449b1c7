"""Chess policies: the weak rungs of the ladder (`BUILTINS`); Stockfish rungs are UCI policies
(`policies/engines/uci.py`)."""

from __future__ import annotations

from collections.abc import Callable

from policies.chess.weak import WeakRung

BUILTINS: dict[str, Callable[..., WeakRung]] = {
    name: (lambda seed=0, _name=name: WeakRung(_name, seed))
    for name in ("random", "greedy", "material-2ply")
}
"""Weak rung name -> factory `(seed=0) -> policy`."""

__all__ = ["BUILTINS", "WeakRung"]

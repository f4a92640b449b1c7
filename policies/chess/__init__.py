"""Chess policies: the weak rungs of the ladder (`BUILTINS`); Stockfish rungs are UCI policies
(`policies/engines/uci.py`)."""

from __future__ import annotations

from collections.abc import Callable

from policies.chess.weak import WeakRung
from policies.game_policies import GamePolicies

BUILTINS: dict[str, Callable[..., WeakRung]] = {
    name: (lambda seed=0, _name=name: WeakRung(_name, seed))
    for name in ("random", "greedy", "material-2ply")
}
"""Weak rung name -> factory `(seed=0) -> policy`."""


def _uci_engine(body: str, options: object) -> object:
    from policies.engines.uci import make_uci_policy

    return make_uci_policy(body)


POLICIES = (
    GamePolicies(
        "chess",
        BUILTINS,
        prompt="policies.chess.prompt:make_prompt",
        sb3="policies.chess.sb3:ADAPTER",
        engines={"uci": _uci_engine},
    ),
)
"""What the policy grammar reads about chess (`policies/game_policies.py`)."""

__all__ = ["BUILTINS", "POLICIES", "WeakRung"]

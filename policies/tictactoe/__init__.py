"""Tic-tac-toe players: the arena's sparring partners (Random, Greedy, Tactician, Perfect)."""

from __future__ import annotations

from typing import Any

from policies.game_policies import GamePolicies
from policies.tictactoe.sparring import (
    GreedyPlayer,
    PerfectPlayer,
    RandomPlayer,
    SparringPlayer,
    TacticianPlayer,
)

BUILTINS: dict[
    str, type[RandomPlayer] | type[GreedyPlayer] | type[TacticianPlayer] | type[PerfectPlayer]
] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "tactician": TacticianPlayer,
    "perfect": PerfectPlayer,
}
"""Player slug -> class."""


def make_player(slug: str, seed: int = 0) -> SparringPlayer:
    """A sparring player by slug (`random`, `greedy`, `tactician`, `perfect`)."""
    try:
        cls = BUILTINS[slug]
    except KeyError:
        raise ValueError(
            f"unknown tic-tac-toe player {slug!r}; choose one of {list(BUILTINS)}"
        ) from None
    return cls(seed=seed)


POLICIES = (
    GamePolicies(
        "tictactoe",
        BUILTINS,
        prompt="policies.tictactoe.prompt:make_prompt",
        sb3="policies.tictactoe.sb3:ADAPTER",
        engines={
            "bf": lambda body, options: make_text_engine_policy("bf", body, options),
            "cmd": lambda body, options: make_text_engine_policy("cmd", body, options),
        },
        warmup="policies.engines.brainfuck.interpreter:warmup",  # the arena's `bf:` entries
    ),
)
"""What the policy grammar reads about tic-tac-toe (`policies/game_policies.py`)."""

__all__ = [
    "BUILTINS",
    "POLICIES",
    "GreedyPlayer",
    "PerfectPlayer",
    "RandomPlayer",
    "SparringPlayer",
    "TacticianPlayer",
    "make_player",
]


def make_text_engine_policy(kind: str, body: str, options: Any) -> Any:
    """A `bf:PATH` or `cmd:COMMAND` engine speaking the arena's text contract (the position on
    stdin, `row col` on stdout): the game-independent engines of `policies/engines/` bound to it
    by `policies/engines/arena.py`. A command's per-move limit is `options.timeout_ms`."""
    from pathlib import Path

    from policies.engines.arena import BrainfuckEngine, CommandEngine

    if kind == "bf":
        return BrainfuckEngine(Path(body))
    if kind == "cmd":
        return CommandEngine(body, timeout_ms=options.timeout_ms or 10_000.0)
    raise ValueError(f"{kind}: engines do not play tic-tac-toe")

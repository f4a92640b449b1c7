"""The tic-tac-toe built-ins a self-play pool can name (`arcade_gym/selfplay/`): the sparring
partners of `arcade_gym/tictactoe/sparring.py`, playing the side to move of a `tictactoe_v0` env."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arcade_gym.core.args import check_choice
from arcade_gym.tictactoe.rules import O, X
from arcade_gym.tictactoe.sparring import SPARRING


def builtin_opponent(env: Any, name: str, seed: int) -> Callable[[Any], int]:
    """The move rule of sparring partner `name` on `env` (a `tictactoe_v0` raw env), its
    tie-breaks seeded by `seed`; ValueError for an unknown name or `perfect` off 3x3."""
    check_choice("opponent", name, SPARRING)
    if name == "perfect" and env.size != 3:
        raise ValueError("the perfect opponent plays 3x3 only; use size=3 or 'tactician'")
    rule = SPARRING[name]

    def move(aec: Any) -> int:
        side = X if aec.agent_selection == aec.possible_agents[0] else O
        return rule(aec.board, side, seed)

    move.__name__ = name
    return move

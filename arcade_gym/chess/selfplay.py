"""The chess built-ins a self-play pool can name (`arcade_gym/selfplay/`): the weak ladder rungs
of `arcade_gym/chess/opponents.py`, playing the side to move of a `chess_v0` env."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arcade_gym.chess.encoding import move_to_action
from arcade_gym.chess.opponents import RULES, make_rule
from arcade_gym.core.args import check_choice


def builtin_opponent(env: Any, name: str, seed: int) -> Callable[[Any], int]:
    """The weak rung `name` on `env` (a `chess_v0` raw env), its tie-breaks seeded by `seed`;
    ValueError naming the rungs otherwise."""
    check_choice("opponent", name, RULES)
    rule = make_rule(name, seed)

    def move(aec: Any) -> int:
        board = aec.board
        return move_to_action(rule(board.copy(stack=False)), board.turn)

    move.__name__ = name
    return move

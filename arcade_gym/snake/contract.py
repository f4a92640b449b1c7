"""The question/answer contract of NARCADE Snake, and the answer validator.

A policy receives a `SnakeQuestion` and returns a `SnakeAnswer` naming one of the four absolute
directions. Python names are snake_case; the wire form (JSON) is camelCase like the other games'.
The four action names are listed in an order drawn from a hash of (game, seed, decision)
(`action_order`), as NARCADE requires: deterministic, so replays match, yet not always the same,
so a policy cannot win by always picking the first entry. `validate` never raises: a policy's junk
costs that policy a decision, never the harness its run.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Literal

from pydantic import ConfigDict

from arcade_gym.core.action_answer import (
    ActionVerdict,
    RejectError,
    action_value,
    brief,
    decode,
    never_raising,
)
from arcade_gym.core.seeding import splitmix64_py
from arcade_gym.core.wire import WIRE, WireModel
from arcade_gym.snake.rules import DIRECTION_NAMES, GAME, RULES_VERSION, Direction, opposite

Status = Literal["valid", "invalid"]


class Cell(WireModel):
    """A board cell; row 0 is the top row, col 0 the left column."""

    model_config = ConfigDict(**WIRE, frozen=True)

    row: int
    col: int


class SnakeQuestion(WireModel):
    """What a policy sees at one decision: the board, the snake head first, the food, and the
    four action names in this decision's presentation order."""

    game: Literal["snake"] = "snake"
    rules_version: str = RULES_VERSION
    difficulty: str
    decision: int
    state_hash: str
    rows: int
    cols: int
    tick_ms: int
    snake: list[Cell]
    heading: Direction
    food: Cell | None
    length: int
    score: int
    actions: list[Direction]


class SnakeAnswer(WireModel):
    """A policy's answer: one direction name."""

    model_config = ConfigDict(**WIRE, strict=True)

    action: Direction


def action_order(seed_u64: int, decision: int) -> list[Direction]:
    """The four direction names in the order decision `decision` of game seed `seed_u64` lists
    them: a Fisher-Yates permutation driven by blake2b("snake:<seed>:<decision>")."""
    key = f"{GAME}:{seed_u64}:{decision}".encode()
    state = int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big")
    names = list(DIRECTION_NAMES)
    for k in range(len(names) - 1, 0, -1):
        state, draw = splitmix64_py(state)
        j = draw % (k + 1)
        names[k], names[j] = names[j], names[k]
    return names


# --------------------------------------------------------------------------------------------
# The verdict
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict(ActionVerdict):
    """The harness's judgement of one answer: the direction to play, or why nothing is played."""

    @property
    def direction(self) -> int | None:
        """The direction index (`rules.UP` .. `rules.LEFT`) of a valid answer."""
        return None if self.action is None else DIRECTION_NAMES.index(self.action)


def _action_name(value: object, notes: list[str]) -> str:
    """The action named by `value`; case and surrounding blanks are forgiven with a note."""
    if not isinstance(value, str):
        raise RejectError(f"action must be a direction name, got {brief(value)}")
    name = value.strip().lower()
    if name != value and name in DIRECTION_NAMES:
        notes.append(f"action {brief(value)} read as {name!r}")
    return name


def _judge(answer: object, question: SnakeQuestion) -> Verdict:
    notes: list[str] = []
    raw = action_value(decode(answer, SnakeAnswer), notes, "an action name")
    name = _action_name(raw, notes)
    if name not in question.actions:
        raise RejectError(f"unknown action {brief(name)}; choose one of {question.actions}")
    if DIRECTION_NAMES.index(name) == opposite(DIRECTION_NAMES.index(question.heading)):
        notes.append(f"{name} reverses the heading; the snake keeps going {question.heading}")
    return Verdict("valid", notes=tuple(notes), action=name)


def validate(answer: object, question: SnakeQuestion) -> Verdict:
    """Judge `answer` (a SnakeAnswer, a dict, JSON text/bytes, or a bare action name such as
    "up") against `question`. Never raises; a reversal is valid (it keeps the heading)."""
    return never_raising(lambda: _judge(answer, question), lambda why: Verdict("invalid", why))

"""The question/answer contract of NARCADE Tetris with primitive controls, and its validator.

A policy receives a `TetrisControlQuestion` (the locked stack as `#`/`.` rows, the falling piece
and its cells, the preview, score, lines, level) and answers with one of the six controls:
`{"action": "rotate_cw"}`. Python names are snake_case; the wire form (JSON) is camelCase, as for
the other games. The controls are listed in an order drawn from a hash of (game, seed, decision)
(`control_order`), as the Snake and Minesweeper questions do: deterministic, so replays match,
yet varying, so "always pick the first entry" is not a strategy. `validate` never raises: a
policy's junk costs it a decision, never the harness its run.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Literal, cast

from pydantic import ConfigDict

from arcade_gym.core.action_answer import (
    ActionVerdict,
    RejectError,
    action_value,
    brief,
    decode,
    never_raising,
)
from arcade_gym.core.wire import WIRE, WireModel
from arcade_gym.tetris.contract import PieceLetter
from arcade_gym.tetris.rules import CLASSIC_RULES_VERSION, PIECE_LETTERS

GAME: Literal["tetris"] = "tetris"
RULES_VERSION = CLASSIC_RULES_VERSION
"""NARCADE rules version of the primitive-control game (classic scoring)."""

Control = Literal["left", "right", "rotate_cw", "rotate_ccw", "soft_drop", "hard_drop"]
CONTROLS: tuple[Control, Control, Control, Control, Control, Control] = (
    "left",
    "right",
    "rotate_cw",
    "rotate_ccw",
    "soft_drop",
    "hard_drop",
)
"""Control name by engine index (`engine.LEFT` .. `engine.HARD_DROP`)."""

Status = Literal["valid", "invalid"]

_MASK64 = (1 << 64) - 1


class PieceCell(WireModel):
    """One cell of the falling piece; row 0 is the top row (negative rows are above the board)."""

    model_config = ConfigDict(**WIRE, frozen=True)

    row: int
    col: int


class FallingPiece(WireModel):
    """The piece in play: its type, the top-left `(x, y)` of its bounding box, its rotation
    (0 spawn, 1 clockwise, 2, 3 counter-clockwise, SRS) and the four cells it covers."""

    type: PieceLetter
    x: int
    y: int
    rotation: int
    cells: list[PieceCell]


class TetrisControlQuestion(WireModel):
    """What a policy sees at one decision.

    `board` holds 20 rows of 10 characters, `#` a locked cell and `.` an empty one (the falling
    piece is not drawn: it is `piece`). `pieces` counts the pieces locked so far, so it also
    numbers the falling piece; realtime play discards an answer whose piece locked meanwhile.
    """

    game: Literal["tetris"] = GAME
    rules_version: str = RULES_VERSION
    difficulty: str
    decision: int
    state_hash: str
    board: list[str]
    piece: FallingPiece
    next: list[PieceLetter]
    score: int
    lines: int
    level: int
    pieces: int
    gravity_ms: int
    actions: list[Control]


class TetrisControlAnswer(WireModel):
    """A policy's answer: one control name."""

    model_config = ConfigDict(**WIRE, strict=True)

    action: Control


def answer_json_schema() -> dict[str, Any]:
    """JSON schema of the answer's wire form, for adapters and structured-output APIs."""
    return TetrisControlAnswer.model_json_schema(by_alias=True)


def _splitmix64(state: int) -> tuple[int, int]:
    """One step of splitmix64 on a Python int: (new state, output)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return state, z ^ (z >> 31)


def control_order(seed_u64: int, decision: int) -> list[Control]:
    """The six controls in the order decision `decision` of game seed `seed_u64` lists them: a
    Fisher-Yates permutation driven by blake2b("tetris:<seed>:<decision>")."""
    key = f"{GAME}:{seed_u64}:{decision}".encode()
    state = int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big")
    names = list(CONTROLS)
    for k in range(len(names) - 1, 0, -1):
        state, draw = _splitmix64(state)
        j = draw % (k + 1)
        names[k], names[j] = names[j], names[k]
    return names


def piece_letter(piece_type: int) -> PieceLetter:
    """The letter of an engine piece type (0..6 -> I J L O S T Z)."""
    return cast(PieceLetter, PIECE_LETTERS[piece_type])


# --------------------------------------------------------------------------------------------
# The verdict
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict(ActionVerdict):
    """The harness's judgement of one answer: the control to play, or why nothing is played."""

    @property
    def control(self) -> int | None:
        """The engine index (`engine.LEFT` .. `engine.HARD_DROP`) of a valid answer."""
        return None if self.action is None else CONTROLS.index(self.action)


def _control_name(value: object, notes: list[str]) -> str:
    """The control named by `value`; case, blanks and `-`/space for `_` are forgiven with a note."""
    if not isinstance(value, str):
        raise RejectError(f"action must be a control name, got {brief(value)}")
    if len(value) > 64:
        raise RejectError(f"action {brief(value)} is not a control name")
    name = "_".join(value.strip().lower().replace("-", " ").split())
    if name != value and name in CONTROLS:
        notes.append(f"action {brief(value)} read as {name!r}")
    return name


def _judge(answer: object, question: TetrisControlQuestion) -> Verdict:
    notes: list[str] = []
    raw = action_value(decode(answer, TetrisControlAnswer), notes, "a control name")
    name = _control_name(raw, notes)
    if name not in question.actions:
        raise RejectError(f"unknown control {brief(name)}; choose one of {question.actions}")
    return Verdict("valid", notes=tuple(notes), action=name)


def validate(answer: object, question: TetrisControlQuestion) -> Verdict:
    """Judge `answer` (a TetrisControlAnswer, a dict, JSON text/bytes, or a bare control name
    such as "left") against `question`. Never raises."""
    return never_raising(lambda: _judge(answer, question), lambda why: Verdict("invalid", why))

"""The question/answer contract of NARCADE Minesweeper, and the answer validator.

A policy receives a `MinesweeperQuestion` (the visible board twice, as text rows and as a number
grid, and every legal action as a string) and answers with one action string, e.g.
`{"action": "reveal 3 4"}`. Python names are snake_case; the wire form (JSON) is camelCase, as for
the other games. `validate` judges whatever came back against the question and never raises: a
policy's junk must cost that policy a decision, never crash the harness.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import ConfigDict

from arcade_gym.core.action_answer import ActionVerdict, RejectError, brief, never_raising
from arcade_gym.core.wire import WIRE, WireModel
from arcade_gym.minesweeper.rules import (
    ACTION_KINDS,
    FLAG,
    FLAG_CHAR,
    GAME,
    HIDDEN_CHAR,
    REVEAL,
    RULES_VERSION,
    ActionKind,
    action_index,
    action_text,
)

Status = Literal["valid", "invalid"]


class MinesweeperQuestion(WireModel):
    """What a policy sees at one decision.

    `board` rows use `#` hidden, `F` flagged, `0`-`8` revealed: the board in one form (observation
    protocol 2; `arcade_gym.minesweeper.render.board_view` decodes it into the env's numeric
    observation). `actions` lists every
    legal action (`"reveal r c"` on a hidden unflagged cell, `"flag r c"` toggling the flag of a
    hidden cell; rows and columns from 0) in an order shuffled per (game seed, decision).
    """

    game: Literal["minesweeper"] = GAME
    rules_version: str = RULES_VERSION
    difficulty: str
    state_hash: str
    decision: int
    rows: int
    cols: int
    mines: int
    flags: int
    revealed: int
    board: list[str]
    actions: list[str]


class MinesweeperAnswer(WireModel):
    """One action, spelled as listed in the question (`"reveal 3 4"` or `"flag 3 4"`)."""

    model_config = ConfigDict(**WIRE, strict=True)

    action: str


def answer_json_schema() -> dict[str, Any]:
    """JSON schema of the answer's wire form, for adapters and structured-output APIs."""
    return MinesweeperAnswer.model_json_schema(by_alias=True)


@dataclass(frozen=True)
class Verdict(ActionVerdict):
    """The judgement of one answer: the action to play (its text and env index), or why not."""

    index: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready record for the event log."""
        return {**super().to_dict(), "index": self.index}


# --------------------------------------------------------------------------------------------
# Parsing and validation
# --------------------------------------------------------------------------------------------

_ACTION_RE = re.compile(r"(reveal|flag)[\s(:,]+(\d{1,6})[\s,]+(\d{1,6})\s*\)?")
_MAX_TEXT = 200


def parse_action(text: str) -> tuple[ActionKind, int, int] | None:
    """`(kind, row, col)` of an action string, or None.

    Forgiving about case and spacing (`"Reveal  3 4"`), and about commas or brackets
    (`"reveal(3, 4)"`), since language models write those; the canonical form is `"reveal 3 4"`.
    """
    if not isinstance(text, str) or len(text) > _MAX_TEXT:
        return None
    match = _ACTION_RE.fullmatch(text.strip().lower())
    if match is None:
        return None
    kind: ActionKind = REVEAL if match.group(1) == REVEAL else FLAG
    return kind, int(match.group(2)), int(match.group(3))


def _from_mapping(obj: Mapping[Any, Any], notes: list[str]) -> str:
    if "action" not in obj:
        raise RejectError("action is missing (expected {'action': 'reveal 3 4'})")
    unknown = [key for key in obj if key != "action"]
    if unknown:
        notes.append("ignored unknown keys: " + ", ".join(brief(k) for k in unknown[:5]))
    action = obj["action"]
    if not isinstance(action, str):
        raise RejectError(f"action must be a string, got {type(action).__name__}")
    return action


def _action_text(answer: object, notes: list[str]) -> str:
    """The action string inside an answer model, a dict, JSON text, or a bare action string."""
    if isinstance(answer, MinesweeperAnswer):
        action = getattr(answer, "action", None)  # model_construct() may have left it out
        if not isinstance(action, str):
            raise RejectError(f"action must be a string, got {type(action).__name__}")
        return action
    if isinstance(answer, bytes | bytearray | memoryview):
        try:
            answer = bytes(answer).decode("utf-8")
        except UnicodeDecodeError:
            raise RejectError("answer is not valid UTF-8 text") from None
    if isinstance(answer, str):
        text = answer.strip()
        if not text.startswith(("{", '"')):
            return text
        try:
            answer = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise RejectError(f"answer is not valid JSON: {exc!s:.80}") from None
        if isinstance(answer, str):
            return answer
    if isinstance(answer, Mapping):
        return _from_mapping(answer, notes)
    raise RejectError(
        f"answer must be an action string or {{'action': ...}}, got {type(answer).__name__}"
    )


def _why_illegal(kind: str, row: int, col: int, question: MinesweeperQuestion) -> str:
    """A reason naming what is wrong with a well-formed action that is not listed."""
    text = action_text(kind, row, col)
    if not (0 <= row < question.rows and 0 <= col < question.cols):
        return f"{text!r}: cell ({row}, {col}) is off the {question.rows}x{question.cols} board"
    cell = question.board[row][col]
    if cell not in (HIDDEN_CHAR, FLAG_CHAR):
        return f"{text!r}: cell ({row}, {col}) is already revealed"
    if kind == REVEAL and cell == FLAG_CHAR:
        return f"{text!r}: cell ({row}, {col}) is flagged; unflag it first with 'flag {row} {col}'"
    return f"{text!r} is not a listed action"


def _judge(answer: object, question: MinesweeperQuestion) -> Verdict:
    notes: list[str] = []
    try:
        text = _action_text(answer, notes)
        parsed = parse_action(text)
        if parsed is None:
            raise RejectError(
                f"could not read an action from {brief(text)}; "
                f"write one of {', '.join(ACTION_KINDS)} then row and column, e.g. 'reveal 3 4'"
            )
        kind, row, col = parsed
        canonical = action_text(kind, row, col)
        if canonical not in set(question.actions):
            raise RejectError(_why_illegal(kind, row, col, question))
    except RejectError as reject:
        return Verdict("invalid", reject.reason, notes=tuple(notes))
    index = action_index(kind, row, col, question.rows, question.cols)
    return Verdict("valid", action=canonical, index=index, notes=tuple(notes))


def validate(answer: object, question: MinesweeperQuestion) -> Verdict:
    """Judge `answer` (a MinesweeperAnswer, a dict, JSON text/bytes, or a bare action string such
    as `"reveal 3 4"`) against `question`. Never raises."""
    return never_raising(lambda: _judge(answer, question), lambda why: Verdict("invalid", why))

"""Arena answers in the one JSON form they are recorded and judged in.

An answer is recorded, and judged, in one JSON form (`wire_answer`): an `EngineReply` keeps its
output, error and instruction count (not its wall time), a `TicTacToeAnswer` its row and column, a
`(row, col)` pair becomes a list, text stays text, and anything else is recorded as the reason it
is not a move. Live play judges that form and so does `arcade-eval verify`, so a recording replays
to exactly the judgements it was played with.
"""

from __future__ import annotations

from numbers import Integral
from typing import Any

from arcade_gym.tictactoe.contract import (
    AnswerCheck,
    EngineReply,
    TicTacToeAnswer,
    TicTacToeQuestion,
    check_answer,
)
from evaluation.core.episode import Judged
from evaluation.core.policy_call import CallOutcome
from policies.base import DecisionContext


def _is_pair(answer: object) -> bool:
    return (
        isinstance(answer, tuple | list)
        and len(answer) == 2
        and all(isinstance(v, Integral) and not isinstance(v, bool) for v in answer)
    )


def wire_answer(answer: object, question: TicTacToeQuestion) -> Any:
    """The JSON form an answer is recorded and judged in (see the module docstring)."""
    try:
        if isinstance(answer, EngineReply):
            return {
                "output": str(answer.output),
                "error": None if answer.error is None else str(answer.error),
                "instructions": None if answer.instructions is None else int(answer.instructions),
            }
        if isinstance(answer, TicTacToeAnswer):
            return {"row": int(answer.row), "col": int(answer.col)}
        if isinstance(answer, str):
            return str.__str__(answer)
        if _is_pair(answer):
            assert isinstance(answer, tuple | list)
            return [int(answer[0]), int(answer[1])]
        reason = check_answer(question, answer).reason
    except Exception as exc:  # a hostile answer object (e.g. a raising __repr__)
        reason = f"unreadable answer: {type(exc).__name__}"
    return {"unreadable": reason or "not a move"}


def read_answer(question: TicTacToeQuestion, answer: Any) -> AnswerCheck:
    """Judge an answer in its recorded form (`wire_answer`); never raises."""
    try:
        if isinstance(answer, dict):
            if "unreadable" in answer:
                return AnswerCheck(reason=str(answer["unreadable"]))
            if "output" in answer:
                return check_answer(question, EngineReply.model_validate(answer))
            if "row" in answer:
                return check_answer(question, TicTacToeAnswer.model_validate(answer))
        return check_answer(question, answer)
    except Exception as exc:
        return AnswerCheck(reason=f"unreadable answer: {type(exc).__name__}")


def judge_call(call: CallOutcome, question: TicTacToeQuestion) -> Judged:
    """`valid` for a legal move; `invalid`, `timeout` or `error` (all illegal moves) otherwise."""
    if call.status != "ok":
        check = AnswerCheck(reason=f"{call.status}: {call.error}")
        return Judged("timeout" if call.status == "timeout" else "error", check, check.reason)
    check = read_answer(question, call.answer)
    return Judged("valid" if check.legal else "invalid", check, check.reason)


def move_fields(check: AnswerCheck) -> dict[str, Any]:
    """The judged move as decision fields."""
    return {
        "move": None if check.move is None else list(check.move),
        "illegal": None if check.legal else (check.reason or "no move"),
        "instructions": check.instructions,
    }


class WireAnswers:
    """A policy whose answers come in their recorded form (what `verify` compares with)."""

    def __init__(self, policy: Any) -> None:
        self.policy = policy

    def act(self, question: TicTacToeQuestion, ctx: DecisionContext) -> Any:
        return wire_answer(self.policy.act(question, ctx), question)

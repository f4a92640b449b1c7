"""The engine contract of the tic-tac-toe arena: the position as text in, `row col` out."""

from __future__ import annotations

import re
from numbers import Integral
from typing import Literal

from pydantic import BaseModel, ConfigDict

Mark = Literal["X", "O"]

_MOVE = re.compile(r"^\s*(-?\d+)\s+(-?\d+)\s*$")


class TicTacToeQuestion(BaseModel):
    """A position to move in: board size, line length, side to move, rows of X / O / `.`."""

    model_config = ConfigDict(frozen=True)

    size: int
    k: int
    to_move: Mark
    rows: tuple[str, ...]

    def to_text(self) -> str:
        """The stdin format engines read: size, side to move, then the rows."""
        return f"{self.size}\n{self.to_move}\n" + "\n".join(self.rows) + "\n"


class EngineReply(BaseModel):
    """What an engine process (Brainfuck, external command) produced for one move.

    `output` is its raw text; `error` names a failure exactly (syntax error, tape overflow,
    instruction limit, output limit, crash, timeout) and makes the move illegal; `instructions`
    counts executed Brainfuck instructions, `elapsed_ms` the wall time.
    """

    output: str = ""
    error: str | None = None
    instructions: int | None = None
    elapsed_ms: float | None = None


def parse_move(text: str) -> tuple[int, int] | None:
    """`"0 1"` -> (0, 1); anything else (extra tokens, non-numbers) -> None. Bounds are the
    arena's business."""
    match = _MOVE.match(text)
    if match is None:
        return None
    return int(match.group(1)), int(match.group(2))


class TicTacToeAnswer(BaseModel):
    """A move as a model (what Python policies return): zero-indexed row and column."""

    model_config = ConfigDict(frozen=True)

    row: int
    col: int

    def to_text(self) -> str:
        """The engine output for this move, `"row col"`."""
        return f"{self.row} {self.col}"


class AnswerCheck(BaseModel):
    """An answer judged against its question: the move, or why it is illegal.

    `instructions` / `elapsed_ms` are copied from an `EngineReply` when there is one.
    """

    move: tuple[int, int] | None = None
    reason: str | None = None
    instructions: int | None = None
    elapsed_ms: float | None = None

    @property
    def legal(self) -> bool:
        """Whether the answer is a legal move."""
        return self.move is not None and self.reason is None


_SHOWN = 40


def _shown(text: str) -> str:
    return repr(text if len(text) <= _SHOWN else text[:_SHOWN] + "...")


def check_answer(question: TicTacToeQuestion, answer: object) -> AnswerCheck:
    """Judge an answer: an `EngineReply` (its `error`, else its `output`), `"row col"` text, a
    `TicTacToeAnswer` or a `(row, col)` pair. Illegal: an engine error, unparseable output, an
    off-board or occupied square, anything else."""
    instructions: int | None = None
    elapsed: float | None = None
    move: tuple[int, int] | None = None
    if isinstance(answer, EngineReply):
        instructions, elapsed = answer.instructions, answer.elapsed_ms
        if answer.error is not None:
            return AnswerCheck(
                reason=f"engine error: {answer.error}",
                instructions=instructions,
                elapsed_ms=elapsed,
            )
        answer = answer.output
    if isinstance(answer, TicTacToeAnswer):
        move = (answer.row, answer.col)
    elif isinstance(answer, str):
        move = parse_move(answer)
        if move is None:
            return AnswerCheck(
                reason=f"unparseable output {_shown(answer)}",
                instructions=instructions,
                elapsed_ms=elapsed,
            )
    elif (
        isinstance(answer, tuple | list)
        and len(answer) == 2
        and all(isinstance(v, Integral) and not isinstance(v, bool) for v in answer)
    ):
        move = (int(answer[0]), int(answer[1]))
    else:
        return AnswerCheck(reason=f"not a move: {_shown(repr(answer))}")
    row, col = move
    if not (0 <= row < question.size and 0 <= col < question.size):
        reason = f"off-board square {row} {col}"
    elif question.rows[row][col] != ".":
        reason = f"occupied square {row} {col}"
    else:
        reason = None
    return AnswerCheck(move=move, reason=reason, instructions=instructions, elapsed_ms=elapsed)

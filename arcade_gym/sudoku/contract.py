"""The question/answer contract of the Sudoku benchmark, and the answer reader.

A policy gets a `SudokuQuestion` (the grid once, as nine rows with `.` for blanks, and the same
grid as 81 digits) and answers with the whole grid plus a confidence from 0 to 100:
`{"grid": ["534678912", ...], "confidence": 90}` (the grid may also be one 81-character string or
nine lists of numbers). `validate` reads whatever came back and never raises: an answer with no
readable grid is `invalid` (the benchmark's one retry is for that case); anything with a grid is
`valid` and is then graded cell by cell (`evaluation/benchmarks/sudoku/scoring.py`). Blank or
unreadable cells in a readable grid stay blank (`0`).
"""

from __future__ import annotations

import contextlib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field

from arcade_gym.core.action_answer import ActionVerdict, RejectError, brief, never_raising
from arcade_gym.core.wire import WireModel
from arcade_gym.sudoku.rules import CELLS, GAME, GRADER_VERSION, SET_VERSION

_BLANKS = frozenset(".0_-*?xX")
_MAX_TEXT = 20_000


class SudokuQuestion(WireModel):
    """One grid to solve: `rows` are nine strings of digits and `.`; `puzzle` is the same grid as
    81 digits with `0` for blanks."""

    game: Literal["sudoku"] = GAME
    set_version: str = SET_VERSION
    grader_version: str = GRADER_VERSION
    grid_id: str
    rows: list[str]
    puzzle: str

    @classmethod
    def from_puzzle(
        cls, puzzle: str, grid_id: str, set_version: str = SET_VERSION
    ) -> SudokuQuestion:
        """The question for an 81-character puzzle (`0` or `.` for blanks)."""
        text = puzzle.replace(".", "0")
        rows = [text[r * 9 : r * 9 + 9].replace("0", ".") for r in range(9)]
        return cls(grid_id=grid_id, rows=rows, puzzle=text, set_version=set_version)


class SudokuAnswer(WireModel):
    """The whole grid (nine rows of digits, `.` or `0` for cells left empty) and a confidence."""

    grid: list[str]
    confidence: float = Field(ge=0, le=100)


@dataclass(frozen=True)
class SudokuVerdict(ActionVerdict):
    """What was read from an answer: the grid (81 digits, `0` for empty) and the confidence, or
    why there is no readable grid (`action` stays None: a Sudoku answer is one whole grid)."""

    grid: str | None = None
    confidence: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready record for the event log."""
        return {**super().to_dict(), "grid": self.grid, "confidence": self.confidence}


def _row_digits(row: Any) -> str | None:
    """Nine cells of one row as digits (`0` for blanks), or None when it is not a row."""
    if isinstance(row, str):
        cells = [ch for ch in row if ch.isdigit() or ch in _BLANKS]
        if len(cells) != 9:
            return None
        return "".join(ch if ch.isdigit() else "0" for ch in cells)
    if isinstance(row, Sequence) and len(row) == 9:
        out = []
        for v in row:
            if isinstance(v, bool):
                return None
            if isinstance(v, int) and 0 <= v <= 9:
                out.append(str(v))
            elif v is None or (isinstance(v, str) and len(v.strip()) <= 1):
                s = (v or "").strip()
                out.append(s if s.isdigit() else "0")
            else:
                return None
        return "".join(out)
    return None


def read_grid(value: Any) -> str | None:
    """81 digits (`0` for empty cells) from nine rows, one 81-cell string (separators such as
    `|`, spaces and newlines ignored) or nine lists of numbers; None when no grid is there."""
    if isinstance(value, str):
        if len(value) > _MAX_TEXT:
            return None
        cells = [ch for ch in value if ch.isdigit() or ch in _BLANKS]
        if len(cells) == CELLS:
            return "".join(ch if ch.isdigit() else "0" for ch in cells)
        lines = [line for line in value.splitlines() if line.strip()]
        if len(lines) == 9:
            return read_grid(lines)
        return None
    if isinstance(value, Sequence) and len(value) == 9:
        rows = [_row_digits(row) for row in value]
        if all(r is not None for r in rows):
            return "".join(r for r in rows if r is not None)
    if isinstance(value, Sequence) and len(value) == CELLS:
        return read_grid([list(value[r * 9 : r * 9 + 9]) for r in range(9)])
    return None


def read_confidence(value: Any, notes: list[str]) -> float | None:
    """A confidence in 0..100 (a fraction in [0, 1] given as `0.9` is read as 90, with a note;
    `"90%"` is accepted); None with a note when missing or unreadable."""
    if isinstance(value, str):
        text = value.strip().rstrip("%").strip()
        try:
            value = float(text)
        except ValueError:
            notes.append(f"confidence {brief(value)} is not a number")
            return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        notes.append(
            "confidence missing" if value is None else f"confidence {brief(value)} dropped"
        )
        return None
    number = float(value)
    if not math.isfinite(number) or not 0 <= number <= 100:
        notes.append(f"confidence {brief(value)} outside 0..100")
        return None
    if 0 < number < 1:
        notes.append(f"confidence {number} read as a fraction: {number * 100:g}")
        number *= 100
    return number


def _judge(answer: object) -> SudokuVerdict:
    notes: list[str] = []
    if isinstance(answer, SudokuAnswer):
        answer = {"grid": answer.grid, "confidence": answer.confidence}
    if isinstance(answer, bytes | bytearray):
        try:
            answer = bytes(answer).decode("utf-8")
        except UnicodeDecodeError:
            raise RejectError("answer is not valid UTF-8 text") from None
    if isinstance(answer, str) and answer.strip()[:1] == "{":
        with contextlib.suppress(ValueError, RecursionError):
            answer = json.loads(answer)
    confidence: float | None = None
    if isinstance(answer, Mapping):
        if "grid" not in answer:
            raise RejectError(f"grid is missing (keys: {brief(list(answer)[:8])})")
        confidence = read_confidence(answer.get("confidence"), notes)
        answer = answer["grid"]
    else:
        notes.append("confidence missing")
    grid = read_grid(answer)
    if grid is None:
        raise RejectError(f"no readable 9x9 grid in {brief(answer)}")
    return SudokuVerdict("valid", notes=tuple(notes), grid=grid, confidence=confidence)


def validate(answer: object) -> SudokuVerdict:
    """Read an answer (model, mapping, JSON text, bare grid); never raises."""
    return never_raising(
        lambda: _judge(answer), lambda reason: SudokuVerdict("invalid", reason=reason)
    )

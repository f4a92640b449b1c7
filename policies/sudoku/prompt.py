"""The Sudoku prompt: the grid once, as nine rows, and the reply format (the whole grid and a
confidence from 0 to 100); and `parse_reply`, which reads any reply and never raises.

The reply is read, most likely first, from: a JSON object with `grid` (nine row strings, one
81-character string or nine lists of numbers) and `confidence` (anywhere in the reply: alone, in a
code fence or in prose; sloppy JSON tolerated, see `policies/llm/prompts/json_reply.py`); else
the last block of nine lines of nine cells in the text, with a `confidence: N` line if there is
one. A reply with no readable grid is `readable=False` (the benchmark's one retry).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from arcade_gym.sudoku.contract import SudokuQuestion, read_confidence, read_grid
from policies.llm.prompts.base import Probe, Reading
from policies.llm.prompts.json_reply import ReplyParseError, find_object, reply_text
from policies.llm.telemetry import LLMCall

PROMPT_VERSION = "sudoku-1"

SYSTEM = (
    "You are solving a Sudoku puzzle. Fill the 9x9 grid so that every row, every column and "
    "every 3x3 box contains each digit 1 to 9 exactly once. The given digits must stay as they "
    "are. You get the grid once; there are no hints and no second attempt at a wrong answer."
)

REPLY_INSTRUCTION = (
    "Reply with one JSON object and nothing after it: "
    '{"grid": ["<row 1: nine digits>", ..., "<row 9: nine digits>"], "confidence": N}, where '
    "grid is the complete solved grid as nine strings of nine digits (write . for a cell you "
    "leave empty) and confidence (0 to 100) is how sure you are that the whole grid is correct."
)


def render_question(question: SudokuQuestion) -> str:
    """The grid as nine rows of digits with `.` for blanks, one row a line."""
    return "Puzzle (. = empty cell):\n" + "\n".join(question.rows)


def build_messages(question: SudokuQuestion) -> list[dict[str, str]]:
    """The chat messages for one grid (a pure function of the question)."""
    return [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": render_question(question) + "\n\n" + REPLY_INSTRUCTION},
    ]


def reply_schema() -> dict[str, Any]:
    """JSON schema of the reply, for models that support structured output."""
    row = {"type": "string", "pattern": "^[1-9.]{9}$"}
    return {
        "type": "object",
        "properties": {
            "grid": {"type": "array", "items": row, "minItems": 9, "maxItems": 9},
            "confidence": {"type": "number", "minimum": 0, "maximum": 100},
        },
        "required": ["grid", "confidence"],
        "additionalProperties": False,
    }


def response_format() -> dict[str, Any]:
    """The `response_format` field of a chat request with the reply schema."""
    return {
        "type": "json_schema",
        "json_schema": {"name": "sudoku_answer", "strict": True, "schema": reply_schema()},
    }


@dataclass(frozen=True)
class SudokuReply:
    """What a reply said: the grid (81 digits, `0` for empty) and confidence, or why nothing."""

    readable: bool
    grid: str | None = None
    confidence: float | None = None
    error: str | None = None
    notes: tuple[str, ...] = ()

    def answer(self) -> dict[str, Any] | None:
        """The answer in the contract's shape (None when unreadable)."""
        if not self.readable or self.grid is None:
            return None
        rows = [self.grid[r * 9 : r * 9 + 9] for r in range(9)]
        return {"grid": rows, "confidence": self.confidence}


_CELL_LINE = re.compile(r"^[\s|+\-]*((?:[0-9._*xX?][\s|]*){9})[\s|+\-]*$")
_CONFIDENCE = re.compile(r"confidence\W{0,5}(\d{1,3}(?:\.\d+)?)\s*%?", re.IGNORECASE)


def _grid_in_text(text: str) -> str | None:
    """The last run of nine consecutive grid lines (separator lines such as `---+---` skipped)."""
    rows: list[str] = []
    best: list[str] | None = None
    for line in text.splitlines():
        stripped = line.strip().strip("`")
        if not stripped or set(stripped) <= set("-+=| "):
            continue
        match = _CELL_LINE.match(stripped)
        if match:
            rows.append(re.sub(r"[\s|]", "", match.group(1)))
            if len(rows) >= 9:
                best = rows[-9:]
        else:
            rows = []
    return None if best is None else read_grid(best)


def parse_reply(text: str | None, refusal: str | None = None) -> SudokuReply:
    """Read a model's reply; never raises (an unreadable reply says why in `error`)."""
    try:
        body = reply_text(text, refusal)
        found, _ = find_object(body, ("grid",))
        notes: list[str] = []
        if found is not None:
            notes.extend(found.notes)
            grid = read_grid(found.fields["grid"])
            if grid is not None:
                confidence = read_confidence(found.fields.get("confidence"), notes)
                return SudokuReply(True, grid, confidence, notes=tuple(notes))
            notes.append("the JSON grid was not a 9x9 grid")
        grid = _grid_in_text(body)
        if grid is None:
            return SudokuReply(False, error="no readable 9x9 grid in the reply", notes=tuple(notes))
        notes.append("grid read from the reply's text")
        match = _CONFIDENCE.search(body)
        confidence = read_confidence(match.group(1) if match else None, notes)
        return SudokuReply(True, grid, confidence, notes=tuple(notes))
    except ReplyParseError as exc:
        return SudokuReply(False, error=str(exc))
    except Exception as exc:  # a reply must never crash a run
        return SudokuReply(False, error=f"reply could not be read: {type(exc).__name__}")


# --------------------------------------------------------------------------------------------
# The prompt module (the chat-policy base, `policies/llm/chat_policy.py`, makes the calls)
# --------------------------------------------------------------------------------------------

ADAPTER_VERSION = "llm-sudoku/1"
"""The adapter's version in logs; bumped with any change to the prompt or the reply handling."""

_PROBE_GRID = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def _check_probe(text: str | None, refusal: str | None) -> SudokuReply:
    reply = parse_reply(text, refusal)
    if not reply.readable:
        raise ReplyParseError(reply.error or "no readable grid")
    return reply


class SudokuPrompt:
    """Sudoku grids: answer `{"grid": [nine rows], "confidence": N}` (schema where supported)."""

    game = "sudoku"
    benchmark = "sudoku"
    reply_tokens = 400  # nine rows of nine digits and a confidence, as JSON
    prompt_version = PROMPT_VERSION
    adapter_version = ADAPTER_VERSION

    def description(self, model: str) -> str:
        return f"{model} solving Sudoku grids"

    def keys(self, question: SudokuQuestion) -> tuple[str | None, int | None]:
        return question.grid_id, None

    def messages(self, question: SudokuQuestion) -> list[dict[str, str]]:
        return build_messages(question)

    def response_format(self, question: SudokuQuestion) -> dict[str, Any]:
        return response_format()

    def read(self, text: str | None, refusal: str | None, question: SudokuQuestion) -> Reading:
        reply = parse_reply(text, refusal)
        if not reply.readable or reply.grid is None:
            raise ReplyParseError(reply.error or "no readable grid")
        filled = sum(ch != "0" for ch in reply.grid)
        return Reading(f"grid with {filled} cells filled", reply, reply.notes)

    def answer(self, question: SudokuQuestion, reading: Reading, call: LLMCall) -> dict[str, Any]:
        reply: SudokuReply = reading.value
        return reply.answer() or {"unreadable": "no readable grid"}

    def unreadable(self, question: SudokuQuestion, call: LLMCall) -> dict[str, Any]:
        """No grid: the benchmark's one retry is for this answer."""
        return {"unreadable": f"unreadable reply: {call.parse_error}"}

    def probe(self) -> Probe:
        rows = [_PROBE_GRID[r * 9 : r * 9 + 9] for r in range(9)]
        return Probe(
            messages=[
                {"role": "system", "content": "You answer with one JSON object and nothing else."},
                {
                    "role": "user",
                    "content": "Connection test. Reply with exactly this JSON object: "
                    + json.dumps({"grid": rows, "confidence": 100}),
                },
            ],
            response_format=response_format(),
            check=_check_probe,
        )


PROMPT = SudokuPrompt()


def make_prompt(game: str = "sudoku") -> SudokuPrompt:
    """The Sudoku prompt module."""
    return PROMPT

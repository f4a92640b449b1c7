"""The tic-tac-toe arena's prompt module: a chat model plays the engine contract of seed 003.

The model reads what a Brainfuck engine reads, the position as `question.to_text()` (size, side
to move, the rows), under a short fixed system prompt explaining the board and the line length
for each size, and answers `<move>row col</move>`. A tag is asked for, rather than the engine's
bare `row col`, because models wrap answers in prose; the tag makes the answer findable and the
parse unambiguous (the last readable tag wins; a reply, or last line, that is a bare `row col` is
accepted too).

A readable move becomes a `TicTacToeAnswer` and the arena judges it (an occupied or off-board
square is the engine's illegal move). An unreadable reply becomes an `EngineReply` whose `error`
says why and whose `output` keeps the raw text, so the arena records an illegal move with the
reason. Calls, failures, costs and telemetry are the chat-policy base's
(`policies/llm/chat_policy.py`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from arcade_gym.tictactoe.contract import EngineReply, TicTacToeAnswer, TicTacToeQuestion
from arcade_gym.tictactoe.rules import K_FOR_SIZE
from policies.llm.prompts.base import Probe, Reading
from policies.llm.prompts.json_reply import ReplyParseError, reply_text
from policies.llm.telemetry import LLMCall

ADAPTER_VERSION = "llm-ttt/1"
"""The adapter's version in logs; bumped with any change to the prompt or the reply handling."""

PROMPT_VERSION = "ttt-llm-prompt/1"

_SIZES = ", ".join(f"{n}x{n} needs {k} in a row" for n, k in sorted(K_FOR_SIZE.items()))

SYSTEM_PROMPT = f"""\
You are playing k-in-a-row tic-tac-toe on an N x N board. X always moves first, then the \
players alternate, each putting one mark on any empty square (there is no gravity). The first \
player to get k of their marks in an unbroken line, horizontally, vertically or diagonally, \
wins: {_SIZES}.

The position comes as text: the board size N on the first line, the player to move (X or O) on \
the second, then N lines, one per board row from the top, with X, O or . (empty) for each \
square. Rows and columns are numbered from 0: row 0 is the top row, column 0 the left column.

Choose the best move for the player to move: win at once if you can, otherwise stop the \
opponent's immediate win, otherwise build threats of your own.

Answer with the row and column of an empty square in a move tag and nothing else, for example \
<move>0 1</move> for row 0, column 1."""


def reply_instruction(question: TicTacToeQuestion) -> str:
    """The line after the position: the line length of this size and the reply format."""
    return f"{question.k} in a row wins. Reply with <move>row col</move>."


def render_question(question: TicTacToeQuestion) -> str:
    """The user message: the seed's position text, then the reply instruction."""
    return question.to_text() + "\n" + reply_instruction(question)


def build_messages(question: TicTacToeQuestion) -> list[dict[str, str]]:
    """The chat messages for `question`: the fixed system prompt, then the position."""
    return [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": render_question(question)},
    ]


# --------------------------------------------------------------------------------------------
# Reading the reply
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MoveReply:
    """A parsed move (not yet judged: bounds and occupancy are the arena's business)."""

    row: int
    col: int
    notes: tuple[str, ...] = field(default=())


_TAG = re.compile(r"<\s*move\s*>(.*?)<\s*/\s*move\s*>", re.IGNORECASE | re.DOTALL)
_OPEN_AT_END = re.compile(r"<\s*move\s*>([^<]*)(?:<[^>]*)?$", re.IGNORECASE)
_PAIR = re.compile(r"[(\[]?\s*(-?\d{1,6})\s*(?:,\s*|\s+)(-?\d{1,6})\s*[)\]]?")
_WORDS = re.compile(r"\b(?:row|col|column|r|c)\b\s*[:=]?", re.IGNORECASE)
_DECOR = re.compile(r"[`*\"']")
_LABEL = re.compile(r"^\s*(?:final\s+)?(?:answer|move)\s*[:=-]\s*", re.IGNORECASE)


def _pair(text: str) -> tuple[int, int] | None:
    """`"1 2"`, `"1,2"`, `"(1, 2)"`, `"row 1 col 2"`, `"row=1, col=2"` -> (1, 2)."""
    body = _WORDS.sub(" ", _DECOR.sub("", text)).strip().rstrip(".!").strip()
    match = _PAIR.fullmatch(body)
    return None if match is None else (int(match.group(1)), int(match.group(2)))


def parse_move_reply(text: str | None, *, refusal: str | None = None) -> MoveReply:
    """Read a model's move; ReplyParseError when there is none.

    The last `<move>...</move>` whose body is a row and a column wins (earlier ones are drafts
    or thinking); a final tag cut off before `</move>` counts too. Without a readable tag, a
    reply (or a last line, maybe labelled `Answer:`) that is nothing but `row col` is accepted.
    """
    text = reply_text(text, refusal)
    tags = _TAG.findall(text)
    for position, body in enumerate(reversed(tags)):
        move = _pair(body)
        if move is not None:
            notes = ("a later <move> tag was unreadable",) if position else ()
            return MoveReply(*move, notes=notes)
    tail = text[text.rfind("</") :] if tags else text
    cut = _OPEN_AT_END.search(tail)
    if cut is not None and (move := _pair(cut.group(1))) is not None:
        return MoveReply(*move, notes=("the last <move> tag was not closed",))
    whole = _pair(text)
    if whole is not None:
        return MoveReply(*whole, notes=("reply was a bare row col",))
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) > 1 and (last := _pair(_LABEL.sub("", lines[-1]))) is not None:
        return MoveReply(*last, notes=("last line was a bare row col",))
    if tags:
        raise ReplyParseError(f"no row and column in the <move> tag {tags[-1].strip()!r:.40}")
    raise ReplyParseError("no <move>row col</move> in the reply")


# --------------------------------------------------------------------------------------------
# The prompt module
# --------------------------------------------------------------------------------------------


class TicTacToePrompt:
    """k-in-a-row positions: answer `<move>row col</move>` (a tag, not JSON: no schema)."""

    game = "tictactoe"
    benchmark = "ttt-arena"
    reply_tokens = 80  # one move in a tag
    prompt_version = PROMPT_VERSION
    adapter_version = ADAPTER_VERSION

    def description(self, model: str) -> str:
        return f"{model} answering tic-tac-toe positions"

    def keys(self, question: TicTacToeQuestion) -> tuple[str | None, int | None]:
        return None, None

    def messages(self, question: TicTacToeQuestion) -> list[dict[str, str]]:
        return build_messages(question)

    def response_format(self, question: TicTacToeQuestion) -> None:
        return None

    def read(self, text: str | None, refusal: str | None, question: TicTacToeQuestion) -> Reading:
        move = parse_move_reply(text, refusal=refusal)
        return Reading(f"{move.row} {move.col}", move, move.notes)

    def answer(
        self, question: TicTacToeQuestion, reading: Reading, call: LLMCall
    ) -> TicTacToeAnswer:
        move: MoveReply = reading.value
        return TicTacToeAnswer(row=move.row, col=move.col)

    def unreadable(self, question: TicTacToeQuestion, call: LLMCall) -> EngineReply:
        """An engine error keeping the raw text: the arena records an illegal move with why."""
        return EngineReply(
            output=call.raw,
            error=f"unreadable reply: {call.parse_error}",
            elapsed_ms=call.latency_ms,
        )

    def probe(self) -> Probe:
        return Probe(
            messages=[
                {"role": "system", "content": "You answer with a move tag and nothing else."},
                {"role": "user", "content": "Connection test. Reply with <move>0 1</move> only."},
            ],
            response_format=None,
            check=lambda text, refusal: parse_move_reply(text, refusal=refusal),
        )


PROMPT = TicTacToePrompt()


def make_prompt(game: str = "tictactoe") -> TicTacToePrompt:
    """The tic-tac-toe prompt module."""
    return PROMPT

"""What a language model sees of a Tetris Bench question, and how its reply is read back.

The prompt is the seed's "What a hosted model sees": a fixed system prompt, then the question as
text (header line, the board as rows of # and ., one line per candidate). Candidates keep the
harness's order (already shuffled from the state hash) and get two random letters as ids, drawn
from a PRNG seeded by the state hash alone, so neither the order nor the ids say anything about
which placement is good. Rendering is a pure function of the question: the same question gives a
byte-identical prompt, so a run is reproducible and a provider's prompt cache can work.

Models that support it get their reply constrained by a JSON schema over those ids; the others
get the JSON-only instruction and `parse_reply`, which digs the object out of prose, code fences
or Python-style quoting, and refuses (ReplyParseError) anything it cannot read unambiguously.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from arcade_gym.tetris.contract import (
    AgentAnswer,
    AgentInput,
    Candidate,
    ChoiceEntry,
    Noul,
    ScoreField,
)
from policies.llm.prompts.base import Probe, Reading
from policies.llm.prompts.json_reply import (
    ReplyParseError,
    find_object,
    reply_text,
    schema_format,
    shown,
)
from policies.llm.telemetry import LLMCall

PROMPT_VERSION = "tetris-llm-prompt/1"
"""Bumped whenever the system prompt or the rendering changes (results are not comparable)."""

SYSTEM_PROMPT = """\
You are playing Tetris under the tetris-bench@3 rules: a board of 10 columns (0 at the left) and \
20 rows (0 at the top, 19 at the bottom), seven-bag pieces, one hold slot.

Each turn you get:
- a header: the piece in play, the next five pieces, the hold slot, level, score, cleared lines, \
pieces placed, combo and back-to-back status;
- the board, one text row per board row, # for a filled cell and . for an empty one, with the row \
number on the left and a column ruler underneath; rows above the ones shown are empty;
- the column heights, the number of holes (empty cells with a filled cell above them) and the \
tallest column;
- every legal placement of the piece in play, already simulated: one line per candidate with its \
two-letter ID, the column x and rotation it is dropped with, the lines it clears, the points \
from clearing (clear) and from the hard drop (drop), and the board it leaves behind: maxH \
(tallest column), holes, bump (sum of height differences between neighbouring columns), wells, \
and topOut (yes means the game ends).

The candidates are listed in random order and their IDs are random letters: neither carries any \
meaning. Judge each one by its numbers.

Play for a long game and a high score: keep the stack low, flat and free of holes, and clear \
lines; clearing several lines at once is worth far more than clearing them one at a time. Never \
pick a candidate with topOut=yes if another exists. Set "hold" to true to put the piece in play \
into the hold slot instead of placing it (only possible when canHold=true; the candidate is then \
not played). Set "risk" to your probability, from 0 to 1, that the game ends within the next \
ten pieces.

Answer with one JSON object and nothing else, no explanation and no code fence:
{"candidate": "<ID>", "hold": false, "risk": 0.1}"""

REPLY_INSTRUCTION = 'Reply with JSON only: {"candidate":"<ID>","hold":false,"risk":0.1}'

SCHEMA_NAME = "tetris_move"

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_MAX_IDS = len(_LETTERS) ** 2
_ID_SALT = b"arcade-gym/llm-candidate-ids/1\x00"
_MASK64 = (1 << 64) - 1


# --------------------------------------------------------------------------------------------
# Candidate ids
# --------------------------------------------------------------------------------------------


def _splitmix64(state: int) -> tuple[int, int]:
    """One step of SplitMix64: (new state, output). Spelled out so ids never depend on the
    PRNG of a Python or numpy version."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return state, z ^ (z >> 31)


def candidate_ids(state_hash: str, n: int) -> list[str]:
    """`n` distinct two-uppercase-letter ids drawn from a PRNG seeded by `state_hash` alone.

    They depend on nothing but the hash and the count, so they cannot encode a candidate's
    position or quality; a new position (a new hash) gets new ids.
    """
    if not 0 <= n <= _MAX_IDS:
        raise ValueError(f"n must be between 0 and {_MAX_IDS}, got {n}")
    digest = hashlib.blake2b(_ID_SALT + state_hash.encode("utf-8"), digest_size=8).digest()
    state = int.from_bytes(digest, "big")
    ids: list[str] = []
    seen: set[str] = set()
    while len(ids) < n:
        state, value = _splitmix64(state)
        index = value % _MAX_IDS  # 2**64 % 676 is tiny: the bias is ~1e-17
        pair = _LETTERS[index // 26] + _LETTERS[index % 26]
        if pair not in seen:
            seen.add(pair)
            ids.append(pair)
    return ids


# --------------------------------------------------------------------------------------------
# Rendering
# --------------------------------------------------------------------------------------------


def _yes_no(flag: bool) -> str:
    return "yes" if flag else "no"


def _header(q: AgentInput) -> str:
    hold = q.hold if q.hold is not None else "empty"
    return (
        f"Active piece: {q.active.type}   Next: {' '.join(q.next)}   "
        f"Hold slot: {hold} (canHold={str(q.can_hold).lower()})   "
        f"Level {q.level}, score {q.score}, lines {q.lines}, pieces {q.pieces}, "
        f"combo {q.combo}, back-to-back {str(q.back_to_back).lower()}"
    )


def _board(q: AgentInput) -> list[str]:
    rows = ["".join("." if cell is None else "#" for cell in row) for row in q.grid]
    height = len(rows)
    filled = [r for r, row in enumerate(rows) if "#" in row]
    first = max(0, filled[0] - 1) if filled else height - 1
    last = height - 1
    if first == 0:
        title = f"Current board (all {height} rows shown):"
    elif first == last:
        title = f"Current board (row {last} shown; rows above {last} are empty):"
    else:
        title = f"Current board (rows {first}-{last} shown; rows above {first} are empty):"
    width = len(str(last))
    ruler_width = len(rows[0]) if rows else 0
    lines = [title]
    lines += [f"{r:>{width}} {rows[r]}" for r in range(first, last + 1)]
    lines.append(" " * (width + 1) + "".join(str(c % 10) for c in range(ruler_width)))
    features = q.features
    heights = ",".join(str(h) for h in features.heights)
    lines.append(
        f"Column heights now: [{heights}]  holes now: {features.holes}  "
        f"maxH now: {features.max_height}"
    )
    return lines


def candidate_line(candidate_id: str, c: Candidate) -> str:
    """One candidate as the model reads it (the seed's format)."""
    f = c.features
    return (
        f"{candidate_id}: x={c.placement.x} rot={c.placement.rotation} | "
        f"lines={c.lines_cleared} clear=+{c.clear_points} drop=+{c.drop_points} "
        f"maxH={f.max_height} holes={f.holes} bump={f.bumpiness} wells={f.wells} "
        f"topOut={_yes_no(c.top_out)}"
    )


def render_question(q: AgentInput, ids: Sequence[str]) -> str:
    """The user message for question `q`, with `ids[i]` naming `q.candidates[i]`."""
    if len(ids) != len(q.candidates):
        raise ValueError(f"{len(ids)} ids for {len(q.candidates)} candidates")
    lines = [_header(q), "", *_board(q), "", f"Candidates ({len(q.candidates)}):"]
    lines += [candidate_line(i, c) for i, c in zip(ids, q.candidates, strict=True)]
    lines += ["", REPLY_INSTRUCTION]
    return "\n".join(lines)


def build_messages(q: AgentInput, ids: Sequence[str]) -> list[dict[str, str]]:
    """The chat messages for `q`: the fixed system prompt, then the rendered question."""
    return [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": render_question(q, ids)},
    ]


def reply_schema(ids: Sequence[str]) -> dict[str, Any]:
    """JSON schema of the reply: one of the listed ids, a hold flag, a risk in [0, 1]."""
    return {
        "type": "object",
        "properties": {
            "candidate": {"type": "string", "enum": sorted(ids)},
            "hold": {"type": "boolean"},
            "risk": {"type": "number", "minimum": 0, "maximum": 1},
        },
        "required": ["candidate", "hold", "risk"],
        "additionalProperties": False,
    }


def response_format(ids: Sequence[str]) -> dict[str, Any]:
    """The chat-completions `response_format` constraining the reply to `reply_schema`."""
    return schema_format(SCHEMA_NAME, reply_schema(ids))


# --------------------------------------------------------------------------------------------
# Reading the reply
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MoveReply:
    """A parsed reply; `notes` says what was tolerated or dropped on the way."""

    candidate: str
    hold: bool = False
    risk: float | None = None
    notes: tuple[str, ...] = field(default=())


_BARE_ID = re.compile(r"^[\s\"'`*]*([A-Z]{2})[\s\"'`*.!]*$")
_LEADING_ID = re.compile(r"^\s*([A-Za-z]{2})\b")
_CANDIDATE_KEYS = ("candidate", "id", "move")
_TRUE_WORDS = {"true", "yes", "y", "1"}
_FALSE_WORDS = {"false", "no", "n", "0", ""}


def _read_hold(value: Any, notes: list[str]) -> bool:
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):  # compared as an int: a huge one must not overflow a float
        return value > 0
    if isinstance(value, float) and math.isfinite(value):
        return value > 0.5
    if isinstance(value, str) and value.strip().lower() in _TRUE_WORDS | _FALSE_WORDS:
        return value.strip().lower() in _TRUE_WORDS
    notes.append(f"hold {shown(value, 40)} not understood: no hold")
    return False


def _read_risk(value: Any, notes: list[str]) -> float | None:
    if value is None:
        return None
    number: float | None = None
    if isinstance(value, int | float) and not isinstance(value, bool):
        try:
            number = float(value)
        except OverflowError:  # an integer too large for a float
            number = None
    elif isinstance(value, str):
        try:
            number = float(value.strip())
        except (ValueError, OverflowError):
            number = None
    if number is None or not math.isfinite(number) or not 0.0 <= number <= 1.0:
        notes.append(f"risk {shown(value, 40)} dropped: not a number in [0, 1]")
        return None
    return number


def _read_candidate(value: Any, ids: Sequence[str], notes: list[str]) -> str:
    if not isinstance(value, str):
        raise ReplyParseError(f"candidate must be a string id, got {shown(value, 40)}")
    key = value.strip().upper()
    if key in ids:
        return key
    match = _LEADING_ID.match(value)
    if match and match.group(1).upper() in ids:
        notes.append(f"candidate {shown(value, 40)} read as {match.group(1).upper()}")
        return match.group(1).upper()
    raise ReplyParseError(f"unknown candidate id {shown(value, 40)}")


def parse_reply(text: str | None, ids: Sequence[str], *, refusal: str | None = None) -> MoveReply:
    """Read a model's reply against the listed ids; ReplyParseError when it names none of them.

    Tolerated: JSON inside prose or code fences, single quotes, Python literals, bare keys,
    trailing commas and text, lower-case ids, a reply that is nothing but an id. Not guessed:
    an id that is not listed, a refusal, an empty reply, prose without an object.
    """
    text = reply_text(text, refusal)
    found, keyless = find_object(text, _CANDIDATE_KEYS)
    if found is not None:
        notes = list(found.notes)
        candidate = _read_candidate(found.fields[found.key], ids, notes)
        hold = _read_hold(found.fields.get("hold"), notes)
        risk = _read_risk(found.fields.get("risk"), notes)
        return MoveReply(candidate, hold, risk, tuple(notes))
    bare = _BARE_ID.match(text)
    if bare and bare.group(1) in ids:
        return MoveReply(bare.group(1), notes=("reply was a bare id",))
    if keyless is not None:
        raise ReplyParseError(f"the JSON reply has no candidate field: {sorted(keyless)!r:.80}")
    raise ReplyParseError("no JSON object in the reply")


# --------------------------------------------------------------------------------------------
# The prompt module of the Tetris Bench lane
# --------------------------------------------------------------------------------------------

ADAPTER_VERSION = "llm-tetris/1"
"""The adapter's version in logs; bumped with any change to the prompt (`PROMPT_VERSION`) or the
reply handling, since results under different prompts are not comparable."""

PROBE_IDS = ["AB", "CD"]
PROBE_MESSAGES = [
    {"role": "system", "content": "You answer with one JSON object and nothing else."},
    {
        "role": "user",
        "content": "Connection test. Reply with JSON only: "
        '{"candidate":"AB","hold":false,"risk":0}',
    },
]


def _ids(q: AgentInput) -> list[str]:
    return candidate_ids(q.state_hash, len(q.candidates))


def answer_meta(call: LLMCall) -> dict[str, Any]:
    """The answer's `meta`: the call's telemetry as the Tetris Bench log keeps it."""
    meta: dict[str, Any] = {
        "retries": call.retries,
        "promptTokens": call.prompt_tokens,
        "completionTokens": call.completion_tokens,
        "raw": call.raw,
    }
    if call.finish_reason is not None:
        meta["finishReason"] = call.finish_reason
    if call.reasoning_tokens is not None:
        meta["reasoningTokens"] = call.reasoning_tokens
    if call.cached_tokens is not None:
        meta["cachedTokens"] = call.cached_tokens
    meta["costSource"] = call.cost_source
    if call.cost_note is not None:
        meta["costNote"] = call.cost_note
    return meta


class TetrisPrompt:
    """Tetris Bench placements: pick a listed candidate by its two-letter id."""

    game = "tetris"
    benchmark = "tetris-bench"
    reply_tokens = 80  # a JSON object: a candidate id, hold and risk
    prompt_version = PROMPT_VERSION
    adapter_version = ADAPTER_VERSION

    def description(self, model: str) -> str:
        return f"{model} through the shared Tetris Bench LLM prompt"

    def keys(self, question: AgentInput) -> tuple[str | None, int | None]:
        return question.state_hash, getattr(question, "tick", None)

    def messages(self, question: AgentInput) -> list[dict[str, str]]:
        return build_messages(question, _ids(question))

    def response_format(self, question: AgentInput) -> dict[str, Any]:
        return response_format(_ids(question))

    def read(self, text: str | None, refusal: str | None, question: AgentInput) -> Reading:
        move = parse_reply(text, _ids(question), refusal=refusal)
        return Reading(move.candidate, move, move.notes)

    def answer(self, question: AgentInput, reading: Reading, call: LLMCall) -> AgentAnswer:
        move: MoveReply = reading.value
        meta = answer_meta(call)
        if move.notes:
            meta["parseNotes"] = list(move.notes)
        placement = question.candidates[_ids(question).index(move.candidate)].placement
        return AgentAnswer(
            state_hash=question.state_hash,
            choice=[ChoiceEntry(x=placement.x, rotation=placement.rotation, p=1.0)],
            noul=Noul(hold=move.hold),
            score=None if move.risk is None else ScoreField(risk=float(move.risk)),
            cost_usd=call.cost_usd,
            meta=meta,
        )

    def unreadable(self, question: AgentInput, call: LLMCall) -> dict[str, Any]:
        """An answer with an empty `choice`, which the validator rejects; the raw text, the
        parse error and the cost stay in the log."""
        meta = answer_meta(call)
        meta["parseError"] = call.parse_error
        invalid: dict[str, Any] = {"stateHash": question.state_hash, "choice": [], "meta": meta}
        if call.cost_usd is not None:
            invalid["costUsd"] = call.cost_usd
        return invalid

    def probe(self) -> Probe:
        return Probe(
            messages=PROBE_MESSAGES,
            response_format=response_format(PROBE_IDS),
            check=lambda text, refusal: parse_reply(text, PROBE_IDS, refusal=refusal),
        )


PROMPT = TetrisPrompt()


def make_prompt(game: str = "tetris") -> TetrisPrompt:
    """The Tetris Bench prompt module."""
    return PROMPT

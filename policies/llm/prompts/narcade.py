"""What a language model sees of a NARCADE question (Snake, Minesweeper, Tetris with primitive
controls), and how its reply is read back.

NARCADE tests direct action selection from structured state (seed 001): the model gets the game's
own state and its primitive controls, never a planner, a solver or scored placements. So the
prompt is a fixed system prompt per game (the rules in brief, the state fields, the controls),
then the question's state as compact JSON (the contract's wire form, minus bookkeeping fields that
carry no game information) and the offered actions in the question's order (already shuffled per
seed and decision by the game). Rendering is a pure function of the question: the same question
gives a byte-identical prompt.

Models that support it get their reply constrained by a JSON schema whose enum is exactly the
offered actions; the others get the JSON-only instruction and `parse_action`, which digs the
object out of prose or code fences, forgives case and separators (`"Rotate-CW"`, `"reveal(3, 4)"`)
and accepts a bare action name, but refuses (ReplyParseError) anything it cannot map to exactly
one offered action.
"""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from pydantic import BaseModel

from policies.llm.prompts.base import Probe, Reading
from policies.llm.prompts.json_reply import (
    ReplyParseError,
    find_object,
    reply_text,
    schema_format,
    shown,
)
from policies.llm.telemetry import LLMCall

PROMPT_VERSION = "narcade-llm-prompt/1"
"""Bumped whenever a system prompt or the rendering changes (results are not comparable)."""

NarcadeGame = Literal["snake", "minesweeper", "tetris"]
GAMES: tuple[NarcadeGame, ...] = get_args(NarcadeGame)

SCHEMA_NAME = "narcade_action"

REPLY_INSTRUCTION = 'Reply with JSON only: {"action":"<one of the actions>"}'

_JSON_ONLY = """\
Answer with one JSON object and nothing else, no explanation and no code fence:
{"action": "<one of the offered actions>"}"""

SNAKE_PROMPT = f"""\
You are playing Snake (NARCADE rules 0.4.0) on a grid of rows x cols cells. Row 0 is the top \
row and column 0 the left column.

Each turn you get the game state as JSON:
- snake: the snake's cells, head first, then the body down to the tail;
- heading: the direction the snake is moving in;
- food: the cell of the food (null when there is none);
- length (cells of the snake), score (food eaten), decision (moves answered so far), rows, cols, \
difficulty, and tickMs (how often the snake moves in realtime play);
then the actions offered this turn.

The actions are the four absolute directions: up (row - 1), down (row + 1), left (col - 1) and \
right (col + 1). They are listed in an order that changes every turn and means nothing. The head \
moves one cell in the direction you choose. Choosing the direction opposite to the heading does \
not turn back: the snake keeps its heading. Eating the food grows the snake by one cell and \
scores a point; new food appears on a random empty cell. The tail leaves its cell as the head \
moves, so moving into the tail's cell is safe. The game ends when the \
head leaves the grid or runs into the snake's body. In realtime play the snake keeps moving in \
its heading while you decide.

Eat as much food as possible without dying.

{_JSON_ONLY}"""

MINESWEEPER_PROMPT = f"""\
You are playing Minesweeper (NARCADE rules 0.4.0). A grid of rows x cols cells hides a number of \
mines. Row 0 is the top row and column 0 the left column.

Each turn you get the game state as JSON:
- board: one string per row, one character per cell: # hidden, F flagged (still hidden), or a \
digit 0-8 for a revealed cell, counting the mines among its eight neighbours;
- mines (mines on the board), flags (flags placed), revealed (safe cells revealed so far), \
decision (actions answered so far), rows, cols and difficulty;
then the actions offered this turn.

The actions are every legal move, listed in a shuffled order that means nothing: "reveal r c" \
opens the hidden, unflagged cell in row r, column c; "flag r c" puts a flag on a hidden cell or \
takes it off again. Revealing a mine ends the game. Revealing a 0 also opens its neighbours. \
Revealing every safe cell wins. The score is the number of safe cells revealed; flags score \
nothing and only mark cells you believe are mines.

Reveal as many safe cells as possible without hitting a mine.

{_JSON_ONLY}"""

TETRIS_PROMPT = f"""\
You are playing Tetris with primitive controls (NARCADE rules 0.4.0): a board of 10 columns \
(0 at the left) and 20 rows (0 at the top), seven-bag pieces (I, J, L, O, S, T, Z), classic \
scoring.

Each turn you get the game state as JSON:
- board: 20 strings, one per row from the top, one character per column: # a locked cell, . an \
empty one (the falling piece is not drawn);
- piece: the falling piece: its type, x and y (the top-left corner of its bounding box), rotation \
(0 as spawned, 1 clockwise, 2, 3 counter-clockwise) and cells, the row and column of each of its \
four cells (rows above the board are negative);
- next: the next pieces, in order;
- score, lines (cleared), level, pieces (locked so far), gravityMs (how long the piece takes to \
fall a row in realtime play), decision (controls answered so far) and difficulty;
then the actions offered this turn.

The actions are the six controls, listed in an order that changes every turn and means nothing: \
left and right move the falling piece one column; rotate_cw and rotate_ccw turn it a quarter turn \
clockwise or counter-clockwise (with wall kicks); soft_drop moves it down one row; hard_drop \
drops it to the bottom and locks it at once. A control that is blocked does nothing. Gravity \
pulls the piece down a row at a time (in lockstep play once after every control but a hard drop; \
in realtime play on the clock, while you decide), and a piece that rests on the stack when \
gravity acts locks in place. Full rows are cleared: 40, 100, 300 or 1200 points times (level + 1) \
for one to four rows at once; the level rises every 10 lines. The game ends when the stack \
reaches the top.

Steer each piece to a spot that keeps the stack low, flat and free of holes, and clear lines.

{_JSON_ONLY}"""

SYSTEM_PROMPTS: dict[NarcadeGame, str] = {
    "snake": SNAKE_PROMPT,
    "minesweeper": MINESWEEPER_PROMPT,
    "tetris": TETRIS_PROMPT,
}

_BOOKKEEPING = frozenset(
    {"actions", "game", "rulesVersion", "rules_version", "stateHash", "state_hash"}
)
"""Wire fields never shown: the actions get their own line; the rest is meaningless to a model
(a random-looking hash, version strings) and would only cost tokens."""

_HIDDEN: dict[NarcadeGame, frozenset[str]] = {
    "snake": _BOOKKEEPING,
    "minesweeper": _BOOKKEEPING,
    "tetris": _BOOKKEEPING,
}


def check_game(game: str) -> NarcadeGame:
    """`game` as a NarcadeGame; ValueError naming the choices otherwise."""
    for known in GAMES:
        if game == known:
            return known
    raise ValueError(f"unknown NARCADE game {game!r}; choose one of {', '.join(GAMES)}")


# --------------------------------------------------------------------------------------------
# Rendering
# --------------------------------------------------------------------------------------------


def _wire(question: BaseModel | Mapping[str, Any]) -> dict[str, Any]:
    if isinstance(question, BaseModel):
        data: Any = question.model_dump(by_alias=True, mode="json")
    else:
        data = dict(question)
    return data


def offered_actions(question: BaseModel | Mapping[str, Any]) -> list[str]:
    """The question's actions in its order; ValueError when there are none or one is not text."""
    actions = _wire(question).get("actions")
    if (
        not isinstance(actions, list)
        or not actions
        or not all(isinstance(a, str) and a for a in actions)
    ):
        raise ValueError(f"the question offers no actions to choose from: {actions!r:.80}")
    return list(actions)


def state_of(question: BaseModel | Mapping[str, Any], game: NarcadeGame) -> dict[str, Any]:
    """The state the model sees: the question's wire form without its bookkeeping fields, in
    the contract's field order."""
    hidden = _HIDDEN[game]
    return {key: value for key, value in _wire(question).items() if key not in hidden}


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def render_question(question: BaseModel | Mapping[str, Any], game: NarcadeGame) -> str:
    """The user message: the state as compact JSON, the offered actions, the reply format."""
    return "\n".join(
        [
            f"State: {_compact(state_of(question, game))}",
            f"Actions: {_compact(offered_actions(question))}",
            REPLY_INSTRUCTION,
        ]
    )


def build_messages(
    question: BaseModel | Mapping[str, Any], game: NarcadeGame
) -> list[dict[str, str]]:
    """The chat messages for `question`: the game's fixed system prompt, then the question."""
    return [
        {"role": "system", "content": SYSTEM_PROMPTS[game]},
        {"role": "user", "content": render_question(question, game)},
    ]


MAX_SCHEMA_ENUM = 250
"""Above this many actions (hard Minesweeper offers ~870) the schema drops the enum: providers
cap enum sizes (OpenAI: 250 values past 7,500 characters) and would reject every request. The
reply is still JSON with an `action` string, and the parser checks it against the offer."""


def reply_schema(actions: Sequence[str]) -> dict[str, Any]:
    """JSON schema of the reply: `{"action": <one of the offered actions>}`, the enum in the
    question's order (a plain string when the offer exceeds `MAX_SCHEMA_ENUM`)."""
    action: dict[str, Any] = {"type": "string"}
    if len(actions) <= MAX_SCHEMA_ENUM:
        action["enum"] = list(actions)
    return {
        "type": "object",
        "properties": {"action": action},
        "required": ["action"],
        "additionalProperties": False,
    }


def response_format(actions: Sequence[str]) -> dict[str, Any]:
    """The chat-completions `response_format` constraining the reply to `reply_schema`."""
    return schema_format(SCHEMA_NAME, reply_schema(actions))


# --------------------------------------------------------------------------------------------
# Reading the reply
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ActionReply:
    """A parsed reply: one of the offered actions; `notes` says what was tolerated."""

    action: str
    notes: tuple[str, ...] = field(default=())


_ACTION_KEYS = ("action", "move", "direction", "control")
_WORD = re.compile(r"[a-z0-9]+")
_LABEL = re.compile(r"^\s*(?:final\s+)?(?:answer|action|move|control|direction)\s*[:=-]\s*", re.I)


def _canon(text: str) -> str:
    """Case, punctuation and separators dropped: `"Rotate-CW"` -> `"rotate cw"`,
    `"reveal(3, 4)"` -> `"reveal 3 4"`."""
    return " ".join(_WORD.findall(text.lower()))


def _lookup(actions: Sequence[str]) -> dict[str, str]:
    """Canonical spelling -> offered action, for spellings only one action has."""
    table: dict[str, str] = {}
    clashes: set[str] = set()
    for action in actions:
        key = _canon(action)
        if key in table and table[key] != action:
            clashes.add(key)
        table[key] = action
    return {key: action for key, action in table.items() if key and key not in clashes}


def _match(value: str, actions: Sequence[str], table: Mapping[str, str]) -> str | None:
    if value in actions:
        return value
    if value.strip() in actions:
        return value.strip()
    return table.get(_canon(value))


def _read_action(
    value: Any, actions: Sequence[str], table: Mapping[str, str], notes: list[str]
) -> str:
    if not isinstance(value, str):
        raise ReplyParseError(f"action must be a string, got {shown(value, 40)}")
    action = _match(value, actions, table)
    if action is None:
        raise ReplyParseError(f"unknown action {shown(value, 40)}; offered: {list(actions)!r:.120}")
    if action != value.strip():
        notes.append(f"action {shown(value, 40)} read as {action!r}")
    return action


def _bare(text: str, actions: Sequence[str], table: Mapping[str, str]) -> ActionReply | None:
    """The reply, or its last line, when it is nothing but an action (maybe labelled)."""
    whole = _match(text, actions, table)
    if whole is not None:
        return ActionReply(whole, ("reply was a bare action name",))
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) > 1:
        last = _LABEL.sub("", lines[-1])
        action = _match(last, actions, table)
        if action is not None:
            return ActionReply(action, ("last line was a bare action name",))
    return None


def parse_action(
    text: str | None, actions: Sequence[str], *, refusal: str | None = None
) -> ActionReply:
    """Read a reply against the offered actions; ReplyParseError when it names none of them.

    Tolerated: JSON inside prose or code fences, single quotes and other sloppy JSON, the keys
    move / direction / control for action, case and separators (`"UP"`, `"rotate-cw"`,
    `"reveal(3, 4)"`), a reply or a last line that is nothing but an action. Not guessed: an
    action that is not offered, a refusal, an empty reply, prose that names no action alone.
    """
    text = reply_text(text, refusal)
    table = _lookup(actions)
    found, keyless = find_object(text, _ACTION_KEYS)
    if found is not None:
        notes = list(found.notes)
        action = _read_action(found.fields[found.key], actions, table, notes)
        return ActionReply(action, tuple(notes))
    bare = _bare(text, actions, table)
    if bare is not None:
        return bare
    if keyless is not None:
        raise ReplyParseError(f"the JSON reply has no action field: {sorted(keyless)!r:.80}")
    raise ReplyParseError("no JSON object and no bare action in the reply")


# --------------------------------------------------------------------------------------------
# The prompt module of the NARCADE lanes
# --------------------------------------------------------------------------------------------

ADAPTER_VERSION = "llm-narcade/1"
"""The adapter's version in logs; bumped with any change to the prompts (`PROMPT_VERSION`) or
the reply handling, since results under different prompts are not comparable."""

INVALID_ACTION_PREFIX = "unreadable reply: "
"""Starts the action of an answer made from an unreadable reply. No offered action starts with
it, so the validator always rejects the answer, while the log still shows what the model said."""

TETRIS_CONTRACT = "arcade_gym.tetris.primitive_contract"

PROBE_ACTIONS = ["up", "down"]


def answer_model(game: NarcadeGame) -> type[BaseModel]:
    """The answer model of `game` (each has one field, `action`)."""
    if game == "snake":
        from arcade_gym.snake.contract import SnakeAnswer

        return SnakeAnswer
    if game == "minesweeper":
        from arcade_gym.minesweeper.contract import MinesweeperAnswer

        return MinesweeperAnswer
    try:
        module = importlib.import_module(TETRIS_CONTRACT)
    except ImportError as exc:
        raise ValueError(f"tetris: the primitive-control contract is missing ({exc})") from exc
    model = getattr(module, "TetrisControlAnswer", None)
    if not (isinstance(model, type) and issubclass(model, BaseModel)):
        raise ValueError(f"tetris: {TETRIS_CONTRACT} has no TetrisControlAnswer model")
    return model


def _field(question: Any, name: str, alias: str, kind: type[Any]) -> Any:
    """A field of a question model or its wire dict, when it has the expected type."""
    if isinstance(question, Mapping):
        value = question.get(alias, question.get(name))
    else:
        value = getattr(question, name, None)
    return value if isinstance(value, kind) and not isinstance(value, bool) else None


class NarcadePrompt:
    """A NARCADE game (snake, minesweeper, tetris controls): pick one of the offered actions."""

    prompt_version = PROMPT_VERSION
    adapter_version = ADAPTER_VERSION

    def __init__(self, game: str) -> None:
        self.game: NarcadeGame = check_game(game)
        self.answer_model = answer_model(self.game)

    def description(self, model: str) -> str:
        return f"{model} choosing NARCADE {self.game} controls from the structured state"

    def keys(self, question: Any) -> tuple[str | None, int | None]:
        return (
            _field(question, "state_hash", "stateHash", str),
            _field(question, "decision", "decision", int),
        )

    def messages(self, question: Any) -> list[dict[str, str]]:
        return build_messages(question, self.game)

    def response_format(self, question: Any) -> dict[str, Any]:
        return response_format(offered_actions(question))

    def read(self, text: str | None, refusal: str | None, question: Any) -> Reading:
        move = parse_action(text, offered_actions(question), refusal=refusal)
        return Reading(move.action, move, move.notes)

    def answer(self, question: Any, reading: Reading, call: LLMCall) -> BaseModel:
        return self.answer_model.model_validate({"action": reading.action})

    def unreadable(self, question: Any, call: LLMCall) -> BaseModel:
        """An answer the validator rejects: its action is INVALID_ACTION_PREFIX + the raw text
        (`model_construct`: the action is deliberately not one the model type allows)."""
        return self.answer_model.model_construct(action=INVALID_ACTION_PREFIX + call.raw)

    def probe(self) -> Probe:
        return Probe(
            messages=[
                {"role": "system", "content": "You answer with one JSON object and nothing else."},
                {
                    "role": "user",
                    "content": 'Connection test. Reply with JSON only: {"action":"up"}',
                },
            ],
            response_format=response_format(PROBE_ACTIONS),
            check=lambda text, refusal: parse_action(text, PROBE_ACTIONS, refusal=refusal),
        )


def make_prompt(game: str) -> NarcadePrompt:
    """The NARCADE prompt module of `game` (snake, minesweeper, tetris); ValueError otherwise."""
    return NarcadePrompt(game)

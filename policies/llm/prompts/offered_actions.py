"""The prompt of a game that offers its actions (NARCADE's games): the model picks one of them
from the game's structured state.

NARCADE tests direct action selection from structured state (seed 001): the model gets the game's
own state and its primitive controls, never a planner, a solver or scored placements. So the
prompt is a fixed system prompt per game (the rules in brief, the state fields, the controls:
each game's own, in `policies/<game>/`), then the question's state as compact JSON (the
contract's wire form, minus bookkeeping fields that carry no game information) and the offered
actions in the question's order (already shuffled per seed and decision by the game). Rendering
is a pure function of the question: the same question gives a byte-identical prompt.

Models that support it get their reply constrained by a JSON schema whose enum is exactly the
offered actions; the others get the JSON-only instruction and `parse_action`, which digs the
object out of prose or code fences, forgives case and separators (`"Rotate-CW"`, `"reveal(3, 4)"`)
and accepts a bare action name, but refuses (ReplyParseError) anything it cannot map to exactly
one offered action. A game's prompt is `OfferedActionsPrompt(game, system_prompt, answer_model)`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

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

SCHEMA_NAME = "narcade_action"

REPLY_INSTRUCTION = 'Reply with JSON only: {"action":"<one of the actions>"}'

JSON_ONLY = """\
Answer with one JSON object and nothing else, no explanation and no code fence:
{"action": "<one of the offered actions>"}"""
"""The last paragraph of every game's system prompt."""

BOOKKEEPING = frozenset(
    {"actions", "game", "rulesVersion", "rules_version", "stateHash", "state_hash"}
)
"""Wire fields never shown: the actions get their own line; the rest is meaningless to a model
(a random-looking hash, version strings) and would only cost tokens."""


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


def state_of(
    question: BaseModel | Mapping[str, Any], hidden: frozenset[str] = BOOKKEEPING
) -> dict[str, Any]:
    """The state the model sees: the question's wire form without the `hidden` fields, in the
    contract's field order."""
    return {key: value for key, value in _wire(question).items() if key not in hidden}


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def render_question(
    question: BaseModel | Mapping[str, Any], hidden: frozenset[str] = BOOKKEEPING
) -> str:
    """The user message: the state as compact JSON, the offered actions, the reply format."""
    return "\n".join(
        [
            f"State: {_compact(state_of(question, hidden))}",
            f"Actions: {_compact(offered_actions(question))}",
            REPLY_INSTRUCTION,
        ]
    )


def build_messages(
    question: BaseModel | Mapping[str, Any],
    system_prompt: str,
    hidden: frozenset[str] = BOOKKEEPING,
) -> list[dict[str, str]]:
    """The chat messages for `question`: the game's fixed system prompt, then the question."""
    return [
        {"role": "system", "content": system_prompt},
        {"role": "user", "content": render_question(question, hidden)},
    ]


MAX_SCHEMA_ENUM = 250
"""Above this many actions (a large board can offer ~870) the schema drops the enum: providers
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
# The prompt of a game's lane
# --------------------------------------------------------------------------------------------

ADAPTER_VERSION = "llm-narcade/1"
"""The adapter's version in logs; bumped with any change to the prompts (`PROMPT_VERSION`) or
the reply handling, since results under different prompts are not comparable."""

INVALID_ACTION_PREFIX = "unreadable reply: "
"""Starts the action of an answer made from an unreadable reply. No offered action starts with
it, so the validator always rejects the answer, while the log still shows what the model said."""

PROBE_ACTIONS = ["up", "down"]


def _field(question: Any, name: str, alias: str, kind: type[Any]) -> Any:
    """A field of a question model or its wire dict, when it has the expected type."""
    if isinstance(question, Mapping):
        value = question.get(alias, question.get(name))
    else:
        value = getattr(question, name, None)
    return value if isinstance(value, kind) and not isinstance(value, bool) else None


class OfferedActionsPrompt:
    """A game whose question offers its actions: the model picks one of them.

    `system_prompt` is the game's fixed system prompt (ending with `JSON_ONLY`), `answer_model`
    its answer type (one field, `action`), `hidden` the wire fields the model never sees.
    """

    benchmark = "narcade"
    reply_tokens = 80  # one offered action, as JSON
    prompt_version = PROMPT_VERSION
    adapter_version = ADAPTER_VERSION

    def __init__(
        self,
        game: str,
        system_prompt: str,
        answer_model: type[BaseModel],
        hidden: frozenset[str] = BOOKKEEPING,
    ) -> None:
        self.game = game
        self.system_prompt = system_prompt
        self.answer_model = answer_model
        self.hidden = hidden

    def description(self, model: str) -> str:
        return f"{model} choosing NARCADE {self.game} controls from the structured state"

    def keys(self, question: Any) -> tuple[str | None, int | None]:
        return (
            _field(question, "state_hash", "stateHash", str),
            _field(question, "decision", "decision", int),
        )

    def messages(self, question: Any) -> list[dict[str, str]]:
        return build_messages(question, self.system_prompt, self.hidden)

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

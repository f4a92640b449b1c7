"""Reading the JSON object a chat model's reply carries, however it wrapped it.

Every prompt module that asks for a JSON reply reads it the same way, so every lane forgives the
same things: the object may sit alone, in a code fence or in prose; it may use single quotes,
Python's True/False/None, bare keys or trailing commas. Nothing here raises for the model's text
(a 5,000-digit number, deep nesting): what cannot be read is `ReplyParseError` or None.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from policies.llm.client import parse_json


def shown(value: Any, limit: int = 40) -> str:
    """`repr(value)` cut to `limit` characters, never raising (Python refuses to print integers
    of more than 4,300 digits)."""
    try:
        text = repr(value)
    except ValueError:
        text = f"<an integer of {value.bit_length()} bits>"
    return text[:limit]


def schema_format(name: str, schema: dict[str, Any]) -> dict[str, Any]:
    """The chat-completions `response_format` constraining a reply to a strict JSON schema."""
    return {"type": "json_schema", "json_schema": {"name": name, "strict": True, "schema": schema}}


class ReplyParseError(ValueError):
    """A reply the prompt module cannot read (malformed, empty, refused, naming nothing offered)."""


_FENCE = re.compile(r"```[A-Za-z0-9_-]*[ \t]*\n?(.*?)```", re.DOTALL)
_LITERALS = {
    **{word: word for word in ("true", "false", "null")},
    **{"True": "true", "False": "false", "None": "null"},
}


def _objects(text: str) -> list[str]:
    """Every top-level balanced `{...}` in `text`, strings inside them respected (a single quote
    opens a string only where a key or value may start, so prose apostrophes do not)."""
    found: list[str] = []
    depth = 0
    start = 0
    quote: str | None = None
    escaped = False
    previous = ""
    for i, ch in enumerate(text):
        if depth and quote is not None:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = None
            continue
        if depth and (ch == '"' or (ch == "'" and previous in "{[,:")):
            quote = ch
        elif ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
            if depth == 0:
                found.append(text[start : i + 1])
        if not ch.isspace():
            previous = ch
    return found


def _string_end(text: str, start: int) -> int:
    """Index of the quote closing the string opened at `start` (or the end of `text`)."""
    quote, escaped = text[start], False
    for j in range(start + 1, len(text)):
        if escaped:
            escaped = False
        elif text[j] == "\\":
            escaped = True
        elif text[j] == quote:
            return j
    return len(text)


def _relax(text: str) -> str:
    """Python-ish or sloppy JSON made strict: single-quoted strings, True/False/None, bare keys
    and bare word values, trailing commas."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "\"'":
            j = _string_end(text, i)
            body = text[i + 1 : j]
            if ch == "'":  # re-quote: unescape \', escape bare "
                body = body.replace("\\'", "'")
                body = re.sub(r'(?<!\\)"', '\\"', body)
            out.append('"' + body + '"')
            i = j + 1
            continue
        if ch.isalpha() or ch == "_":
            j = i
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            word = text[i:j]
            k = j
            while k < n and text[k] in " \t\r\n":
                k += 1
            if k < n and text[k] == ":":
                out.append(json.dumps(word))
            else:
                out.append(_LITERALS.get(word, json.dumps(word)))
            i = j
            continue
        if ch == ",":
            k = i + 1
            while k < n and text[k] in " \t\r\n":
                k += 1
            if k < n and text[k] in "}]":
                i += 1
                continue
        out.append(ch)
        i += 1
    return "".join(out)


def _load_object(text: str) -> dict[str, Any] | None:
    for attempt in (text, _relax(text)):
        try:
            value = parse_json(attempt)
        except (ValueError, RecursionError):
            continue
        if isinstance(value, dict):
            return value
    return None


def _candidate_texts(text: str) -> list[str]:
    """Where a JSON object may hide, most likely first: the whole reply, code fences (the last
    one first: models put their final answer last), then bare objects (likewise)."""
    texts = [text.strip()]
    texts += [body.strip() for body in reversed(_FENCE.findall(text))]
    texts += list(reversed(_objects(text)))
    return texts


def reply_text(text: str | None, refusal: str | None) -> str:
    """The text of a model's reply; ReplyParseError for a refusal or an empty reply."""
    if refusal:
        raise ReplyParseError(f"the model refused: {refusal.strip()!r:.120}")
    if text is None or not text.strip():
        raise ReplyParseError("empty reply")
    return text


@dataclass(frozen=True)
class ReplyObject:
    """The JSON object a reply carries: its fields, which of the wanted keys it holds, and notes
    on how it was found."""

    fields: dict[str, Any]
    key: str
    notes: tuple[str, ...]


def find_object(text: str, keys: Sequence[str]) -> tuple[ReplyObject | None, dict[str, Any] | None]:
    """The most likely JSON object in `text` holding one of `keys` (whole reply, code fences,
    bare objects; sloppy JSON tolerated), and the first object seen without any of them."""
    keyless: dict[str, Any] | None = None
    for chunk in _candidate_texts(text):
        obj = _load_object(chunk)
        if obj is None:
            continue
        key = next((k for k in keys if k in obj), None)
        if key is None:
            keyless = keyless or obj
            continue
        notes = () if chunk == text.strip() else ("JSON object extracted from surrounding text",)
        return ReplyObject(obj, key, notes), keyless
    return None, keyless

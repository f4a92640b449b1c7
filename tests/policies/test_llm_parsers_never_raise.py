"""Reply parsers never raise anything but ReplyParseError, whatever a model sends (property)."""

from __future__ import annotations

import contextlib

from hypothesis import given, settings
from hypothesis import strategies as st

from policies.llm.prompts.json_reply import ReplyParseError, find_object, shown
from policies.llm.prompts.offered_actions import parse_action
from policies.tetris.prompt import parse_reply
from policies.tictactoe.prompt import parse_move_reply

JSONISH = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(10**6), max_value=10**6),
        st.integers(min_value=1, max_value=6000).map(lambda n: Digits("7" * n)),
        st.floats(allow_nan=True),
        st.text(max_size=20),
    ),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


class Digits(str):
    """A number written out (too long for Python to convert to an int by default)."""


def _as_text(value: object) -> str:
    """A model reply built around a value: JSON-ish text that may hold huge numbers."""
    if isinstance(value, dict):
        items = ", ".join(f'"{k}": {_as_text(v)}' for k, v in value.items())
        return "{" + items + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_as_text(v) for v in value) + "]"
    if isinstance(value, Digits):
        return str.__str__(value)
    if isinstance(value, str):
        return '"' + value.replace('"', "'") + '"'
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "null"}[value]
    return str(value)


REPLIES = st.one_of(
    st.text(max_size=200),
    JSONISH.map(_as_text),
    st.builds(
        lambda key, value: f'{{"{key}": {value}, "hold": {value}, "risk": {value}}}',
        st.sampled_from(["candidate", "action", "move", "id"]),
        JSONISH.map(_as_text),
    ),
    st.builds(
        lambda head, value: f'{head}, "hold": {value}, "risk": {value}, "x": {value}}}',
        st.sampled_from(['{"candidate": "AB"', '{"action": "up"', '{"move": "CD"']),
        JSONISH.map(_as_text),
    ),
)


@given(REPLIES, st.none() | st.text(max_size=20))
@settings(max_examples=300, deadline=None)
def test_every_parser_reads_or_refuses_without_raising_anything_else(
    text: str, refusal: str | None
) -> None:
    for parse in (
        lambda: parse_reply(text, ["AB", "CD"], refusal=refusal),
        lambda: parse_action(text, ["up", "down", "reveal 3 4"], refusal=refusal),
        lambda: parse_move_reply(text, refusal=refusal),
    ):
        with contextlib.suppress(ReplyParseError):
            parse()
    find_object(text, ("candidate",))


def test_shown_prints_integers_python_refuses_to_print() -> None:
    assert shown(10**5000).startswith("<an integer of")
    assert shown("x" * 100) == repr("x" * 100)[:40]

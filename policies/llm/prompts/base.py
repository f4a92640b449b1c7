"""The contract between the chat-policy base (`policies/llm/chat_policy.py`) and a game's prompt
module (`policies/<game>/prompt.py`, named by the game's `POLICIES`).

A prompt module turns a question into chat messages (and, for models that support it, a JSON
schema for the reply), reads a reply back (`read`, raising `ReplyParseError` for anything it
cannot read; the base catches every other exception too, so a reply never crashes a game), and
builds the game's answer from what it read, or the answer that marks an unreadable reply. It
also gives the base a pre-flight probe in the benchmark's own reply format. Everything about
calls, deadlines, failures, costs and telemetry is the base's. To add a game, write a module
with `make_prompt(game) -> ChatPrompt` in `policies/<game>/prompt.py` and name it in the game's
`GamePolicies.prompt` (`policies/game_policies.py`); a game whose question offers its actions
needs only a system prompt (`policies/llm/prompts/offered_actions.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from policies.llm.telemetry import LLMCall

Messages = list[dict[str, str]]


@dataclass(frozen=True)
class Reading:
    """What a reply said: `action` in words for the telemetry (an id, a control, `row col`),
    `value` whatever `answer` needs, `notes` what was tolerated on the way."""

    action: str
    value: Any = None
    notes: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class Probe:
    """A pre-flight request in the benchmark's format: messages, the reply schema to send when
    the model supports schemas, and `check(text, refusal)` raising ReplyParseError when the
    reply is not in the format."""

    messages: Messages
    response_format: dict[str, Any] | None
    check: Callable[[str | None, str | None], object]


class ChatPrompt(Protocol):
    """One game's prompt and parser (see the module docstring)."""

    @property
    def game(self) -> str:
        """The game the prompt is for."""

    @property
    def benchmark(self) -> str:
        """The benchmark whose questions the prompt answers (a lane's budget is keyed by it)."""

    @property
    def reply_tokens(self) -> int:
        """The completion budget the reply format needs, with room for a sentence around it:
        the benchmark's default budget (`policies/llm/budgets.py`)."""

    @property
    def prompt_version(self) -> str:
        """Bumped with any change to what the model sees (results are not comparable)."""

    @property
    def adapter_version(self) -> str:
        """Bumped with any change to the reply handling."""

    def description(self, model: str) -> str:
        """A policy description for tables, e.g. `gpt-4o-mini choosing ... from the state`."""

    def keys(self, question: Any) -> tuple[str | None, int | None]:
        """The question's state hash and decision number, for the telemetry (None: none)."""

    def messages(self, question: Any) -> Messages:
        """The chat messages (a pure function of the question)."""

    def response_format(self, question: Any) -> dict[str, Any] | None:
        """The `response_format` for models with JSON-schema support (None: none exists)."""

    def read(self, text: str | None, refusal: str | None, question: Any) -> Reading:
        """What the reply says; ReplyParseError when it says nothing usable."""

    def answer(self, question: Any, reading: Reading, call: LLMCall) -> Any:
        """The game's answer for a readable reply."""

    def unreadable(self, question: Any, call: LLMCall) -> Any:
        """The answer that records an unreadable reply (the benchmark scores it as invalid)."""

    def probe(self) -> Probe:
        """The pre-flight request in this benchmark's reply format."""

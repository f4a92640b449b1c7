"""A text engine as a policy: the caller encodes the question and decodes the text that comes back.

Engines (`BrainfuckTextEngine`, `ProcessEngine`, agent CLIs) know nothing of games: they turn text
into text. `EnginePolicy` gives one the policy protocol of `policies/base.py` for one game by
taking the two game-specific functions from the caller: `encode(question) -> str` and
`decode(output, question) -> answer`. The decision's remaining time becomes the engine's deadline
and `ctx.cancelled` its cancel signal.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Protocol

from policies.base import DecisionContext, PolicyIdentity
from policies.engines.output import EngineOutput


class TextEngine(Protocol):
    """Anything that answers text with text within a deadline (seconds from now; None: its own)."""

    def run(
        self, text: str, deadline_s: float | None = None, *, cancel: threading.Event | None = None
    ) -> EngineOutput:
        """One request."""


class EnginePolicy(PolicyIdentity):
    """A `TextEngine` answering one game's questions (`kind="engine"`)."""

    def __init__(
        self,
        engine: TextEngine,
        *,
        encode: Callable[[Any], str],
        decode: Callable[[EngineOutput, Any], Any],
        slug: str,
        name: str,
        description: str,
        adapter_version: str = "1",
    ) -> None:
        super().__init__(
            slug=slug,
            name=name,
            description=description,
            kind="engine",
            adapter_version=adapter_version,
        )
        self.engine = engine
        self.encode = encode
        self.decode = decode

    def act(self, question: Any, ctx: DecisionContext) -> Any:
        """Encode, run within the context's deadline, decode."""
        remaining = ctx.remaining_ms()
        output = self.engine.run(
            self.encode(question),
            None if remaining is None else remaining / 1000.0,
            cancel=ctx.cancelled,
        )
        return self.decode(output, question)

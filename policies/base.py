"""The one protocol for everything that chooses: a policy answers the question its game asks.

A policy sees a game only through the question (a game's contract model, e.g. Tetris'
`AgentInput`) and returns an answer (the game's answer model, or anything JSON-like: the harness
validates it). LLM adapters and other slow policies implement `act_async` so the harness can cancel
them; plain Python policies implement `act`.
"""

from __future__ import annotations

import asyncio
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

PolicyKind = Literal[
    "baseline", "heuristic", "search", "llm", "classifier", "rl", "engine", "human"
]


class ServiceFailureError(Exception):
    """A failure on the evaluator's side (transport, rate limit, provider outage), never the
    policy's: a benchmark aborts the game (set aside, replayed on resume), it never scores it."""


class RunStopError(Exception):
    """The run must stop now and stay resumable (a cost cap reached, a key refused): the game in
    play is set aside, the finished ones are kept."""


@dataclass
class DecisionContext:
    """What a policy knows about the clock of one decision.

    `budget_ms` is the time it may take (the IQ budget) or None when the game itself is the clock
    (Blitz: the falling piece). `deadline` is the same budget as a `time.monotonic()` instant.
    `cancelled` is set when the answer is no longer wanted (timeout, piece locked, Ctrl-C);
    long-running policies should poll it, async ones also get `asyncio` cancellation.
    """

    budget_ms: float | None = None
    deadline: float | None = None
    cancelled: threading.Event = field(default_factory=threading.Event)
    async_cancelled: asyncio.Event | None = None

    @classmethod
    def with_budget(cls, budget_ms: float | None) -> DecisionContext:
        """A context whose deadline starts now."""
        deadline = None if budget_ms is None else time.monotonic() + budget_ms / 1000.0
        return cls(budget_ms=budget_ms, deadline=deadline)

    def remaining_ms(self) -> float | None:
        """Milliseconds left before the deadline (None without one)."""
        if self.deadline is None:
            return None
        return max(0.0, (self.deadline - time.monotonic()) * 1000.0)


@runtime_checkable
class PolicyInfo(Protocol):
    """The identity every policy carries into logs and tables."""

    slug: str
    name: str
    description: str
    kind: PolicyKind
    adapter_version: str


@runtime_checkable
class Policy(PolicyInfo, Protocol):
    """A synchronous policy: `act(question, ctx) -> answer`."""

    def act(self, question: Any, ctx: DecisionContext) -> Any:
        """Answer one question."""


@runtime_checkable
class AsyncPolicy(PolicyInfo, Protocol):
    """An asynchronous policy (network calls): `await act_async(question, ctx) -> answer`."""

    async def act_async(self, question: Any, ctx: DecisionContext) -> Any:
        """Answer one question; honour cancellation."""


@dataclass
class PolicyIdentity:
    """A ready-made identity block for policy classes to inherit."""

    slug: str
    name: str
    description: str
    kind: PolicyKind
    adapter_version: str = "1"
    provider: str | None = None
    model: str | None = None

    def identity(self) -> dict[str, Any]:
        """The identity as log fields (camelCase, as the seed's brain records)."""
        out: dict[str, Any] = {
            "slug": self.slug,
            "name": self.name,
            "description": self.description,
            "kind": self.kind,
            "adapterVersion": self.adapter_version,
        }
        if self.provider is not None:
            out["provider"] = self.provider
        if self.model is not None:
            out["model"] = self.model
        return out

"""What a text engine produced for one request, whatever the game: the raw text and, when the
request failed, why (a failure the caller scores by its own rules, never an exception)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Failure = Literal["program", "timeout", "cancelled", "crash", "output-limit", "start"]
"""Why a request failed: `program` (a Brainfuck syntax error, tape overflow or instruction limit),
`timeout` (no reply before the deadline), `cancelled` (the caller gave up), `crash` (non-zero exit
or a signal), `output-limit` (too much output), `start` (the command could not be started)."""


@dataclass(frozen=True)
class EngineOutput:
    """One reply of an engine: `output` is its text as printed (decoded, cut at the output limit);
    `error` names a failure exactly and `failure` says which kind; `instructions` counts executed
    Brainfuck instructions (None for processes); `elapsed_ms` is the wall time of the request."""

    output: str = ""
    error: str | None = None
    failure: Failure | None = None
    instructions: int | None = None
    elapsed_ms: float = 0.0

    @property
    def ok(self) -> bool:
        """Whether the engine answered (its text may still be an illegal move)."""
        return self.error is None

    def to_dict(self) -> dict[str, Any]:
        """camelCase log fields."""
        return {
            "output": self.output,
            "error": self.error,
            "failure": self.failure,
            "instructions": self.instructions,
            "elapsedMs": self.elapsed_ms,
        }

"""What every model call records, in every benchmark: one `LLMCall` per decision, and the totals.

A call record holds the whole raw reply, what was read from it (or why nothing could be), the
reasoning text the model returned beside its answer (always, when there is one), the tokens
(prompt, completion, reasoning, cached), the cost with its source (`reported` by the provider,
`estimated` from registry prices, `unknown`, with a note when a figure was refused), which
attempt at the same request it was (a retry of an unreadable reply is attempt 2), retries and
latency; for a call that got no reply, the error and its kind. The reply and the reasoning are
each kept up to `MAX_TEXT_CHARS` characters (the agent CLIs' output cap; a longer one is cut
with a note saying how much was dropped), so an absurd reply cannot swell a log. `to_dict`
gives the camelCase log fields; the request messages are added only for transcripts (they are
large). `Usage` sums the records of a policy.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, Literal

from policies.llm.costs import CostSource

ErrorKind = Literal["service", "fatal", "cancelled", "cost-cap"]

MAX_TEXT_CHARS = 1_048_576
"""The most characters of a reply, and of its reasoning, a call record keeps."""


def bounded_text(text: str | None, limit: int | None = None) -> str | None:
    """`text` up to `limit` characters (default `MAX_TEXT_CHARS`); a longer one is cut, ending
    with a note of the cut."""
    limit = MAX_TEXT_CHARS if limit is None else limit
    if text is None or len(text) <= limit:
        return text
    return text[:limit] + f" [... {len(text) - limit:,} more characters not kept]"


@dataclass(frozen=True)
class LLMCall:
    """One decision's model call (see the module docstring); `action` is what was read from the
    reply (None: unreadable, see `parse_error`, or no reply, see `error` and `error_kind`)."""

    state_hash: str | None = None
    decision: int | None = None
    action: str | None = None
    raw: str = ""
    parse_error: str | None = None
    parse_notes: tuple[str, ...] = ()
    error: str | None = None
    error_kind: ErrorKind | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    reasoning_tokens: int | None = None
    cached_tokens: int | None = None
    cost_usd: float | None = None
    cost_source: CostSource = "unknown"
    cost_note: str | None = None
    retries: int = 0
    latency_ms: float | None = None
    finish_reason: str | None = None
    from_cache: bool = False
    cache_key: str | None = None
    messages: tuple[dict[str, Any], ...] | None = None
    reasoning: str | None = None
    attempt: int = 1

    def to_dict(self, *, transcript: bool = False) -> dict[str, Any]:
        """camelCase log fields (`transcript`: with the request messages). A reply of a client
        with a response cache adds `"cache": "used"` and its `requestHash`, alike on the run
        that stored it and on a re-run that reads it; `fromCache` is left out so that re-run
        logs exactly what the first run did (`policies/llm/cache.py`)."""
        out: dict[str, Any] = {
            "stateHash": self.state_hash,
            "decision": self.decision,
            "action": self.action,
            "raw": self.raw,
            "reasoning": self.reasoning,
            "attempt": self.attempt,
            "parseError": self.parse_error,
            "parseNotes": list(self.parse_notes),
            "error": self.error,
            "errorKind": self.error_kind,
            "promptTokens": self.prompt_tokens,
            "completionTokens": self.completion_tokens,
            "reasoningTokens": self.reasoning_tokens,
            "cachedTokens": self.cached_tokens,
            "costUsd": self.cost_usd,
            "costSource": self.cost_source,
            "costNote": self.cost_note,
            "retries": self.retries,
            "latencyMs": self.latency_ms,
            "finishReason": self.finish_reason,
        }
        if self.cache_key is not None:
            out["cache"] = "used"
            out["requestHash"] = self.cache_key
        if transcript and self.messages is not None:
            out["messages"] = [dict(m) for m in self.messages]
        return out


@dataclass
class Usage:
    """Totals over a policy's calls (thread-safe: games in flight share a policy's totals)."""

    calls: int = 0
    replies: int = 0
    unreadable: int = 0
    failed: int = 0
    service_failures: int = 0
    cancelled: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    reasoning_tokens: int = 0
    cached_tokens: int = 0
    cost_usd: float = 0.0
    priced_calls: int = 0
    reported_calls: int = 0
    estimated_calls: int = 0
    unpriced_calls: int = 0
    cache_hits: int = 0
    retries: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add_reply(self, call: LLMCall) -> None:
        """Count a call that got a reply (readable or not)."""
        with self.lock:
            self.replies += 1
            self.unreadable += call.parse_error is not None
            self.prompt_tokens += call.prompt_tokens or 0
            self.completion_tokens += call.completion_tokens or 0
            self.reasoning_tokens += call.reasoning_tokens or 0
            self.cached_tokens += call.cached_tokens or 0
            self.retries += call.retries
            self.cache_hits += call.from_cache
            if call.cost_usd is not None:
                self.cost_usd += call.cost_usd
                self.priced_calls += 1
                self.reported_calls += call.cost_source == "reported"
                self.estimated_calls += call.cost_source == "estimated"
            else:
                self.unpriced_calls += 1

    def add_failure(self, call: LLMCall) -> None:
        """Count a call that got no reply."""
        with self.lock:
            self.failed += 1
            self.service_failures += call.error_kind == "service"
            self.retries += call.retries

    def to_dict(self) -> dict[str, Any]:
        """camelCase totals."""
        with self.lock:
            return {
                "calls": self.calls,
                "replies": self.replies,
                "unreadable": self.unreadable,
                "failed": self.failed,
                "serviceFailures": self.service_failures,
                "cancelled": self.cancelled,
                "promptTokens": self.prompt_tokens,
                "completionTokens": self.completion_tokens,
                "reasoningTokens": self.reasoning_tokens,
                "cachedTokens": self.cached_tokens,
                "costUsd": self.cost_usd,
                "pricedCalls": self.priced_calls,
                "reportedCalls": self.reported_calls,
                "estimatedCalls": self.estimated_calls,
                "unpricedCalls": self.unpriced_calls,
                "cacheHits": self.cache_hits,
                "retries": self.retries,
            }

"""What a call cost, and how we know: reported by the provider, estimated from registry prices, or
unknown. A reported figure outside a sane range is not trusted: it is recorded as unknown with a
note (a provider sending `usage.cost = 1e300` must not break a table).

Sources, in order: OpenRouter's `usage.cost` in the body, LiteLLM's `x-litellm-response-cost`
header, then the registry's price list (tokens x price, `estimated`). An agent CLI on a
subscription is priced the other way round (`ModelSpec.price`): the list price first, as the
API-equivalent cost, then the figure the tool reports.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

MAX_CALL_COST_USD = 10.0
"""Above this a single call's reported cost is treated as a provider bug, not a bill."""

COST_HEADER = "x-litellm-response-cost"

CostSource = Literal["reported", "estimated", "unknown"]


@dataclass(frozen=True)
class CallCost:
    """A call's cost in USD (None: unknown), where it came from, and a note when a figure was
    refused or is missing."""

    usd: float | None = None
    source: CostSource = "unknown"
    note: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """camelCase log fields."""
        return {"costUsd": self.usd, "costSource": self.source, "costNote": self.note}


def _shown(value: Any) -> str:
    """A short, never-raising rendering of a provider value (huge ints included)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"an integer of {len(format(value, 'x')) * 4} bits"
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def sane_cost(value: Any, where: str, *, max_usd: float = MAX_CALL_COST_USD) -> CallCost:
    """A provider's cost figure checked: a number in [0, max_usd] is `reported`; anything else is
    `unknown` with a note saying what was refused (absent: unknown, no note)."""
    if value is None:
        return CallCost()
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return CallCost(note=f"{where} {_shown(value)} is not a number: cost unknown")
    try:
        usd = float(value)
    except (ValueError, OverflowError):
        return CallCost(note=f"{where} {_shown(value)} is not a number: cost unknown")
    if not math.isfinite(usd) or usd < 0 or usd > max_usd:
        return CallCost(
            note=f"{where} {_shown(value)} is outside [0, {max_usd:g}] USD: cost unknown"
        )
    return CallCost(usd, "reported")


def reported_cost(
    usage_cost: Any, header_cost: str | None, *, max_usd: float = MAX_CALL_COST_USD
) -> CallCost:
    """The provider's figure: `usage.cost` first, then the LiteLLM header."""
    notes: list[str] = []
    for value, where in ((usage_cost, "usage.cost"), (header_cost, COST_HEADER)):
        cost = sane_cost(value, where, max_usd=max_usd)
        if cost.usd is not None:
            return CallCost(cost.usd, "reported", "; ".join(notes) or None)
        if cost.note:
            notes.append(cost.note)
    return CallCost(note="; ".join(notes) or None)


def estimated_cost(
    reported: CallCost,
    price_in: float | None,
    price_out: float | None,
    prompt_tokens: int | None,
    completion_tokens: int | None,
    *,
    max_usd: float = MAX_CALL_COST_USD,
    cached_tokens: int | None = None,
    price_cached: float | None = None,
) -> CallCost:
    """`reported` when the provider gave a sane figure; else tokens x price (USD per million
    tokens; the `cached_tokens` of the prompt at `price_cached` when given, else at the input
    price) marked `estimated`; else unknown, keeping any note."""
    if reported.usd is not None:
        return reported
    if None in (price_in, price_out, prompt_tokens, completion_tokens):
        return reported
    assert price_in is not None and price_out is not None
    prompt = prompt_tokens or 0
    cached = min(max(cached_tokens or 0, 0), prompt)
    rate = price_in if price_cached is None else price_cached
    fresh = (prompt - cached) * price_in + cached * rate
    usd = (fresh + (completion_tokens or 0) * price_out) / 1_000_000
    if not math.isfinite(usd) or usd > max_usd:
        note = f"estimated cost {usd:.3g} USD is outside [0, {max_usd:g}] USD: cost unknown"
        return CallCost(note="; ".join(n for n in (reported.note, note) if n))
    return CallCost(usd, "estimated", reported.note)

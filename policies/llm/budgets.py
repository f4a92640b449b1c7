"""The completion budget a lane sends: per benchmark, because one number cannot serve a two-word
move and an 81-digit grid alike.

A lane is built for one game and knows the benchmark whose questions it answers (its prompt
module says both, `ChatPrompt.benchmark` and `ChatPrompt.reply_tokens`). Its budget, in order:

1. the registry entry's `limits` for the lane's game or, failing that, its benchmark, exactly
   as written (`limits = { narcade = 120 }`, or `{ max_tokens = 6000, token_param = "..." }`);
2. otherwise the larger of the entry's `max_tokens` and the benchmark's own reply budget (the
   prompt's `reply_tokens`: what its answer format needs, with room for a sentence around it);
3. a reasoning model (a `reasoning` object that is not disabled, or a `reasoning_effort` other
   than "none") gets at least that reply budget plus room to reason: `reasoning.max_tokens`
   when given, else `REASONING_ALLOWANCE` for its effort, so thinking never eats the answer.

`token_param` follows the same order (a limit's own, else the entry's).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from policies.llm.client import TokenParam

DEFAULT_REPLY_TOKENS = 80
"""The reply budget of a prompt module that names none (a short JSON object or tag)."""

REASONING_ALLOWANCE: dict[str, int] = {
    "minimal": 2_048,
    "low": 8_192,
    "medium": 16_384,
    "high": 32_768,
}
"""Tokens a reasoning model may think before answering, by effort (rule 3 of the module)."""

DEFAULT_REASONING_ALLOWANCE = REASONING_ALLOWANCE["medium"]
"""For a reasoning model that names no effort (providers default to medium)."""


class Limit(BaseModel):
    """One benchmark's budget in a registry entry's `limits` (a bare number is `max_tokens`)."""

    model_config = ConfigDict(populate_by_name=True, extra="forbid", frozen=True)

    max_tokens: int = Field(ge=1, alias="maxTokens")
    token_param: TokenParam | None = Field(default=None, alias="tokenParam")


def as_limit(value: Any) -> Any:
    """A registry `limits` value as a Limit's fields (a number is its `max_tokens`)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return {"max_tokens": value}
    return value


def reasoning_allowance(
    reasoning: dict[str, Any] | None, reasoning_effort: str | None
) -> int | None:
    """How many tokens the model may spend reasoning (None: not a reasoning model)."""
    if reasoning is not None and reasoning.get("enabled") is not False:
        effort = reasoning.get("effort")
        if reasoning.get("max_tokens") is not None:
            return int(reasoning["max_tokens"])
        if effort is not None or reasoning.get("enabled") is True:
            return REASONING_ALLOWANCE.get(str(effort), DEFAULT_REASONING_ALLOWANCE)
    if reasoning_effort is not None and reasoning_effort != "none":
        return REASONING_ALLOWANCE.get(reasoning_effort, DEFAULT_REASONING_ALLOWANCE)
    return None


def lane_budget(
    *,
    max_tokens: int,
    token_param: TokenParam,
    limits: dict[str, Limit],
    keys: tuple[str, ...],
    reply_tokens: int,
    reasoning: dict[str, Any] | None,
    reasoning_effort: str | None,
) -> tuple[int, TokenParam]:
    """The (max_tokens, token_param) a lane sends: `limits[key]` for the first of `keys` (the
    lane's game, then its benchmark) that has one, else the rule of the module docstring."""
    for key in keys:
        limit = limits.get(key)
        if limit is not None:
            return limit.max_tokens, limit.token_param or token_param
    budget = max(max_tokens, reply_tokens)
    thinking = reasoning_allowance(reasoning, reasoning_effort)
    if thinking is not None:
        budget = max(budget, reply_tokens + thinking)
    return budget, token_param

"""What an agent CLI printed: the answer, and the tokens, cost and reasoning when the tool says.

Agent CLIs on a subscription bill no request, so their tokens are read from their structured
output and priced at the registry's list price (`ModelSpec.price`). Four shapes are read, told
apart by their content (a tool printing plain text is read as the answer, tokens unknown):

- Claude Code, `claude -p --output-format json`: one `{"type": "result", "result": TEXT,
  "is_error": BOOL, "usage": {input_tokens, output_tokens, cache_creation_input_tokens,
  cache_read_input_tokens}, "total_cost_usd": X, ...}` object (the JSON lines of
  `--output-format stream-json` too: their `result` line, and the thinking blocks of their
  assistant messages as the reasoning). Prompt tokens are input + cache writes + cache reads;
  the cache reads are the cached tokens.
- Codex, `codex exec --json`: JSON lines of events; the answer is the last `item.completed`
  agent message, the reasoning its `reasoning` items, the tokens the `turn.completed` usage
  {input_tokens (cached included), cached_input_tokens, output_tokens, reasoning_output_tokens}.
- Any other tool, the generic shape: one JSON object with only these keys,
  `{"reply": TEXT, "usage": {"input_tokens": N, "output_tokens": N, "cached_input_tokens": N,
  "reasoning_tokens": N}, "cost_usd": X, "reasoning": TEXT, "error": TEXT, "model": NAME}`
  (`reply` or `error` required, the rest optional; input tokens include the cached ones).
- An OpenAI chat-completion body (`{"choices": [...], "usage": {...}}`), read as a server's.

A tool that says the request failed (`is_error`, an `error_*` result, `turn.failed`, an `error`
without a reply) is a failure on our side (a usage limit, an outage): `CliOutput.error` is set and
the chat backend raises a service failure, so the game is aborted, never scored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from policies.llm.costs import MAX_CALL_COST_USD, CallCost, sane_cost
from policies.llm.responses import ChatReply, parse_json, reply_from

Shape = Literal["text", "claude-json", "codex-jsonl", "json", "chat-completion"]

GENERIC_KEYS = frozenset({"reply", "usage", "cost_usd", "reasoning", "error", "model"})
"""The keys of the generic shape (an object with any other key is a plain-text answer)."""

CODEX_EVENTS = frozenset(
    {
        "thread.started",
        "turn.started",
        "turn.completed",
        "turn.failed",
        "item.started",
        "item.updated",
        "item.completed",
    }
)
_AGENT_MESSAGES = ("agent_message", "assistant_message")
_ERROR_TEXT = 300


@dataclass(frozen=True)
class CliOutput:
    """One tool run read: the answer text, its shape, tokens (None: not said), the tool's own
    cost figure, the reasoning text, and `error` when the tool says the request failed."""

    text: str
    shape: Shape = "text"
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cached_tokens: int | None = None
    reasoning_tokens: int | None = None
    reported: CallCost = field(default_factory=CallCost)
    reasoning: str | None = None
    error: str | None = None
    finish_reason: str | None = "stop"


def _count(value: Any) -> int | None:
    """A token count: a whole, finite, non-negative number (anything else: not said)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not (value == value and abs(value) != float("inf")):
        return None
    return int(value) if value >= 0 else None


def _sum(*values: Any) -> int | None:
    counts = [_count(v) for v in values]
    known = [c for c in counts if c is not None]
    return sum(known) if known else None


def _brief(text: Any) -> str:
    shown = " ".join(str(text).split())
    return shown if len(shown) <= _ERROR_TEXT else shown[: _ERROR_TEXT - 3] + "..."


def _json_lines(stdout: str) -> list[Mapping[str, Any]]:
    """The JSON objects among the output's lines (other lines are skipped)."""
    out = []
    for line in stdout.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            value = parse_json(line)
        except (ValueError, RecursionError):
            continue
        if isinstance(value, Mapping):
            out.append(value)
    return out


def _is_claude_result(value: Any) -> bool:
    return (
        isinstance(value, Mapping)
        and value.get("type") == "result"
        and any(key in value for key in ("result", "is_error", "subtype"))
    )


def _claude(events: Sequence[Mapping[str, Any]], max_cost: float) -> CliOutput:
    """Claude Code's result object (the last one), with the thinking of its messages."""
    result = [e for e in events if _is_claude_result(e)][-1]
    thinking = []
    for event in events:
        message = event.get("message") if event.get("type") == "assistant" else None
        content = message.get("content") if isinstance(message, Mapping) else None
        for block in content if isinstance(content, list) else ():
            if isinstance(block, Mapping) and block.get("type") == "thinking":
                text = block.get("thinking")
                if isinstance(text, str) and text.strip():
                    thinking.append(text)
    usage = result.get("usage")
    usage = usage if isinstance(usage, Mapping) else {}
    text = result.get("result")
    text = text if isinstance(text, str) else ""
    subtype = result.get("subtype")
    error = None
    if result.get("is_error") is True or (isinstance(subtype, str) and subtype.startswith("error")):
        error = f"the tool reported an error ({subtype or 'is_error'}): {_brief(text or subtype)}"
    cost_key = "total_cost_usd" if "total_cost_usd" in result else "cost_usd"
    return CliOutput(
        text=text,
        shape="claude-json",
        prompt_tokens=_sum(
            usage.get("input_tokens"),
            usage.get("cache_creation_input_tokens"),
            usage.get("cache_read_input_tokens"),
        ),
        completion_tokens=_count(usage.get("output_tokens")),
        cached_tokens=_count(usage.get("cache_read_input_tokens")),
        reported=sane_cost(result.get(cost_key), cost_key, max_usd=max_cost),
        reasoning="\n\n".join(thinking) or None,
        error=error,
    )


def _codex(events: Sequence[Mapping[str, Any]]) -> CliOutput:
    """Codex's events: the last agent message, its reasoning items and the turn's usage."""
    answer: str | None = None
    reasoning: list[str] = []
    failures: list[str] = []
    completed = False
    totals: dict[str, int] = {}
    said: set[str] = set()
    for event in events:
        kind = event.get("type")
        item = event.get("item")
        if kind == "item.completed" and isinstance(item, Mapping):
            item_type = item.get("type", item.get("item_type"))
            text = item.get("text")
            if item_type in _AGENT_MESSAGES and isinstance(text, str):
                answer = text
            elif item_type == "reasoning" and isinstance(text, str) and text.strip():
                reasoning.append(text)
        elif kind == "turn.completed":
            completed = True
            usage = event.get("usage")
            for key, value in usage.items() if isinstance(usage, Mapping) else ():
                count = _count(value)
                if count is not None:
                    totals[key] = totals.get(key, 0) + count
                    said.add(key)
        elif kind == "turn.failed":
            error = event.get("error")
            message = error.get("message") if isinstance(error, Mapping) else error
            failures.append(_brief(message or "turn.failed"))
        elif kind == "error":
            failures.append(_brief(event.get("message") or "error"))
    error = None
    if failures and not (completed and answer is not None):
        error = f"the tool reported an error: {failures[-1]}"
    return CliOutput(
        text=answer or "",
        shape="codex-jsonl",
        prompt_tokens=totals.get("input_tokens") if "input_tokens" in said else None,
        completion_tokens=totals.get("output_tokens") if "output_tokens" in said else None,
        cached_tokens=totals.get("cached_input_tokens") if "cached_input_tokens" in said else None,
        reasoning_tokens=(
            totals.get("reasoning_output_tokens") if "reasoning_output_tokens" in said else None
        ),
        reasoning="\n\n".join(reasoning) or None,
        error=error,
    )


def _is_generic(value: Any) -> bool:
    return (
        isinstance(value, Mapping)
        and set(value) <= GENERIC_KEYS
        and (isinstance(value.get("reply"), str) or isinstance(value.get("error"), str))
    )


def _generic(value: Mapping[str, Any], max_cost: float) -> CliOutput:
    usage = value.get("usage")
    usage = usage if isinstance(usage, Mapping) else {}
    reply = value.get("reply")
    error = value.get("error")
    reasoning = value.get("reasoning")
    return CliOutput(
        text=reply if isinstance(reply, str) else "",
        shape="json",
        prompt_tokens=_count(usage.get("input_tokens")),
        completion_tokens=_count(usage.get("output_tokens")),
        cached_tokens=_count(usage.get("cached_input_tokens")),
        reasoning_tokens=_count(usage.get("reasoning_tokens")),
        reported=sane_cost(value.get("cost_usd"), "cost_usd", max_usd=max_cost),
        reasoning=reasoning if isinstance(reasoning, str) and reasoning.strip() else None,
        error=(
            f"the tool reported an error: {_brief(error)}"
            if isinstance(error, str) and error.strip()
            else None
        ),
    )


def _completion(reply: ChatReply) -> CliOutput:
    return CliOutput(
        text=reply.text or reply.refusal or "",
        shape="chat-completion",
        prompt_tokens=reply.prompt_tokens,
        completion_tokens=reply.completion_tokens,
        cached_tokens=reply.cached_tokens,
        reasoning_tokens=reply.reasoning_tokens,
        reported=reply.reported,
        reasoning=reply.reasoning,
        finish_reason=reply.finish_reason,
    )


def read_cli_output(stdout: str, *, max_cost: float = MAX_CALL_COST_USD) -> CliOutput:
    """What `stdout` says, in whichever of the module's shapes it is (else plain text)."""
    stripped = stdout.strip()
    document: Any = None
    if stripped[:1] in ("{", "["):
        try:
            document = parse_json(stripped)
        except (ValueError, RecursionError):
            document = None
    if isinstance(document, Mapping):
        if _is_claude_result(document):
            return _claude([document], max_cost)
        if _is_generic(document):
            return _generic(document, max_cost)
        if isinstance(document.get("choices"), list):
            reply = reply_from(document, {}, "the tool's output", max_cost)
            if isinstance(reply, ChatReply):
                return _completion(reply)
        return CliOutput(stdout)
    if isinstance(document, list) and any(_is_claude_result(e) for e in document):
        return _claude([e for e in document if isinstance(e, Mapping)], max_cost)
    if document is None and "\n" in stripped:
        events = _json_lines(stripped)
        if any(e.get("type") in CODEX_EVENTS for e in events):
            return _codex(events)
        if any(_is_claude_result(e) for e in events):
            return _claude(events, max_cost)
    return CliOutput(stdout)

"""What an OpenAI-compatible server's HTTP answer means (`client.py` sends the requests).

A completion body becomes a `ChatReply` (text, usage, the provider's cost, the raw body); anything
else becomes an `AttemptFailure` carrying the typed error (`policies/llm/errors.py`) and whether
another attempt may help: a missing or refused key, no credit or an unknown model is fatal; 429,
5xx, 408, an error inside a 200 or a body that is not a completion is retried.
"""

from __future__ import annotations

import contextlib
import email.utils
import json
import math
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

from policies.llm.costs import COST_HEADER, CallCost, reported_cost
from policies.llm.errors import FatalModelError, LLMError, ServiceFailure, ServiceReason

_MODEL_MISSING = re.compile(
    r"not a valid model|no endpoints found|(no such|unknown|invalid) model|"
    r"model.{0,200}?(not found|does not exist|is not available|unknown)",
    re.IGNORECASE | re.DOTALL,
)
_ERROR_TEXT_CHARS = 300
_MAX_INT_DIGITS = 4000


@dataclass(frozen=True)
class ChatReply:
    """One completion: the whole text, usage, the provider's cost, and the raw body.

    `cost_usd` is only what the provider reported, when sane (`reported.note` says why a figure
    was refused); pricing from tokens is the registry's job (`ModelSpec.price`). `refusal` is the
    structured-output refusal text when the server sent one. `latency_ms` covers the whole call,
    retries and waits included; `from_cache` marks a reply served by the response cache;
    `cache_key` is the request hash under which a cache-enabled client stores or found it (None
    without a cache); `cost_header` keeps LiteLLM's raw cost header (the cache stores it with
    the body). `reasoning` is the reasoning text the server returned beside the answer
    (`reasoning_content`, `reasoning` or OpenRouter's `reasoning_details`; None: none).
    """

    text: str
    prompt_tokens: int | None
    completion_tokens: int | None
    cost_usd: float | None
    raw: dict[str, Any]
    retries: int = 0
    refusal: str | None = None
    finish_reason: str | None = None
    latency_ms: float = 0.0
    reasoning_tokens: int | None = None
    cached_tokens: int | None = None
    reported: CallCost = field(default_factory=CallCost)
    cost_header: str | None = None
    from_cache: bool = False
    cache_key: str | None = None
    reasoning: str | None = None


@dataclass
class AttemptFailure:
    """A failed attempt: the error to raise, and whether another attempt may help."""

    error: LLMError
    retryable: bool
    retry_after_s: float | None = None


def _brief(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _ERROR_TEXT_CHARS else text[: _ERROR_TEXT_CHARS - 3] + "..."


def _error_text(body: Any, fallback: str) -> str:
    """The human part of an OpenAI-style error body (`{"error": {"message": ...}}`)."""
    if isinstance(body, Mapping):
        error = body.get("error", body)
        if isinstance(error, Mapping):
            message = error.get("message") or error.get("detail")
            if message:
                return _brief(str(message))
        elif isinstance(error, str) and error:
            return _brief(error)
        detail = body.get("detail") or body.get("message")
        if detail:
            return _brief(str(detail))
    return _brief(fallback)


def _safe_int(text: str) -> int | float:
    """JSON integers, but a number too long for `int()` becomes a float (inf) instead of raising."""
    return int(text) if len(text) <= _MAX_INT_DIGITS else float(text)


def parse_json(text: str | bytes) -> Any:
    """JSON that never raises for huge numbers (ValueError only for text that is not JSON)."""
    return json.loads(text, parse_int=_safe_int)


def _as_int(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return int(value) if value >= 0 else None


def _detail(usage: Mapping[str, Any], block: str, key: str) -> int | None:
    details = usage.get(block)
    return _as_int(details.get(key)) if isinstance(details, Mapping) else None


def _content_text(content: Any) -> str:
    """Message content as text: a string, or the text parts of a content-part list."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [p.get("text", "") for p in content if isinstance(p, Mapping)]
        return "".join(p for p in parts if isinstance(p, str))
    return ""


def reasoning_text(message: Mapping[str, Any]) -> str | None:
    """The reasoning a reply message carries beside its answer: `reasoning_content` (DeepSeek,
    vLLM, llama.cpp), `reasoning` (OpenRouter, Ollama), else the readable parts of OpenRouter's
    `reasoning_details` (text and summaries; encrypted parts carry none). None when there is
    none."""
    for key in ("reasoning_content", "reasoning"):
        text = _content_text(message.get(key))
        if text.strip():
            return text
    details = message.get("reasoning_details")
    if isinstance(details, list):
        parts = []
        for part in details:
            if isinstance(part, Mapping):
                value = part.get("text") or part.get("summary")
                if isinstance(value, str) and value.strip():
                    parts.append(value)
        if parts:
            return "\n\n".join(parts)
    return None


def retry_after(headers: httpx.Headers) -> float | None:
    """The server's wait: `retry-after-ms`, `retry-after` seconds or an HTTP date."""
    millis = headers.get("retry-after-ms")
    if millis is not None:
        with contextlib.suppress(ValueError):
            return max(0.0, float(millis) / 1000.0)
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        seconds = when.timestamp() - time.time()
    return max(0.0, seconds) if math.isfinite(seconds) else None


def judge_response(
    response: httpx.Response, model: str, url: str, api_key_env: str | None, max_cost: float
) -> ChatReply | AttemptFailure:
    """What an HTTP answer means: a ChatReply, or the failure to raise or retry (the server's
    error text, its Retry-After, and whether another attempt may help)."""
    status = response.status_code
    try:
        data: Any = parse_json(response.content)
    except (ValueError, UnicodeDecodeError, RecursionError):
        data = None
    if status >= 400 or (isinstance(data, Mapping) and "error" in data and "choices" not in data):
        code = status
        if status < 400 and isinstance(data, Mapping):  # an error inside a 200 (OpenRouter)
            error = data.get("error")
            inner = error.get("code") if isinstance(error, Mapping) else None
            code = inner if isinstance(inner, int) and not isinstance(inner, bool) else 502
        text = _error_text(data, response.text or response.reason_phrase)
        inside = status < 400
        return _classify(code, text, model, retry_after(response.headers), inside, url, api_key_env)
    if not isinstance(data, Mapping):
        message = f"{url} answered {status} with a body that is not JSON"
        return AttemptFailure(ServiceFailure(message, reason="provider", status=status), True)
    return reply_from(data, response.headers, url, max_cost)


def _classify(
    status: int,
    text: str,
    model: str,
    retry_after_s: float | None,
    inside: bool,
    url: str,
    api_key_env: str | None,
) -> AttemptFailure:
    """The typed failure of an error status: fatal for the key, credit or model, else a service
    failure, retryable when another attempt may help."""
    where = f"{url} answered {status}" + (" inside a 200" if inside else "")
    if status in (401, 403):
        key = f" in ${api_key_env}" if api_key_env else ""
        message = f"{where}: the API key{key} was refused ({text})"
        return AttemptFailure(FatalModelError(message, reason="auth", status=status), False)
    if status == 402:
        message = f"{where}: payment required, the account is out of credit ({text})"
        return AttemptFailure(FatalModelError(message, reason="payment", status=status), False)
    if status == 404 or (status in (400, 422) and _MODEL_MISSING.search(text)):
        message = (
            f"{where}: unknown model {model!r} ({text}); check the model id in the registry "
            "and that the base URL ends in /v1"
        )
        return AttemptFailure(FatalModelError(message, reason="model", status=status), False)
    message = f"{where}: {text}"
    if status == 429:
        return AttemptFailure(
            ServiceFailure(message, reason="rate-limit", status=status), True, retry_after_s
        )
    if status in (408, 409, 425) or status >= 500:
        reason: ServiceReason = "provider" if inside else "server"
        if status == 408:
            reason = "timeout"
        failure = ServiceFailure(message, reason=reason, status=status)
        return AttemptFailure(failure, True, retry_after_s)
    return AttemptFailure(ServiceFailure(message, reason="rejected", status=status), False)


def reply_from(
    data: Mapping[str, Any], headers: Mapping[str, str], url: str, max_cost: float
) -> ChatReply | AttemptFailure:
    """A ChatReply from a completion body, or a retryable provider failure when it is not one."""
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], Mapping):
        problem = f"{url} sent no choices: {_brief(json.dumps(data, default=str))}"
        return AttemptFailure(ServiceFailure(problem, reason="provider"), True)
    first = choices[0]
    message = first.get("message")
    message = message if isinstance(message, Mapping) else {}
    refusal = message.get("refusal")
    usage = data.get("usage")
    usage = usage if isinstance(usage, Mapping) else {}
    finish = first.get("finish_reason")
    cost = reported_cost(usage.get("cost"), headers.get(COST_HEADER), max_usd=max_cost)
    return ChatReply(
        text=_content_text(message.get("content")),
        prompt_tokens=_as_int(usage.get("prompt_tokens")),
        completion_tokens=_as_int(usage.get("completion_tokens")),
        cost_usd=cost.usd,
        raw=dict(data),
        refusal=refusal if isinstance(refusal, str) and refusal.strip() else None,
        finish_reason=finish if isinstance(finish, str) else None,
        reasoning_tokens=_detail(usage, "completion_tokens_details", "reasoning_tokens"),
        cached_tokens=_detail(usage, "prompt_tokens_details", "cached_tokens"),
        reported=cost,
        cost_header=headers.get(COST_HEADER),
        reasoning=reasoning_text(message),
    )

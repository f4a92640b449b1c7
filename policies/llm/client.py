"""An async OpenAI chat-completions client over httpx, for any compatible server.

One client speaks to a hosted router (OpenRouter by default), LiteLLM, vLLM, llama.cpp's server or
Ollama's `/v1`. It is async so the harness can cancel a call (Blitz: the piece locked; IQ: the
budget ran out): cancelling the awaiting task aborts the HTTP request and closes its connection.

Failures are typed (`policies/llm/errors.py`): service failures (connection errors, 429, 5xx,
408, HTTP timeouts, an error inside a 200, a body that is not a completion) are retried with
seeded exponential backoff and jitter, never sooner than the server's `Retry-After`, for as long
as the caller's deadline leaves time for another attempt (without a deadline: `max_retries`,
default 4), then raised as `ServiceFailure`; a 4xx the server refuses is a `ServiceFailure` at
once (`rejected`); a missing or refused key, no credit or an unknown model is `FatalModelError`.
A reply, however unreadable, is returned: judging it is the prompt module's job.

Per call the reply carries what telemetry needs: prompt, completion, reasoning and cached tokens,
the provider's cost (`usage.cost`, else LiteLLM's `x-litellm-response-cost` header; an absurd
figure is dropped with a note, `policies/llm/costs.py`), retries, latency and the whole body.
Options: a response cache (`policies/llm/cache.py`), a requests-per-minute limit
(`policies/llm/rate_limit.py`) and the run's cost meter (`policies/llm/cost_meter.py`).
"""

from __future__ import annotations

import asyncio
import contextlib
import email.utils
import ipaddress
import json
import math
import os
import random
import re
import threading
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal
from urllib.parse import urlsplit

import httpx

from policies.llm.cache import CachedResponse, ResponseCache, request_key
from policies.llm.cost_meter import CostMeter
from policies.llm.costs import COST_HEADER, MAX_CALL_COST_USD, CallCost, reported_cost
from policies.llm.errors import (
    CallCancelledError,
    FatalModelError,
    FatalReason,
    LLMError,
    ModelCallError,
    ServiceFailure,
    ServiceReason,
)
from policies.llm.rate_limit import RateLimiter

__all__ = [
    "CallCancelledError",
    "CancelSignal",
    "ChatClient",
    "ChatReply",
    "FatalModelError",
    "FatalReason",
    "LLMError",
    "ModelCallError",
    "ServiceFailure",
    "TokenParam",
    "is_loopback",
]

DEFAULT_BASE_URL = "https://openrouter.ai/api/v1"
DEFAULT_API_KEY_ENV = "OPENROUTER_API_KEY"
DEFAULT_TIMEOUT_S = 60.0
DEFAULT_MAX_RETRIES = 4
"""Retries of a call without a deadline (with one, the deadline is the bound)."""

DEADLINE_GRACE_S = 1.0
"""How long past the caller's deadline a request may still run before httpx gives up itself: the
caller (the harness's `wait_for`) owns the deadline and cancels first; this is only a backstop."""

TokenParam = Literal["max_tokens", "max_completion_tokens", "none"]
"""How the completion budget is sent: the classic key, the one OpenAI's reasoning models require,
or not at all (the server's default)."""

_MODEL_MISSING = re.compile(
    r"not a valid model|no endpoints found|(no such|unknown|invalid) model|"
    r"model.{0,200}?(not found|does not exist|is not available|unknown)",
    re.IGNORECASE | re.DOTALL,
)
_ERROR_TEXT_CHARS = 300
_MAX_INT_DIGITS = 4000

_sleep = asyncio.sleep  # the backoff's wait (a seam for tests)

Message = Mapping[str, Any]
CancelSignal = asyncio.Event | threading.Event


@dataclass(frozen=True)
class ChatReply:
    """One completion: the whole text, usage, the provider's cost, and the raw body.

    `cost_usd` is only what the provider reported, when sane (`reported.note` says why a figure
    was refused); pricing from tokens is the registry's job (`ModelSpec.price`). `refusal` is the
    structured-output refusal text when the server sent one. `latency_ms` covers the whole call,
    retries and waits included; `from_cache` marks a reply served by the response cache;
    `cache_key` is the request hash under which a cache-enabled client stores or found it (None
    without a cache); `cost_header` keeps LiteLLM's raw cost header (the cache stores it with
    the body).
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


@dataclass
class _Failure:
    """A failed attempt: the error to raise, and whether another attempt may help."""

    error: LLMError
    retryable: bool
    retry_after_s: float | None = None


def is_loopback(base_url: str) -> bool:
    """Whether `base_url` points at this machine (local servers need no API key)."""
    host = (urlsplit(base_url).hostname or "").strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


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


def _retry_after(headers: httpx.Headers) -> float | None:
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


def _plural(n: int) -> str:
    return f"{n} retr{'y' if n == 1 else 'ies'}"


class ChatClient:
    """Chat completions against one OpenAI-compatible base URL.

    The API key is read from `api_key_env` at call time (None, or a loopback server without the
    variable set: no key is sent). One `httpx.AsyncClient` is kept per event loop, because pooled
    connections belong to the loop that opened them (the harness's loop, a pre-flight's own).
    `transport` replaces the network (tests use `httpx.MockTransport`); `seed` fixes the jitter.
    """

    def __init__(
        self,
        base_url: str = DEFAULT_BASE_URL,
        api_key_env: str | None = DEFAULT_API_KEY_ENV,
        extra_headers: Mapping[str, str] | None = None,
        timeout: float = DEFAULT_TIMEOUT_S,
        *,
        max_retries: int | None = None,
        backoff_base_s: float = 0.5,
        backoff_cap_s: float = 8.0,
        seed: int = 0,
        transport: httpx.AsyncBaseTransport | None = None,
        cache: ResponseCache | None = None,
        rate_limiter: RateLimiter | None = None,
        max_call_cost_usd: float = MAX_CALL_COST_USD,
    ) -> None:
        if max_retries is not None and max_retries < 0:
            raise ValueError(f"max_retries must be >= 0, got {max_retries}")
        self.base_url = base_url.rstrip("/")
        self.api_key_env = api_key_env or None
        self.extra_headers = dict(extra_headers or {})
        self.timeout = float(timeout)
        self.max_retries = max_retries
        self.backoff_base_s = backoff_base_s
        self.backoff_cap_s = backoff_cap_s
        self.cache = cache
        self.rate_limiter = rate_limiter
        self.max_call_cost_usd = max_call_cost_usd
        self.requests_sent = 0
        self._rng = random.Random(seed)
        self._transport = transport
        self._clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, httpx.AsyncClient] = (
            weakref.WeakKeyDictionary()
        )
        self._clients_lock = threading.Lock()  # loops on several threads share this client

    @property
    def url(self) -> str:
        """The chat-completions endpoint."""
        return f"{self.base_url}/chat/completions"

    # ----------------------------------------------------------------------------------------
    # Keys and connections
    # ----------------------------------------------------------------------------------------

    def api_key(self) -> str | None:
        """The key to send, or None; raises FatalModelError when a needed key is missing."""
        if self.api_key_env is None:
            return None
        key = os.environ.get(self.api_key_env, "").strip()
        if key:
            return key
        if is_loopback(self.base_url):
            return None
        raise FatalModelError(
            f"{self.api_key_env} is not set: {self.base_url} needs an API key; "
            f"export {self.api_key_env}=<your key>",
            reason="api-key",
        )

    def key_note(self) -> str:
        """Whether a key is sent, for error messages (never the key itself)."""
        try:
            key = self.api_key()
        except FatalModelError:
            key = None
        if key:
            return f"an API key from ${self.api_key_env} was sent"
        return "no API key was sent"

    def _http(self) -> httpx.AsyncClient:
        loop = asyncio.get_running_loop()
        with self._clients_lock:
            client = self._clients.get(loop)
            if client is None or client.is_closed:
                client = httpx.AsyncClient(transport=self._transport, timeout=self.timeout)
                self._clients[loop] = client
            return client

    async def aclose(self) -> None:
        """Close this event loop's connections (call before a private loop ends)."""
        loop = asyncio.get_running_loop()
        with self._clients_lock:
            client = self._clients.pop(loop, None)
        if client is not None:
            await client.aclose()

    def headers(self) -> dict[str, str]:
        """Request headers: JSON, the bearer key when there is one, then the extras."""
        out = {"Content-Type": "application/json", "Accept": "application/json"}
        key = self.api_key()
        if key:
            out["Authorization"] = f"Bearer {key}"
        out.update(self.extra_headers)
        return out

    # ----------------------------------------------------------------------------------------
    # The call
    # ----------------------------------------------------------------------------------------

    @staticmethod
    def build_body(
        messages: Sequence[Message],
        *,
        model: str,
        temperature: float | None = None,
        max_tokens: int | None = None,
        token_param: TokenParam = "max_tokens",
        response_format: Mapping[str, Any] | None = None,
        reasoning: Mapping[str, Any] | None = None,
        reasoning_effort: str | None = None,
        extra_body: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """The request body: the completion budget under `token_param` (none: not sent), the
        OpenRouter `reasoning` object and/or the OpenAI-native `reasoning_effort`, then
        `extra_body` (e.g. OpenRouter's `provider` routing) merged last."""
        body: dict[str, Any] = {"model": model, "messages": [dict(m) for m in messages]}
        if temperature is not None:
            body["temperature"] = temperature
        if max_tokens is not None and token_param != "none":
            body[token_param] = max_tokens
        if response_format is not None:
            body["response_format"] = dict(response_format)
        if reasoning:
            body["reasoning"] = dict(reasoning)
        if reasoning_effort is not None:
            body["reasoning_effort"] = reasoning_effort
        if extra_body:
            body.update(extra_body)
        return body

    async def complete(
        self,
        messages: Sequence[Message],
        *,
        deadline: float | None = None,
        cancel: CancelSignal | None = None,
        **options: Any,
    ) -> ChatReply:
        """One chat completion: `build_body(messages, **options)` (model, temperature,
        max_tokens, token_param, response_format, reasoning, reasoning_effort, extra_body), then
        `send`."""
        return await self.send(
            self.build_body(messages, **options), deadline=deadline, cancel=cancel
        )

    async def send(
        self,
        body: dict[str, Any],
        *,
        deadline: float | None = None,
        cancel: CancelSignal | None = None,
        meter: CostMeter | None = None,
        worst_case_usd: float = 0.0,
        cost_of: Callable[[ChatReply], float | None] | None = None,
    ) -> ChatReply:
        """Send `body`, retried on service failures while `deadline` allows.

        `deadline` is a `time.monotonic()` instant (None: `max_retries` bounds the retries).
        `cancel`, when set, aborts the request (`CallCancelledError`); cancelling the awaiting
        task does the same by raising `CancelledError`. A cached reply is returned without any
        request, and without charging `meter`. Otherwise `meter` books `worst_case_usd` first
        (CostCapReached: nothing is sent) and is settled with `cost_of(reply)`, the estimate for
        a call cut off after it was sent, or nothing for a call that got no reply.
        """
        key = None
        if self.cache is not None:
            key = request_key(self.url, body, self.extra_headers)
            hit = self.cache.get(key)
            if hit is not None:
                cached = _reply_from(hit.body, hit.headers, self.url, self.max_call_cost_usd)
                if isinstance(cached, ChatReply):
                    return replace(
                        cached,
                        retries=hit.retries,
                        latency_ms=hit.latency_ms,
                        from_cache=True,
                        cache_key=key,
                    )
        model = str(body.get("model"))
        booking = meter.reserve(model, worst_case_usd) if meter is not None else None
        try:
            work = self._with_retries(body, deadline)
            reply = await (work if cancel is None else _race_cancel(work, cancel))
        except (asyncio.CancelledError, CallCancelledError):
            if meter is not None and booking is not None:
                meter.settle(booking, None)  # cut off after it was sent: billed at the estimate
            raise
        except ServiceFailure as exc:
            if meter is not None and booking is not None:
                if exc.reason == "timeout":
                    meter.settle(booking, None)
                else:
                    meter.release(booking)
            raise
        except BaseException:
            if meter is not None and booking is not None:
                meter.release(booking)
            raise
        if meter is not None and booking is not None:
            meter.settle(booking, cost_of(reply) if cost_of is not None else reply.cost_usd)
        if self.cache is not None and key is not None:
            headers = {COST_HEADER: reply.cost_header} if reply.cost_header is not None else {}
            self.cache.put(key, CachedResponse(reply.raw, headers, reply.latency_ms, reply.retries))
            reply = replace(reply, cache_key=key)
        return reply

    async def _with_retries(self, body: dict[str, Any], deadline: float | None) -> ChatReply:
        retries = 0
        t0 = time.perf_counter()
        cap = self.max_retries
        if cap is None and deadline is None:
            cap = DEFAULT_MAX_RETRIES
        while True:
            if self.rate_limiter is not None:
                await self.rate_limiter.wait(deadline)
            outcome = await self._attempt(body, deadline)
            if isinstance(outcome, ChatReply):
                latency = (time.perf_counter() - t0) * 1000.0
                return replace(outcome, retries=retries, latency_ms=latency)
            error = outcome.error
            if isinstance(error, ModelCallError):
                error.retries = retries
            if not outcome.retryable:
                raise error
            delay = self._backoff(retries, outcome.retry_after_s)
            exhausted = cap is not None and retries >= cap
            if exhausted or not _time_left(deadline, delay):
                why = "retries exhausted" if exhausted else "no time left"
                reason: ServiceReason = (
                    error.reason if isinstance(error, ServiceFailure) else "provider"
                )
                raise ServiceFailure(
                    f"{error} ({why} after {_plural(retries)})",
                    reason=reason,
                    status=getattr(error, "status", None),
                    retries=retries,
                ) from error
            await _sleep(delay)
            retries += 1

    def _backoff(self, retries: int, retry_after_s: float | None) -> float:
        """Exponential backoff with seeded "equal jitter", never sooner than Retry-After."""
        ceiling = min(self.backoff_cap_s, self.backoff_base_s * 2.0**retries)
        delay = ceiling * (0.5 + 0.5 * self._rng.random())
        if retry_after_s is not None:
            delay = max(delay, retry_after_s)
        return delay

    def _request_timeout(self, deadline: float | None) -> float:
        if deadline is None:
            return self.timeout
        left = deadline - time.monotonic() + DEADLINE_GRACE_S
        return max(0.05, min(self.timeout, left))

    async def _attempt(self, body: dict[str, Any], deadline: float | None) -> ChatReply | _Failure:
        headers = self.headers()  # a missing key raises FatalModelError before any traffic
        self.requests_sent += 1
        try:
            response = await self._http().post(
                self.url, json=body, headers=headers, timeout=self._request_timeout(deadline)
            )
        except httpx.TimeoutException as exc:
            message = f"timed out talking to {self.url}: {exc!r}"
            return _Failure(ServiceFailure(message, reason="timeout"), True)
        except httpx.TransportError as exc:
            message = f"cannot reach {self.url}: {type(exc).__name__}: {exc}"
            return _Failure(ServiceFailure(message, reason="connection"), True)
        return self._judge(response, str(body.get("model")))

    def _judge(self, response: httpx.Response, model: str) -> ChatReply | _Failure:
        status = response.status_code
        try:
            data: Any = parse_json(response.content)
        except (ValueError, UnicodeDecodeError, RecursionError):
            data = None
        if status >= 400 or (
            isinstance(data, Mapping) and "error" in data and "choices" not in data
        ):
            code = status
            if status < 400 and isinstance(data, Mapping):  # an error inside a 200 (OpenRouter)
                error = data.get("error")
                inner = error.get("code") if isinstance(error, Mapping) else None
                code = inner if isinstance(inner, int) and not isinstance(inner, bool) else 502
            text = _error_text(data, response.text or response.reason_phrase)
            inside = status < 400
            return self._classify(code, text, model, _retry_after(response.headers), inside)
        if not isinstance(data, Mapping):
            message = f"{self.url} answered {status} with a body that is not JSON"
            return _Failure(ServiceFailure(message, reason="provider", status=status), True)
        return _reply_from(data, response.headers, self.url, self.max_call_cost_usd)

    def _classify(
        self, status: int, text: str, model: str, retry_after_s: float | None, inside: bool
    ) -> _Failure:
        where = f"{self.url} answered {status}" + (" inside a 200" if inside else "")
        if status in (401, 403):
            key = f" in ${self.api_key_env}" if self.api_key_env else ""
            message = f"{where}: the API key{key} was refused ({text})"
            return _Failure(FatalModelError(message, reason="auth", status=status), False)
        if status == 402:
            message = f"{where}: payment required, the account is out of credit ({text})"
            return _Failure(FatalModelError(message, reason="payment", status=status), False)
        if status == 404 or (status in (400, 422) and _MODEL_MISSING.search(text)):
            message = (
                f"{where}: unknown model {model!r} ({text}); check the model id in the registry "
                "and that the base URL ends in /v1"
            )
            return _Failure(FatalModelError(message, reason="model", status=status), False)
        message = f"{where}: {text}"
        if status == 429:
            return _Failure(
                ServiceFailure(message, reason="rate-limit", status=status), True, retry_after_s
            )
        if status in (408, 409, 425) or status >= 500:
            reason: ServiceReason = "provider" if inside else "server"
            if status == 408:
                reason = "timeout"
            failure = ServiceFailure(message, reason=reason, status=status)
            return _Failure(failure, True, retry_after_s)
        return _Failure(ServiceFailure(message, reason="rejected", status=status), False)


def _reply_from(
    data: Mapping[str, Any], headers: Mapping[str, str], url: str, max_cost: float
) -> ChatReply | _Failure:
    """A ChatReply from a completion body, or a retryable provider failure when it is not one."""
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], Mapping):
        problem = f"{url} sent no choices: {_brief(json.dumps(data, default=str))}"
        return _Failure(ServiceFailure(problem, reason="provider"), True)
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
    )


def _time_left(deadline: float | None, delay: float) -> bool:
    """Whether sleeping `delay` still leaves a sliver of the budget for another attempt."""
    return deadline is None or time.monotonic() + delay < deadline


async def _race_cancel(work: Any, cancel: CancelSignal) -> ChatReply:
    """Await `work` unless `cancel` fires first, in which case the request task is cancelled
    (closing its connection) and CallCancelledError is raised."""
    task: asyncio.Task[ChatReply] = asyncio.ensure_future(work)
    waiter = asyncio.ensure_future(_wait_signal(cancel))
    try:
        await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        waiter.cancel()
        if not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
    if task.cancelled():
        raise CallCancelledError("the call was cancelled before the model answered")
    return task.result()


async def _wait_signal(cancel: CancelSignal) -> None:
    if isinstance(cancel, asyncio.Event):
        await cancel.wait()
        return
    while not cancel.is_set():  # a threading.Event cannot be awaited: poll it
        await asyncio.sleep(0.02)

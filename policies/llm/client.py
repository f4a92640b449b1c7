"""An async OpenAI chat-completions client over httpx, for any compatible server.

One client speaks to a hosted router (OpenRouter by default), LiteLLM, vLLM, llama.cpp's server or
Ollama's `/v1`. It is async so the harness can cancel a call (Blitz: the piece locked; IQ: the
budget ran out): cancelling the awaiting task aborts the HTTP request and closes its connection.

Failures are typed (`policies/llm/errors.py`): service failures (connection errors, 429, 5xx,
408, HTTP timeouts, an error inside a 200, a body that is not a completion) are retried with
seeded exponential backoff and jitter, never sooner than the server's `Retry-After`, for as long
as the caller's deadline leaves time for another attempt (without a deadline: `max_retries`,
default 4; a server that cannot be reached at all: at most `MAX_CONNECTION_RETRIES` in a row,
whatever the deadline), then raised as `ServiceFailure`; a 4xx the server refuses is a
`ServiceFailure` at once (`rejected`); a missing or refused key, no credit or an unknown model
is `FatalModelError`.
A reply, however unreadable, is returned: judging it is the prompt module's job. What a server's
answer means is read in `policies/llm/responses.py`; cancelling from outside is
`policies/llm/cancel.py`.

Per call the reply carries what telemetry needs: prompt, completion, reasoning and cached tokens,
the provider's cost (`usage.cost`, else LiteLLM's `x-litellm-response-cost` header; an absurd
figure is dropped with a note, `policies/llm/costs.py`), retries, latency and the whole body.
Options: a response cache (`policies/llm/cache.py`), a requests-per-minute limit
(`policies/llm/rate_limit.py`) and the run's cost meter (`policies/llm/cost_meter.py`).
"""

from __future__ import annotations

import asyncio
import ipaddress
import os
import random
import threading
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Literal
from urllib.parse import urlsplit

import httpx

from policies.llm.cache import CachedResponse, ResponseCache, request_key
from policies.llm.cancel import CancelSignal, race_cancel
from policies.llm.cost_meter import CostMeter
from policies.llm.costs import COST_HEADER, MAX_CALL_COST_USD
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
from policies.llm.responses import AttemptFailure, ChatReply, judge_response, parse_json, reply_from

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
    "parse_json",
]

DEFAULT_BASE_URL = "https://openrouter.ai/api/v1"
DEFAULT_API_KEY_ENV = "OPENROUTER_API_KEY"
DEFAULT_TIMEOUT_S = 60.0
DEFAULT_MAX_RETRIES = 4
"""Retries of a call without a deadline (with one, the deadline is the bound)."""

MAX_CONNECTION_RETRIES = 4
"""Retries in a row of a server that cannot be reached at all, even when the deadline leaves
time for more: a refused connection after about eight seconds of backoff is an outage, and a long
safety-net deadline (a benchmark's 15 minutes) must not keep a dead endpoint's games waiting."""

DEADLINE_GRACE_S = 1.0
"""How long past the caller's deadline a request may still run before httpx gives up itself: the
caller (the harness's `wait_for`) owns the deadline and cancels first; this is only a backstop."""

TokenParam = Literal["max_tokens", "max_completion_tokens", "none"]
"""How the completion budget is sent: the classic key, the one OpenAI's reasoning models require,
or not at all (the server's default)."""

_sleep = asyncio.sleep  # the backoff's wait (a seam for tests)

Message = Mapping[str, Any]


def is_loopback(base_url: str) -> bool:
    """Whether `base_url` points at this machine (local servers need no API key)."""
    host = (urlsplit(base_url).hostname or "").strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


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
        attempt: int = 1,
    ) -> ChatReply:
        """Send `body`, retried on service failures while `deadline` allows.

        `deadline` is a `time.monotonic()` instant (None: `max_retries` bounds the retries).
        `cancel`, when set, aborts the request (`CallCancelledError`); cancelling the awaiting
        task does the same by raising `CancelledError`. A cached reply (of this `attempt` at
        the request, `policies/llm/cache.py`) is returned without any request, and without
        charging `meter`. Otherwise `meter` books `worst_case_usd` first (CostCapReached:
        nothing is sent) and is settled with `cost_of(reply)`, the estimate for a call cut off
        after it was sent, or nothing for a call that got no reply.
        """
        key = None
        if self.cache is not None:
            key = request_key(self.url, body, self.extra_headers, attempt)
            hit = self.cache.get(key)
            if hit is not None:
                cached = reply_from(hit.body, hit.headers, self.url, self.max_call_cost_usd)
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
            reply = await (work if cancel is None else race_cancel(work, cancel))
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
        unreachable_in_a_row = 0
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
            unreachable = isinstance(error, ServiceFailure) and error.reason == "connection"
            unreachable_in_a_row = unreachable_in_a_row + 1 if unreachable else 0
            exhausted = (cap is not None and retries >= cap) or (
                unreachable_in_a_row > MAX_CONNECTION_RETRIES
            )
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

    async def _attempt(
        self, body: dict[str, Any], deadline: float | None
    ) -> ChatReply | AttemptFailure:
        headers = self.headers()  # a missing key raises FatalModelError before any traffic
        self.requests_sent += 1
        try:
            response = await self._http().post(
                self.url, json=body, headers=headers, timeout=self._request_timeout(deadline)
            )
        except httpx.TimeoutException as exc:
            message = f"timed out talking to {self.url}: {exc!r}"
            return AttemptFailure(ServiceFailure(message, reason="timeout"), True)
        except httpx.TransportError as exc:
            message = f"cannot reach {self.url}: {type(exc).__name__}: {exc}"
            return AttemptFailure(ServiceFailure(message, reason="connection"), True)
        return judge_response(
            response, str(body.get("model")), self.url, self.api_key_env, self.max_call_cost_usd
        )


def _time_left(deadline: float | None, delay: float) -> bool:
    """Whether sleeping `delay` still leaves a sliver of the budget for another attempt."""
    return deadline is None or time.monotonic() + delay < deadline

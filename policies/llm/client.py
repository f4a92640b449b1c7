"""An async OpenAI chat-completions client over httpx, for any compatible server.

One client speaks to a hosted router (OpenRouter by default), vLLM, llama.cpp's server or Ollama's
`/v1`. It is async so the harness can cancel a call (Blitz: the piece locked; IQ: the budget ran
out): cancelling the awaiting task aborts the HTTP request and closes its connection.

Faults are sorted so a run can react to them:

- 429, 5xx, 408 and connection errors are transient: retried with seeded exponential backoff and
  jitter, but only while the caller's deadline leaves time for another attempt;
- 401/403 (bad key), 402 (no credit), an unknown model (404, or an error body saying so) and a
  missing API key are fatal: `FatalModelError`, which should stop a batch with one message;
- anything else (a 400, a body that is not a completion) is `ModelCallError`: this call failed.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import os
import random
import re
import threading
import time
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal
from urllib.parse import urlsplit

import httpx

DEFAULT_BASE_URL = "https://openrouter.ai/api/v1"
DEFAULT_API_KEY_ENV = "OPENROUTER_API_KEY"
DEFAULT_TIMEOUT_S = 60.0

DEADLINE_GRACE_S = 1.0
"""How long past the caller's deadline a request may still run before httpx gives up itself: the
caller (the harness's `wait_for`) owns the deadline and cancels first; this is only a backstop."""

_MODEL_MISSING = re.compile(
    r"not a valid model|no endpoints found|(no such|unknown|invalid) model|"
    r"model.{0,200}?(not found|does not exist|is not available|unknown)",
    re.IGNORECASE | re.DOTALL,
)
_ERROR_TEXT_CHARS = 300

_sleep = asyncio.sleep  # the backoff's wait (a seam for tests)

Message = Mapping[str, Any]
CancelSignal = asyncio.Event | threading.Event


class LLMError(Exception):
    """Base of the errors this package raises about model calls."""


class ModelCallError(LLMError):
    """One call failed (after any retries); the next call may well succeed."""

    def __init__(self, message: str, *, status: int | None = None, retries: int = 0) -> None:
        super().__init__(message)
        self.status = status
        self.retries = retries


class CallCancelledError(ModelCallError):
    """The caller's cancel signal fired; the request was aborted."""


FatalReason = Literal["api-key", "auth", "payment", "model"]


class FatalModelError(LLMError):
    """Retrying cannot help (bad or missing key, no credit, unknown model): stop the batch."""

    def __init__(self, message: str, *, reason: FatalReason, status: int | None = None) -> None:
        super().__init__(message)
        self.reason: FatalReason = reason
        self.status = status


@dataclass(frozen=True)
class ChatReply:
    """One completion: the text, the usage and cost the server reported, and the raw body.

    `cost_usd` is only what the provider reported (OpenRouter's `usage.cost`); pricing a reply
    from its tokens is the registry's job (`ModelSpec.cost_usd`). `refusal` is the OpenAI
    structured-output refusal text when the server sent one.
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


def _as_int(value: Any) -> int | None:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _as_cost(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        cost = float(value)
    except ValueError:
        return None
    return cost if cost >= 0 and cost == cost and cost != float("inf") else None


def _content_text(content: Any) -> str:
    """Message content as text: a string, or the text parts of a content-part list."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [p.get("text", "") for p in content if isinstance(p, Mapping)]
        return "".join(p for p in parts if isinstance(p, str))
    return ""


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        return None


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
        max_retries: int = 4,
        backoff_base_s: float = 0.5,
        backoff_cap_s: float = 8.0,
        seed: int = 0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        if max_retries < 0:
            raise ValueError(f"max_retries must be >= 0, got {max_retries}")
        self.base_url = base_url.rstrip("/")
        self.api_key_env = api_key_env or None
        self.extra_headers = dict(extra_headers or {})
        self.timeout = float(timeout)
        self.max_retries = max_retries
        self.backoff_base_s = backoff_base_s
        self.backoff_cap_s = backoff_cap_s
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

    async def complete(
        self,
        messages: Sequence[Message],
        *,
        model: str,
        temperature: float | None = None,
        max_tokens: int | None = None,
        response_format: Mapping[str, Any] | None = None,
        reasoning: Mapping[str, Any] | None = None,
        extra_body: Mapping[str, Any] | None = None,
        deadline: float | None = None,
        cancel: CancelSignal | None = None,
    ) -> ChatReply:
        """One chat completion, retried on transient faults while `deadline` allows.

        `deadline` is a `time.monotonic()` instant (None: retries are bounded by `max_retries`
        only). `cancel`, when set, aborts the request (`CallCancelledError`); cancelling the
        awaiting task does the same by raising `CancelledError`.
        """
        body: dict[str, Any] = {"model": model, "messages": [dict(m) for m in messages]}
        if temperature is not None:
            body["temperature"] = temperature
        if max_tokens is not None:
            body["max_tokens"] = max_tokens
        if response_format is not None:
            body["response_format"] = dict(response_format)
        if reasoning:
            body["reasoning"] = dict(reasoning)
        if extra_body:
            body.update(extra_body)
        if cancel is None:
            return await self._with_retries(body, deadline)
        return await _race_cancel(self._with_retries(body, deadline), cancel)

    async def _with_retries(self, body: dict[str, Any], deadline: float | None) -> ChatReply:
        retries = 0
        while True:
            t0 = time.perf_counter()
            outcome = await self._attempt(body, deadline)
            if isinstance(outcome, ChatReply):
                latency = (time.perf_counter() - t0) * 1000.0
                return replace(outcome, retries=retries, latency_ms=latency)
            error = outcome.error
            if not outcome.retryable:
                if isinstance(error, ModelCallError):
                    error.retries = retries
                raise error
            delay = self._backoff(retries, outcome.retry_after_s)
            if retries >= self.max_retries or not _time_left(deadline, delay):
                why = "retries exhausted" if retries >= self.max_retries else "no time left"
                raise ModelCallError(
                    f"{error} ({why} after {retries} retr{'y' if retries == 1 else 'ies'})",
                    status=getattr(error, "status", None),
                    retries=retries,
                ) from error
            await _sleep(delay)
            retries += 1

    def _backoff(self, retries: int, retry_after_s: float | None) -> float:
        """Exponential backoff with seeded "equal jitter", at least the server's Retry-After."""
        ceiling = min(self.backoff_cap_s, self.backoff_base_s * 2.0**retries)
        delay = ceiling * (0.5 + 0.5 * self._rng.random())
        if retry_after_s is not None:
            delay = max(delay, min(retry_after_s, self.backoff_cap_s))
        return delay

    def _request_timeout(self, deadline: float | None) -> float:
        if deadline is None:
            return self.timeout
        left = deadline - time.monotonic() + DEADLINE_GRACE_S
        return max(0.05, min(self.timeout, left))

    async def _attempt(self, body: dict[str, Any], deadline: float | None) -> ChatReply | _Failure:
        headers = self.headers()  # a missing key raises FatalModelError before any traffic
        try:
            response = await self._http().post(
                self.url, json=body, headers=headers, timeout=self._request_timeout(deadline)
            )
        except httpx.TimeoutException as exc:
            return _Failure(ModelCallError(f"timed out talking to {self.url}: {exc!r}"), True)
        except httpx.TransportError as exc:
            message = f"cannot reach {self.url}: {type(exc).__name__}: {exc}"
            return _Failure(ModelCallError(message), True)
        return self._judge(response, str(body.get("model")))

    def _judge(self, response: httpx.Response, model: str) -> ChatReply | _Failure:
        status = response.status_code
        try:
            data: Any = response.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
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
            return self._classify(code, text, model, _retry_after(response))
        if not isinstance(data, Mapping):
            return _Failure(
                ModelCallError(f"{self.url} answered {status} with a body that is not JSON"),
                False,
            )
        return _reply_from(data, self.url)

    def _classify(
        self, status: int, text: str, model: str, retry_after_s: float | None
    ) -> _Failure:
        where = f"{self.url} answered {status}"
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
        if status in (408, 409, 425, 429) or status >= 500:
            return _Failure(ModelCallError(f"{where}: {text}", status=status), True, retry_after_s)
        return _Failure(ModelCallError(f"{where}: {text}", status=status), False)


def _reply_from(data: Mapping[str, Any], url: str) -> ChatReply | _Failure:
    """A ChatReply from a completion body, or a non-retryable failure when it is not one."""
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], Mapping):
        return _Failure(ModelCallError(f"{url} sent no choices: {_brief(json.dumps(data))}"), False)
    first = choices[0]
    message = first.get("message")
    message = message if isinstance(message, Mapping) else {}
    refusal = message.get("refusal")
    usage = data.get("usage")
    usage = usage if isinstance(usage, Mapping) else {}
    finish = first.get("finish_reason")
    return ChatReply(
        text=_content_text(message.get("content")),
        prompt_tokens=_as_int(usage.get("prompt_tokens")),
        completion_tokens=_as_int(usage.get("completion_tokens")),
        cost_usd=_as_cost(usage.get("cost")),
        raw=dict(data),
        refusal=refusal if isinstance(refusal, str) and refusal.strip() else None,
        finish_reason=finish if isinstance(finish, str) else None,
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

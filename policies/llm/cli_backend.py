"""An agent command-line tool as the "server" of a chat policy (`cli:COMMAND`, or a registry entry
with `command = "..."`): the messages become one prompt on the tool's stdin, its stdout is the
reply.

`CliChatClient` has the two methods the chat-policy base uses (`build_body`, `send`), so every
lane plays through it unchanged. The prompt is the messages' contents joined by blank lines (the
system prompt first); agent CLIs take no JSON schema, so use them with `json_schema = false` and
let the prompt ask for the format. Each request runs the command in its own session with the
agent-CLI defaults of `policies/engines/agent_cli.py`; cancelling the request kills its tree.
Outcomes: a reply is returned, with its tokens, the tool's own cost figure and its reasoning
when the tool prints them in one of the shapes `policies/llm/cli_output.py` reads (Claude Code's
`--output-format json`, Codex's `exec --json`, a generic JSON object; plain text otherwise); a
command that cannot start is `FatalModelError`; a crash, an oversized reply or a tool that says
the request failed (a usage limit, an API error) is a `ServiceFailure` (`cli`: the tool failed,
not the model); no reply before the deadline is a `TimeoutError` (the model was too slow, which
the benchmark scores). The response cache works as for servers: an entry holds the tool's
output as printed, read again when served.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from policies.engines.agent_cli import make_cli_engine
from policies.engines.process import ProcessEngine
from policies.llm.cache import CachedResponse, ResponseCache, request_key
from policies.llm.cancel import CancelSignal, wait_signal
from policies.llm.cli_output import CliOutput, read_cli_output
from policies.llm.client import ChatReply
from policies.llm.cost_meter import CostMeter
from policies.llm.errors import CallCancelledError, FatalModelError, ServiceFailure
from policies.llm.keyless_client import KeylessChatClient


def render_prompt(messages: Sequence[Mapping[str, Any]]) -> str:
    """The messages as one prompt: their text contents, in order, separated by blank lines."""
    return "\n\n".join(str(m.get("content") or "") for m in messages).rstrip() + "\n"


class CliChatClient(KeylessChatClient):
    """Chat completions by running an agent CLI once per request."""

    def __init__(
        self,
        command: str,
        *,
        timeout_s: float = 300.0,
        cache: ResponseCache | None = None,
        engine: ProcessEngine | None = None,
    ) -> None:
        super().__init__()
        self.command = command
        self.engine = (
            engine if engine is not None else make_cli_engine(command, timeout_s=timeout_s)
        )
        self.cache = cache

    @property
    def base_url(self) -> str:
        """Where replies come from, for messages (`cli:COMMAND`)."""
        return f"cli:{self.command}"

    def key_note(self) -> str:
        """For error messages."""
        return "no API key was sent (the agent CLI uses its own login)"

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
        """Run the tool on the body's messages within `deadline` (see the module docstring);
        `attempt` keys the cache as for servers."""
        key = None
        if self.cache is not None:
            key = request_key(self.base_url, body, {}, attempt)
            hit = self.cache.get(key)
            cached = None if hit is None else _cached_reply(hit.body, hit.latency_ms, key)
            if cached is not None:
                return cached
        booking = meter.reserve(str(body.get("model")), worst_case_usd) if meter else None
        stop = threading.Event()
        budget = None if deadline is None else max(0.0, deadline - time.monotonic())
        watcher = asyncio.ensure_future(_forward(cancel, stop)) if cancel is not None else None
        self.requests_sent += 1
        try:
            out = await asyncio.to_thread(
                self.engine.run, render_prompt(body["messages"]), budget, cancel=stop
            )
        except BaseException:
            stop.set()  # the awaiting task was cancelled: kill the tool's tree
            if meter is not None and booking is not None:
                meter.settle(booking, None)
            raise
        finally:
            if watcher is not None:
                watcher.cancel()
        read = read_cli_output(out.output) if out.failure is None else None
        if read is not None and read.error is None:
            reply = _reply(read, {"stdout": out.output}, out.elapsed_ms)
            if meter is not None and booking is not None:
                meter.settle(booking, cost_of(reply) if cost_of is not None else reply.cost_usd)
            if self.cache is not None and key is not None:
                self.cache.put(key, CachedResponse(reply.raw, {}, reply.latency_ms, 0))
                reply = replace(reply, cache_key=key)
            return reply
        if meter is not None and booking is not None:
            meter.release(booking)
        if read is not None:
            raise ServiceFailure(f"{self.base_url}: {read.error}", reason="cli")
        if out.failure == "start":
            raise FatalModelError(f"{self.base_url}: {out.error}", reason="command")
        if out.failure == "cancelled":
            raise CallCancelledError("the call was cancelled before the tool answered")
        if out.failure == "timeout":
            raise TimeoutError(f"{self.base_url}: {out.error}")
        raise ServiceFailure(f"{self.base_url}: {out.error}", reason="cli")


def _cached_reply(raw: dict[str, Any], latency_ms: float, key: str) -> ChatReply | None:
    """A stored tool output read again, or None when the entry is not what `send` stores (the
    tool's output as printed, one that reads as a reply): then it is asked again."""
    stdout = raw.get("stdout")
    if set(raw) != {"stdout"} or not isinstance(stdout, str):
        return None
    read = read_cli_output(stdout)
    if read.error is not None:
        return None
    return replace(_reply(read, raw, latency_ms, from_cache=True), cache_key=key)


def _reply(
    read: CliOutput, raw: dict[str, Any], latency_ms: float, *, from_cache: bool = False
) -> ChatReply:
    return ChatReply(
        text=read.text,
        prompt_tokens=read.prompt_tokens,
        completion_tokens=read.completion_tokens,
        cost_usd=read.reported.usd,
        raw=raw,
        finish_reason=read.finish_reason,
        latency_ms=latency_ms,
        reasoning_tokens=read.reasoning_tokens,
        cached_tokens=read.cached_tokens,
        reported=read.reported,
        from_cache=from_cache,
        reasoning=read.reasoning,
    )


async def _forward(cancel: CancelSignal, stop: threading.Event) -> None:
    """Forward the caller's cancel signal to the tool's runner thread."""
    await wait_signal(cancel)
    stop.set()

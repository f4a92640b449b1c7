"""Inspect's model as the "server" of a chat policy: the request body the chat-policy base builds
(`policies/llm/chat_policy.py`) becomes one `Model.generate` call of the sample that plays the
game, and Inspect's `ModelOutput` becomes the `ChatReply` the base reads.

`InspectChatClient` has the two methods the base uses (`build_body`, `send`), like the agent-CLI
client (`policies/llm/cli_backend.py`), so every lane's prompt and parser play unchanged. What is
sent: the messages, the lane's temperature and completion budget (`GenerateConfig`; Inspect merges
the eval's other settings, such as reasoning effort, underneath). What is read back: the text,
Inspect's token counts (input, output, cache reads, reasoning), its cost when it reports one, the
stop reason and the reasoning text. Outcomes: a reply is returned, however unreadable (judging it
is the prompt's job); any exception out of `generate` (a provider error after Inspect's own
retries, an Inspect limit) is a `ServiceFailure` (the game is set aside, never scored) and the
bridge keeps the exception for the solver to hand back to Inspect; a request the benchmark's
deadline cancels is cancelled in Inspect too.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageUser,
    GenerateConfig,
    Model,
    ModelOutput,
)

from evaluation.inspect_tasks.bridge import ModelBridge
from policies.base import RunStopError
from policies.llm.cancel import CancelSignal, race_cancel
from policies.llm.client import ChatReply
from policies.llm.cost_meter import CostMeter
from policies.llm.errors import CallCancelledError, ServiceFailure
from policies.llm.keyless_client import KeylessChatClient


def inspect_messages(messages: Sequence[Mapping[str, Any]]) -> list[ChatMessage]:
    """The body's chat messages as Inspect's message models (the role decides the class)."""
    out: list[ChatMessage] = []
    for message in messages:
        content = str(message.get("content") or "")
        role = message.get("role")
        if role == "system":
            out.append(ChatMessageSystem(content=content))
        elif role == "assistant":
            out.append(ChatMessageAssistant(content=content))
        else:
            out.append(ChatMessageUser(content=content))
    return out


def sent_config(body: Mapping[str, Any]) -> GenerateConfig:
    """The body's temperature and completion budget as Inspect's generate config."""
    budget = body.get("max_tokens", body.get("max_completion_tokens"))
    return GenerateConfig(
        temperature=body.get("temperature"),
        max_tokens=budget if isinstance(budget, int) else None,
    )


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _reasoning(output: ModelOutput) -> str | None:
    """The reasoning text of the reply's message (Inspect's `reasoning` content parts)."""
    if not output.choices:
        return None
    content = output.choices[0].message.content
    if isinstance(content, str):
        return None
    parts = [
        str(getattr(part, "reasoning", "") or getattr(part, "summary", "") or "")
        for part in content
        if getattr(part, "type", None) == "reasoning"
    ]
    text = "\n\n".join(p for p in parts if p)
    return text or None


def chat_reply(output: ModelOutput, latency_ms: float) -> ChatReply:
    """What the chat-policy base needs from an Inspect `ModelOutput`."""
    usage = output.usage
    cost = getattr(usage, "total_cost", None) if usage is not None else None
    reasoning_tokens = getattr(usage, "reasoning_tokens", None) if usage is not None else None
    stop = output.choices[0].stop_reason if output.choices else None
    text = output.completion
    return ChatReply(
        text=text,
        prompt_tokens=None if usage is None else _count(usage.input_tokens),
        completion_tokens=None if usage is None else _count(usage.output_tokens),
        cost_usd=float(cost) if isinstance(cost, int | float) and cost >= 0 else None,
        raw={"model": output.model, "completion": text, "stopReason": stop},
        finish_reason=None if stop is None else str(stop),
        latency_ms=latency_ms,
        reasoning_tokens=_count(reasoning_tokens),
        cached_tokens=None if usage is None else _count(usage.input_tokens_cache_read),
        reasoning=_reasoning(output),
    )


class InspectChatClient(KeylessChatClient):
    """Chat completions through the Inspect model of one sample, over its bridge."""

    def __init__(self, model: Model, bridge: ModelBridge) -> None:
        super().__init__()
        self.model = model
        self.bridge = bridge

    @property
    def base_url(self) -> str:
        """Where replies come from, for messages (`inspect:MODEL`)."""
        return f"inspect:{self.model}"

    def key_note(self) -> str:
        """For error messages."""
        return "the key is Inspect's (its provider's environment variable)"

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
        """One `generate` call with the body's messages and settings (see the module docstring);
        the deadline is the caller's (`evaluation/core/policy_call.py` cancels this call)."""
        messages = inspect_messages(body["messages"])
        config = sent_config(body)
        self.requests_sent += 1
        t0 = time.perf_counter()

        async def generate() -> ModelOutput:
            return await self.model.generate(messages, config=config)

        work = self.bridge.call(generate)
        try:
            output = await (work if cancel is None else race_cancel(work, cancel))
        except (asyncio.CancelledError, CallCancelledError, ServiceFailure, RunStopError):
            raise
        except Exception as exc:
            raise ServiceFailure(
                f"{self.base_url}: {type(exc).__name__}: {exc}", reason="provider"
            ) from exc
        return chat_reply(output, (time.perf_counter() - t0) * 1000.0)

"""The shared Tetris Bench adapter for chat models: question -> prompt -> JSON reply -> answer.

Every registered model gets the same adapter (the seed's "Add a brain": a hosted model needs no
code). Model-side failures are sorted by who should pay for them:

- an unreadable reply (malformed JSON, an unknown id, empty content, a refusal) is the model's
  tick: it becomes an answer with an empty `choice`, which the validator rejects, while the raw
  text, the parse error and the cost stay in the log;
- a failed call (5xx after retries, a 400) raises `ModelCallError`, recorded as an error tick;
- a fatal fault (bad key, no credit, unknown model) raises `FatalModelError` and is remembered in
  `fatal_error`, because the harness records exceptions as errors and plays on: the runner checks
  `fatal_error` (or `is_fatal` on the logged error) and stops the batch. Later calls fail fast.

`preflight` makes one real, tiny call before a batch so a wrong key or model stops the run before
any game starts.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from typing import Any

from arcade_gym.tetris.contract import AgentAnswer, AgentInput, ChoiceEntry, Noul, ScoreField
from policies.base import DecisionContext, PolicyIdentity
from policies.llm.client import (
    CancelSignal,
    ChatClient,
    ChatReply,
    FatalModelError,
    ModelCallError,
)
from policies.llm.registry import ModelSpec
from policies.llm.tetris_prompt import (
    ReplyParseError,
    build_messages,
    candidate_ids,
    parse_reply,
    response_format,
)

ADAPTER_VERSION = "llm-tetris/1"
"""The adapter's version in logs; bumped with any change to the prompt (`PROMPT_VERSION`) or the
reply handling, since results under different prompts are not comparable."""

RAW_CHARS = 500
"""How much of a reply the answer's `meta.raw` keeps."""

PREFLIGHT_TIMEOUT_S = 60.0


class PreflightError(Exception):
    """The pre-flight call failed: the message says why and what to fix."""


def is_fatal(error: BaseException | str | None) -> bool:
    """Whether an exception, or the error text the harness logged for it, is fatal to a batch."""
    if isinstance(error, BaseException):
        return isinstance(error, FatalModelError)
    return isinstance(error, str) and error.startswith(FatalModelError.__name__)


class LLMTetrisBrain(PolicyIdentity):
    """An AsyncPolicy that asks a chat model to pick one of the listed candidates."""

    def __init__(self, spec: ModelSpec, client: ChatClient | None = None) -> None:
        super().__init__(
            slug=spec.slug,
            name=spec.display_name,
            description=spec.description
            or f"{spec.display_name} ({spec.model}) through the shared Tetris Bench LLM prompt",
            kind="llm",
            adapter_version=ADAPTER_VERSION,
            provider=spec.provider,
            model=spec.model,
        )
        self.spec = spec
        self.client = client if client is not None else spec.client()
        self.fatal_error: FatalModelError | None = None

    def messages(self, q: AgentInput) -> list[dict[str, str]]:
        """The chat messages for `q` (a pure function of the question)."""
        return build_messages(q, candidate_ids(q.state_hash, len(q.candidates)))

    async def act_async(self, q: AgentInput, ctx: DecisionContext) -> AgentAnswer | dict[str, Any]:
        """Ask the model about `q` within `ctx`'s deadline; cancellation aborts the request."""
        if self.fatal_error is not None:  # no traffic once the key or model is known bad
            known = self.fatal_error
            raise FatalModelError(str(known), reason=known.reason, status=known.status)
        ids = candidate_ids(q.state_hash, len(q.candidates))
        cancel: CancelSignal = (
            ctx.async_cancelled if ctx.async_cancelled is not None else ctx.cancelled
        )
        try:
            reply = await self._complete(build_messages(q, ids), ids, ctx.deadline, cancel)
        except FatalModelError as exc:
            self.fatal_error = exc
            raise
        return self._answer(q, ids, reply)

    async def _complete(
        self,
        messages: list[dict[str, str]],
        ids: list[str],
        deadline: float | None,
        cancel: CancelSignal | None,
    ) -> ChatReply:
        spec = self.spec
        return await self.client.complete(
            messages,
            model=spec.model,
            temperature=spec.temperature,
            max_tokens=spec.max_tokens,
            response_format=response_format(ids) if spec.json_schema else None,
            reasoning=spec.reasoning.to_request() if spec.reasoning is not None else None,
            extra_body=spec.extra_body,
            deadline=deadline,
            cancel=cancel,
        )

    def _answer(
        self, q: AgentInput, ids: list[str], reply: ChatReply
    ) -> AgentAnswer | dict[str, Any]:
        cost = self.spec.cost_usd(reply)
        meta: dict[str, Any] = {
            "retries": reply.retries,
            "promptTokens": reply.prompt_tokens,
            "completionTokens": reply.completion_tokens,
            "raw": (reply.text or reply.refusal or "")[:RAW_CHARS],
        }
        if reply.finish_reason is not None:
            meta["finishReason"] = reply.finish_reason
        try:
            move = parse_reply(reply.text, ids, refusal=reply.refusal)
        except ReplyParseError as exc:
            meta["parseError"] = str(exc)
            invalid: dict[str, Any] = {"stateHash": q.state_hash, "choice": [], "meta": meta}
            if cost is not None:
                invalid["costUsd"] = cost
            return invalid
        if move.notes:
            meta["parseNotes"] = list(move.notes)
        placement = q.candidates[ids.index(move.candidate)].placement
        return AgentAnswer(
            state_hash=q.state_hash,
            choice=[ChoiceEntry(x=placement.x, rotation=placement.rotation, p=1.0)],
            noul=Noul(hold=move.hold),
            score=None if move.risk is None else ScoreField(risk=float(move.risk)),
            cost_usd=None if cost is None else float(cost),
            meta=meta,
        )


# --------------------------------------------------------------------------------------------
# Pre-flight
# --------------------------------------------------------------------------------------------

_PREFLIGHT_IDS = ["AB", "CD"]
_PREFLIGHT_MESSAGES = [
    {"role": "system", "content": "You answer with one JSON object and nothing else."},
    {
        "role": "user",
        "content": "Connection test. Reply with JSON only: "
        '{"candidate":"AB","hold":false,"risk":0}',
    },
]


async def apreflight(spec: ModelSpec, client: ChatClient | None = None) -> None:
    """`preflight` for callers already inside an event loop."""
    chat = client if client is not None else spec.client()
    where = f"model {spec.slug!r} ({spec.model} at {chat.base_url})"
    try:
        chat.api_key()
    except FatalModelError:
        raise PreflightError(
            f"{where}: the environment variable {chat.api_key_env} is not set; "
            f"export {chat.api_key_env}=<your key> (or use --base-url for a local server)"
        ) from None
    try:
        await chat.complete(
            _PREFLIGHT_MESSAGES,
            model=spec.model,
            temperature=spec.temperature,
            max_tokens=spec.max_tokens,
            response_format=response_format(_PREFLIGHT_IDS) if spec.json_schema else None,
            reasoning=spec.reasoning.to_request() if spec.reasoning is not None else None,
            extra_body=spec.extra_body,
            deadline=time.monotonic() + min(PREFLIGHT_TIMEOUT_S, spec.timeout_s),
        )
    except FatalModelError as exc:
        raise PreflightError(f"{where}: {exc}") from exc
    except ModelCallError as exc:
        hint = " Is the server running?" if "cannot reach" in str(exc) else ""
        raise PreflightError(f"{where}: the pre-flight call failed: {exc}.{hint}") from exc
    finally:
        await chat.aclose()


def preflight(spec: ModelSpec, client: ChatClient | None = None) -> None:
    """One real, tiny call with the model's own settings; PreflightError says what is wrong
    (missing key variable, refused key, unknown model, unreachable server, rejected request)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        asyncio.run(apreflight(spec, client))
        return
    # Called from inside a running loop (a notebook): run on a private loop in a thread.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, apreflight(spec, client)).result()

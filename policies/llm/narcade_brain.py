"""The NARCADE lane for chat models: Snake, Minesweeper and Tetris (primitive controls).

One adapter serves every registered model and all three games (a hosted model needs no code).
Faults are handled exactly as in the Tetris Bench lane (`policies.llm.tetris_brain`):

- an unreadable reply (malformed JSON, an action not offered, empty content, a refusal) is the
  model's decision: it becomes an answer whose action is the marked raw text, which the game's
  validator rejects, so the runner counts an invalid action;
- a failed call (5xx after retries, a 400) raises `ModelCallError`, recorded as an error;
- a fatal fault (bad key, no credit, unknown model) raises `FatalModelError` and is remembered in
  `fatal_error`; later calls fail fast without traffic, and the runner stops the batch.
  `preflight(policy.spec, policy.client)` catches those before any game starts.

NARCADE answers carry only `action`, so what the Tetris lane keeps in an answer's `meta` (tokens,
cost, retries, the raw text, parse notes) is kept on the policy instead: `last_call` describes
the latest decision (None while one is in flight, and after a timeout), `usage` totals them.
"""

from __future__ import annotations

import asyncio
import importlib
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from arcade_gym.minesweeper.contract import MinesweeperAnswer
from arcade_gym.snake.contract import SnakeAnswer
from policies.base import DecisionContext, PolicyIdentity
from policies.llm.client import (
    CallCancelledError,
    CancelSignal,
    ChatClient,
    ChatReply,
    FatalModelError,
    ModelCallError,
)
from policies.llm.narcade_prompt import (
    NarcadeGame,
    ReplyParseError,
    build_messages,
    check_game,
    offered_actions,
    parse_action,
    response_format,
)
from policies.llm.registry import ModelSpec

ADAPTER_VERSION = "llm-narcade/1"
"""The adapter's version in logs; bumped with any change to the prompts (`PROMPT_VERSION`) or
the reply handling, since results under different prompts are not comparable."""

RAW_CHARS = 500
"""How much of a reply `LLMCall.raw` (and an invalid answer's action) keeps."""

INVALID_ACTION_PREFIX = "unreadable reply: "
"""Starts the action of an answer made from an unreadable reply. No offered action starts with
it, so the validator always rejects the answer, while the log still shows what the model said."""

TETRIS_CONTRACT = "arcade_gym.tetris.primitive_contract"


# --------------------------------------------------------------------------------------------
# The side channel: what each call cost and said
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LLMCall:
    """One decision's model call, for the runner's log (NARCADE answers have no `meta`).

    `action` is what was read from the reply (None: unreadable, see `parse_error`, or the call
    failed, see `error`). `raw` is the reply text (or refusal), cut to RAW_CHARS.
    """

    state_hash: str | None = None
    decision: int | None = None
    action: str | None = None
    raw: str = ""
    parse_error: str | None = None
    parse_notes: tuple[str, ...] = ()
    error: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cost_usd: float | None = None
    retries: int = 0
    latency_ms: float | None = None
    finish_reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """camelCase log fields, as the Tetris lane's `meta`."""
        return {
            "stateHash": self.state_hash,
            "decision": self.decision,
            "action": self.action,
            "raw": self.raw,
            "parseError": self.parse_error,
            "parseNotes": list(self.parse_notes),
            "error": self.error,
            "promptTokens": self.prompt_tokens,
            "completionTokens": self.completion_tokens,
            "costUsd": self.cost_usd,
            "retries": self.retries,
            "latencyMs": self.latency_ms,
            "finishReason": self.finish_reason,
        }


@dataclass
class _Usage:
    calls: int = 0
    replies: int = 0
    unreadable: int = 0
    failed: int = 0
    cancelled: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    priced_calls: int = 0
    retries: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def to_dict(self) -> dict[str, Any]:
        with self.lock:
            return {
                "calls": self.calls,
                "replies": self.replies,
                "unreadable": self.unreadable,
                "failed": self.failed,
                "cancelled": self.cancelled,
                "promptTokens": self.prompt_tokens,
                "completionTokens": self.completion_tokens,
                "costUsd": self.cost_usd,
                "pricedCalls": self.priced_calls,
                "retries": self.retries,
            }


class ChatLane(PolicyIdentity):
    """What every chat-model lane shares: the call under the context's deadline and cancel
    signal, the fatal-error latch, and the `last_call` / `usage` side channel."""

    def __init__(
        self,
        spec: ModelSpec,
        client: ChatClient | None,
        *,
        description: str,
        adapter_version: str,
    ) -> None:
        super().__init__(
            slug=spec.slug,
            name=spec.display_name,
            description=spec.description or description,
            kind="llm",
            adapter_version=adapter_version,
            provider=spec.provider,
            model=spec.model,
        )
        self.spec = spec
        self.client = client if client is not None else spec.client()
        self.fatal_error: FatalModelError | None = None
        self.last_call: LLMCall | None = None
        self._usage = _Usage()

    @property
    def usage(self) -> dict[str, Any]:
        """Totals since construction (or `reset_usage`): calls started, replies, unreadable
        replies, failed and cancelled calls, tokens, the priced cost and how many calls it
        covers, retries."""
        return self._usage.to_dict()

    def reset_usage(self) -> None:
        """Start the totals again (e.g. per game)."""
        self._usage = _Usage()

    async def _ask(
        self,
        messages: list[dict[str, str]],
        fmt: Mapping[str, Any] | None,
        ctx: DecisionContext,
        *,
        state_hash: str | None = None,
        decision: int | None = None,
    ) -> ChatReply:
        """One completion within `ctx`'s deadline; failures are recorded, then raised."""
        if self.fatal_error is not None:  # no traffic once the key or model is known bad
            known = self.fatal_error
            raise FatalModelError(str(known), reason=known.reason, status=known.status)
        self.last_call = None
        usage = self._usage
        with usage.lock:
            usage.calls += 1
        cancel: CancelSignal = (
            ctx.async_cancelled if ctx.async_cancelled is not None else ctx.cancelled
        )
        spec = self.spec
        try:
            return await self.client.complete(
                messages,
                model=spec.model,
                temperature=spec.temperature,
                max_tokens=spec.max_tokens,
                response_format=fmt,
                reasoning=spec.reasoning.to_request() if spec.reasoning is not None else None,
                extra_body=spec.extra_body,
                deadline=ctx.deadline,
                cancel=cancel,
            )
        except FatalModelError as exc:
            self.fatal_error = exc
            self._failed(exc, 0, state_hash, decision)
            raise
        except CallCancelledError:
            with usage.lock:
                usage.cancelled += 1
            raise
        except ModelCallError as exc:
            self._failed(exc, exc.retries, state_hash, decision)
            raise
        except asyncio.CancelledError:  # the harness's timeout: the request was aborted
            with usage.lock:
                usage.cancelled += 1
            raise

    def _failed(
        self, exc: Exception, retries: int, state_hash: str | None, decision: int | None
    ) -> None:
        with self._usage.lock:
            self._usage.failed += 1
            self._usage.retries += retries
        self.last_call = LLMCall(
            state_hash=state_hash,
            decision=decision,
            error=f"{type(exc).__name__}: {exc}",
            retries=retries,
        )

    def _record(
        self,
        reply: ChatReply,
        *,
        action: str | None,
        parse_error: str | None = None,
        parse_notes: tuple[str, ...] = (),
        state_hash: str | None = None,
        decision: int | None = None,
    ) -> LLMCall:
        """Note a reply in `last_call` and the totals; returns the record."""
        cost = self.spec.cost_usd(reply)
        call = LLMCall(
            state_hash=state_hash,
            decision=decision,
            action=action,
            raw=raw_text(reply),
            parse_error=parse_error,
            parse_notes=parse_notes,
            prompt_tokens=reply.prompt_tokens,
            completion_tokens=reply.completion_tokens,
            cost_usd=None if cost is None else float(cost),
            retries=reply.retries,
            latency_ms=reply.latency_ms,
            finish_reason=reply.finish_reason,
        )
        usage = self._usage
        with usage.lock:
            usage.replies += 1
            usage.unreadable += parse_error is not None
            usage.prompt_tokens += reply.prompt_tokens or 0
            usage.completion_tokens += reply.completion_tokens or 0
            usage.retries += reply.retries
            if call.cost_usd is not None:
                usage.cost_usd += call.cost_usd
                usage.priced_calls += 1
        self.last_call = call
        return call


def raw_text(reply: ChatReply) -> str:
    """What the model said (its text, else its refusal), cut to RAW_CHARS."""
    return (reply.text or reply.refusal or "")[:RAW_CHARS]


# --------------------------------------------------------------------------------------------
# The NARCADE policy
# --------------------------------------------------------------------------------------------


def answer_model(game: NarcadeGame) -> type[BaseModel]:
    """The answer model of `game` (each has one field, `action`)."""
    if game == "snake":
        return SnakeAnswer
    if game == "minesweeper":
        return MinesweeperAnswer
    try:
        module = importlib.import_module(TETRIS_CONTRACT)
    except ImportError as exc:
        raise ValueError(f"tetris: the primitive-control contract is missing ({exc})") from exc
    model = getattr(module, "TetrisControlAnswer", None)
    if not (isinstance(model, type) and issubclass(model, BaseModel)):
        raise ValueError(f"tetris: {TETRIS_CONTRACT} has no TetrisControlAnswer model")
    return model


class LLMNarcadePolicy(ChatLane):
    """An AsyncPolicy that asks a chat model to pick one of a NARCADE question's actions."""

    def __init__(self, spec: ModelSpec, game: str, client: ChatClient | None = None) -> None:
        self.game: NarcadeGame = check_game(game)
        super().__init__(
            spec,
            client,
            description=(
                f"{spec.display_name} ({spec.model}) choosing NARCADE {self.game} controls "
                "from the structured state"
            ),
            adapter_version=ADAPTER_VERSION,
        )
        self.answer_model = answer_model(self.game)

    def messages(self, question: BaseModel | Mapping[str, Any]) -> list[dict[str, str]]:
        """The chat messages for `question` (a pure function of the question)."""
        return build_messages(question, self.game)

    def response_format(self, question: BaseModel | Mapping[str, Any]) -> dict[str, Any] | None:
        """The reply schema sent with `question` (None when the model does not support one)."""
        return response_format(offered_actions(question)) if self.spec.json_schema else None

    async def act_async(self, question: Any, ctx: DecisionContext) -> BaseModel:
        """Ask the model about `question` within `ctx`'s deadline; cancellation aborts the
        request. Returns the game's answer model; an unreadable reply gives one the validator
        rejects (its action is INVALID_ACTION_PREFIX + the raw text)."""
        actions = offered_actions(question)
        state_hash = _field(question, "state_hash", "stateHash", str)
        decision = _field(question, "decision", "decision", int)
        fmt = response_format(actions) if self.spec.json_schema else None
        reply = await self._ask(
            self.messages(question), fmt, ctx, state_hash=state_hash, decision=decision
        )
        try:
            move = parse_action(reply.text, actions, refusal=reply.refusal)
        except ReplyParseError as exc:
            call = self._record(
                reply, action=None, parse_error=str(exc), state_hash=state_hash, decision=decision
            )
            # model_construct: the action is deliberately not one the model type allows
            return self.answer_model.model_construct(action=INVALID_ACTION_PREFIX + call.raw)
        self._record(
            reply,
            action=move.action,
            parse_notes=move.notes,
            state_hash=state_hash,
            decision=decision,
        )
        return self.answer_model.model_validate({"action": move.action})


def _field(question: Any, name: str, alias: str, kind: type[Any]) -> Any:
    """A field of a question model or its wire dict, when it has the expected type."""
    if isinstance(question, Mapping):
        value = question.get(alias, question.get(name))
    else:
        value = getattr(question, name, None)
    return value if isinstance(value, kind) and not isinstance(value, bool) else None

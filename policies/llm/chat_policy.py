"""One chat-policy base for every game: a prompt module (`policies/<game>/prompt.py`) plus
the model calls, under the decision's deadline and cancel signal.

The base owns everything that is not the game's:

- the call: the model's request options (`ModelSpec.request_options`), the JSON schema only for
  models that support it, the deadline and cancellation of `policies/base.py`'s context;
- failures: a reply that cannot be read is the model's answer (`ChatPrompt.unreadable`, scored by
  the benchmark); a service failure (`ServiceFailure`, after retries) is raised for the loop to
  abort the game; a fatal fault (`FatalModelError`) is latched in `fatal_error` so later calls
  fail at once without traffic; `CostCapReached` stops the run;
- accounting: `usage` totals, the cost of each call (reported, else estimated, else unknown) and
  the run's cost meter (`meter`, `--max-cost-usd`), the response cache of the client, keyed by
  attempt: the same request sent again in a row (a benchmark's retry after an unreadable reply)
  is the next attempt, a new request, never the cached reply it retries;
- telemetry: `last_call` and `pop_telemetry()` (what the episode loop logs per decision: tokens,
  cost and source, the attempt, retries, latency, the raw reply and the reasoning text; the
  request messages too with `transcripts=True`);
- pre-flight in the benchmark's own format (`preflight()`), and `run_identity()` for log headers;
- repeated sampling (`--repeats`, `evaluation/core/repeats.py`): told its repeat (`set_repeat`),
  each request carries `seed` = `request_seed(repeat, attempt)`, unless the registry entry says
  its server takes none (`seed = false`) or the lane is an agent CLI. A server that refuses the
  field (a 400/422 naming `seed`) is a fatal fault naming that setting: the run stops, resumable.

One policy instance serves one game at a time: `last_call` and `pop_telemetry` describe the latest
decision of that instance.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Mapping
from typing import Any

from policies.base import DecisionContext, PolicyIdentity
from policies.llm.client import CancelSignal, ChatReply
from policies.llm.cost_meter import CostMeter
from policies.llm.errors import (
    CallCancelledError,
    CostCapReached,
    FatalModelError,
    ModelCallError,
    ServiceFailure,
)
from policies.llm.preflight import apreflight, preflight
from policies.llm.prompts.base import ChatPrompt, Messages, Reading
from policies.llm.prompts.json_reply import ReplyParseError
from policies.llm.registry import ModelSpec
from policies.llm.run_identity import run_identity
from policies.llm.telemetry import ErrorKind, LLMCall, Usage, bounded_text


class ChatPolicy(PolicyIdentity):
    """An AsyncPolicy: `prompt` reads and writes the game, the base makes the calls."""

    def __init__(
        self,
        spec: ModelSpec,
        prompt: ChatPrompt,
        client: Any = None,
        *,
        meter: CostMeter | None = None,
        transcripts: bool = False,
    ) -> None:
        super().__init__(
            slug=spec.slug,
            name=spec.display_name,
            description=spec.description
            or prompt.description(f"{spec.display_name} ({spec.model})"),
            kind="llm",
            adapter_version=prompt.adapter_version,
            provider=spec.provider,
            model=spec.model,
        )
        self.spec = spec
        self.prompt = prompt
        self.client = client if client is not None else spec.client()
        self.meter = meter
        self.transcripts = transcripts
        self.fatal_error: FatalModelError | None = None
        self.last_call: LLMCall | None = None
        self._pending: LLMCall | None = None
        self._usage = Usage()
        self._last_body: dict[str, Any] | None = None
        self._attempt = 0
        self._attempt_lock = threading.Lock()
        self.repeat: int | None = None
        """Which repeat of its game this policy plays (None: a run of one repeat)."""

    def set_repeat(self, index: int | None) -> None:
        """Play repeat `index` of a game (`--repeats`; None: the only play): the requests then
        carry that repeat's seed when the server takes one. A repeat starts afresh: its first
        request is a first attempt, even when the game before (the repeat before) asked the
        same (a run of one repeat counts attempts as it always did)."""
        with self._attempt_lock:
            self.repeat = index
            if index is not None:
                self._attempt, self._last_body = 0, None

    def request_seed(self, attempt: int) -> int | None:
        """The `seed` sent with this attempt at a request (None: none is sent)."""
        if self.repeat is None or not self.spec.seed or self.spec.command is not None:
            return None
        return request_seed(self.repeat, attempt)

    # ----------------------------------------------------------------------------------------
    # Identity, totals, telemetry
    # ----------------------------------------------------------------------------------------

    def run_identity(self) -> dict[str, Any]:
        """The model's full settings with the prompt and adapter versions (log headers)."""
        return run_identity(
            self.spec,
            prompt_version=self.prompt.prompt_version,
            adapter_version=self.prompt.adapter_version,
        )

    @property
    def usage(self) -> dict[str, Any]:
        """Totals since construction (or `reset_usage`), camelCase (`policies/llm/telemetry.py`)."""
        return self._usage.to_dict()

    def reset_usage(self) -> None:
        """Start the totals again (e.g. per game)."""
        self._usage = Usage()

    def pop_telemetry(self) -> dict[str, Any] | None:
        """The latest decision's call record for the episode loop, once (then None)."""
        call, self._pending = self._pending, None
        return None if call is None else call.to_dict(transcript=self.transcripts)

    def _note(self, call: LLMCall | None) -> None:
        self.last_call = call
        self._pending = call

    # ----------------------------------------------------------------------------------------
    # Deciding
    # ----------------------------------------------------------------------------------------

    def messages(self, question: Any) -> Messages:
        """The chat messages for `question` (a pure function of the question)."""
        return self.prompt.messages(question)

    def response_format(self, question: Any) -> dict[str, Any] | None:
        """The reply schema sent with `question` (None when the model does not support one)."""
        return self.prompt.response_format(question) if self.spec.json_schema else None

    async def act_async(self, question: Any, ctx: DecisionContext) -> Any:
        """Ask the model about `question` within `ctx`'s deadline; cancellation aborts the
        request. Returns the prompt module's answer (or its unreadable-reply answer)."""
        state_hash, decision = self.prompt.keys(question)
        messages = self.messages(question)
        fmt = self.response_format(question)
        reply, attempt = await self._ask(
            messages, fmt, ctx, state_hash=state_hash, decision=decision
        )
        reading: Reading | None = None
        problem: str | None = None
        try:
            reading = self.prompt.read(reply.text, reply.refusal, question)
        except ReplyParseError as exc:
            problem = str(exc)
        except Exception as exc:  # a reply must never crash a game: it is unreadable
            problem = f"the reply could not be read ({type(exc).__name__}: {exc})"
        call = self._record(reply, reading, problem, messages, state_hash, decision, attempt)
        if reading is None:
            return self.prompt.unreadable(question, call)
        return self.prompt.answer(question, reading, call)

    async def _ask(
        self,
        messages: Messages,
        fmt: Mapping[str, Any] | None,
        ctx: DecisionContext,
        *,
        state_hash: str | None = None,
        decision: int | None = None,
    ) -> tuple[ChatReply, int]:
        """One completion within `ctx`'s deadline, and which attempt at its request it was;
        failures are recorded, then raised."""
        if self.fatal_error is not None:  # no traffic once the key or model is known bad
            known = self.fatal_error
            raise FatalModelError(str(known), reason=known.reason, status=known.status)
        self._note(None)
        usage = self._usage
        with usage.lock:
            usage.calls += 1
        cancel: CancelSignal = (
            ctx.async_cancelled if ctx.async_cancelled is not None else ctx.cancelled
        )
        spec = self.spec
        body = self.client.build_body(messages, response_format=fmt, **spec.request_options())
        attempt = self._next_attempt(body)
        seed = self.request_seed(attempt)
        if seed is not None:
            body = {**body, "seed": seed}
        worst = 0.0
        if self.meter is not None:
            pricing = spec.pricing
            worst = self.meter.worst_case(
                spec.model,
                sum(len(str(m.get("content", ""))) for m in messages),
                spec.max_tokens,
                None if pricing is None else pricing.input,
                None if pricing is None else pricing.output,
            )
        options: dict[str, Any] = {"attempt": attempt} if attempt > 1 else {}
        failed = (state_hash, decision, attempt)
        try:
            reply = await self.client.send(
                body,
                deadline=ctx.deadline,
                cancel=cancel,
                meter=self.meter,
                worst_case_usd=worst,
                cost_of=lambda reply: spec.price(reply).usd,
                **options,
            )
        except FatalModelError as exc:
            self.fatal_error = exc
            self._failed(exc, "fatal", 0, *failed)
            raise
        except CostCapReached as exc:
            self._failed(exc, "cost-cap", 0, *failed)
            raise
        except (CallCancelledError, asyncio.CancelledError):
            with usage.lock:  # the harness's timeout or cancel: the request was aborted
                usage.cancelled += 1
            raise
        except ServiceFailure as exc:
            if seed is not None and _refuses_seed(exc):
                self.fatal_error = refused = FatalModelError(
                    f"{exc}; the server refuses the request seed --repeats sends: set "
                    f"seed = false in the registry entry of {spec.slug} to sample the repeats "
                    "without one",
                    reason="seed",
                    status=exc.status,
                )
                self._failed(refused, "fatal", 0, *failed)
                raise refused from exc
            self._failed(exc, "service", exc.retries, *failed)
            raise
        except ModelCallError as exc:
            self._failed(exc, "service", exc.retries, *failed)
            raise
        return reply, attempt

    def _next_attempt(self, body: dict[str, Any]) -> int:
        """Which attempt at `body` this is: 1, or one more than the last when the previous
        request of this policy was the very same (the game asked the same question again)."""
        with self._attempt_lock:
            self._attempt = self._attempt + 1 if body == self._last_body else 1
            self._last_body = body
            return self._attempt

    def _failed(
        self,
        exc: Exception,
        kind: ErrorKind,
        retries: int,
        state_hash: str | None,
        decision: int | None,
        attempt: int = 1,
    ) -> None:
        call = LLMCall(
            state_hash=state_hash,
            decision=decision,
            error=f"{type(exc).__name__}: {exc}",
            error_kind=kind,
            retries=retries,
            attempt=attempt,
        )
        self._usage.add_failure(call)
        self._note(call)

    def _record(
        self,
        reply: ChatReply,
        reading: Reading | None,
        parse_error: str | None,
        messages: Messages,
        state_hash: str | None,
        decision: int | None,
        attempt: int = 1,
    ) -> LLMCall:
        """Note a reply in `last_call`, the telemetry and the totals; returns the record."""
        cost = self.spec.price(reply)
        call = LLMCall(
            state_hash=state_hash,
            decision=decision,
            action=None if reading is None else reading.action,
            raw=bounded_text(raw_text(reply)) or "",
            reasoning=bounded_text(reply.reasoning),
            attempt=attempt,
            parse_error=parse_error,
            parse_notes=() if reading is None else reading.notes,
            prompt_tokens=reply.prompt_tokens,
            completion_tokens=reply.completion_tokens,
            reasoning_tokens=reply.reasoning_tokens,
            cached_tokens=reply.cached_tokens,
            cost_usd=cost.usd,
            cost_source=cost.source,
            cost_note=cost.note,
            retries=reply.retries,
            latency_ms=reply.latency_ms,
            finish_reason=reply.finish_reason,
            from_cache=reply.from_cache,
            cache_key=reply.cache_key,
            messages=tuple(messages) if self.transcripts else None,
        )
        self._usage.add_reply(call)
        self._note(call)
        return call

    # ----------------------------------------------------------------------------------------
    # Pre-flight
    # ----------------------------------------------------------------------------------------

    async def apreflight(self) -> None:
        """`preflight` inside an event loop."""
        await apreflight(self.spec, self.client, probe=self.prompt.probe())

    def preflight(self) -> None:
        """One real call in this benchmark's reply format (PreflightError says what is wrong)."""
        preflight(self.spec, self.client, probe=self.prompt.probe())


SEED_STRIDE = 1000
"""Request seeds of one repeat's attempts lie this far apart (a run takes at most 100 repeats)."""


def request_seed(repeat: int, attempt: int = 1) -> int:
    """The request `seed` of `attempt` at a request in repeat `repeat` (both from 1): the repeat
    for a first attempt, plus 1000 per retry, so repeats sample apart and a retry after an
    unreadable reply is not the same sample again."""
    return repeat + SEED_STRIDE * (attempt - 1)


def _refuses_seed(exc: ServiceFailure) -> bool:
    """Whether a refused request (a 4xx) names the `seed` field."""
    return exc.reason == "rejected" and "seed" in str(exc).lower()


def raw_text(reply: ChatReply) -> str:
    """What the model said, whole: its text, else its refusal."""
    return reply.text or reply.refusal or ""

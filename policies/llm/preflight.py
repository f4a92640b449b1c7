"""Pre-flight: one real, tiny call with the model's own settings before any game starts, in the
benchmark's own reply format, so a wrong key, model, server or a model that cannot produce the
format stops the run with one message instead of failing every decision.

The probe comes from the game's prompt module (`ChatPrompt.probe`); without one, a generic JSON
probe is used. A model with `json_schema = true` gets the probe's schema, and a reply that is not
in the format (a non-JSON reply to a JSON-schema request) fails the pre-flight. Every message says
whether an API key was sent, because "401" means different things with and without one.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from typing import Any

from policies.llm.client import ChatReply
from policies.llm.errors import CostCapReached, FatalModelError, ModelCallError
from policies.llm.prompts.base import Probe
from policies.llm.prompts.json_reply import (
    ReplyParseError,
    find_object,
    reply_text,
    schema_format,
    shown,
)
from policies.llm.registry import ModelSpec

PREFLIGHT_TIMEOUT_S = 60.0
RAW_SHOWN = 200

PROBE_IDS = ["AB", "CD"]
PROBE_MESSAGES = [
    {"role": "system", "content": "You answer with one JSON object and nothing else."},
    {
        "role": "user",
        "content": "Connection test. Reply with JSON only: "
        '{"candidate":"AB","hold":false,"risk":0}',
    },
]
"""The generic probe's request: a small JSON object with a choice among listed ids."""

PROBE_SCHEMA = {
    "type": "object",
    "properties": {
        "candidate": {"type": "string", "enum": PROBE_IDS},
        "hold": {"type": "boolean"},
        "risk": {"type": "number", "minimum": 0, "maximum": 1},
    },
    "required": ["candidate", "hold", "risk"],
    "additionalProperties": False,
}


class PreflightError(Exception):
    """The pre-flight call failed: the message says why and what to fix."""


def _check_json(text: str | None, refusal: str | None) -> object:
    """A generic check: the reply carries a JSON object."""
    body = reply_text(text, refusal)
    found, keyless = find_object(body, ("candidate", "action", "move"))
    if found is None and keyless is None:
        raise ReplyParseError("no JSON object in the reply")
    return found or keyless


def generic_probe() -> Probe:
    """A connection test asking for a small JSON object (used when no game probe is given)."""
    return Probe(PROBE_MESSAGES, schema_format("connection_test", PROBE_SCHEMA), _check_json)


async def apreflight(
    spec: ModelSpec, client: Any = None, *, probe: Probe | None = None
) -> ChatReply:
    """`preflight` for callers already inside an event loop; returns the probe's reply."""
    chat = client if client is not None else spec.client()
    probe = probe if probe is not None else generic_probe()
    where = f"model {spec.slug!r} ({spec.model} at {chat.base_url})"
    try:
        chat.api_key()
    except FatalModelError:
        raise PreflightError(
            f"{where}: the environment variable {chat.api_key_env} is not set; "
            f"export {chat.api_key_env}=<your key> (or use --base-url for a local server)"
        ) from None
    sent = chat.key_note()
    body = chat.build_body(
        probe.messages,
        response_format=probe.response_format if spec.json_schema else None,
        **spec.request_options(),
    )
    try:
        reply: ChatReply = await chat.send(
            body, deadline=time.monotonic() + min(PREFLIGHT_TIMEOUT_S, spec.timeout_s)
        )
    except FatalModelError as exc:
        raise PreflightError(f"{where}: {exc} ({sent})") from exc
    except CostCapReached as exc:
        raise PreflightError(f"{where}: {exc}") from exc
    except ModelCallError as exc:
        hint = " Is the server running?" if "cannot reach" in str(exc) else ""
        raise PreflightError(f"{where}: the pre-flight call failed ({sent}): {exc}.{hint}") from exc
    finally:
        await chat.aclose()
    try:
        probe.check(reply.text, reply.refusal)
    except (ReplyParseError, ValueError) as exc:
        schema = "a JSON-schema request" if spec.json_schema else "the pre-flight request"
        raise PreflightError(
            f"{where}: the reply to {schema} is not in the benchmark's format ({exc}); "
            f"the model said {shown(reply.text or reply.refusal or '', RAW_SHOWN)} ({sent}). "
            "Check json_schema and the model's settings in the registry"
        ) from None
    return reply


def preflight(spec: ModelSpec, client: Any = None, *, probe: Probe | None = None) -> None:
    """One real, tiny call with the model's own settings; PreflightError says what is wrong
    (missing key variable, refused key, unknown model, unreachable server, rejected request, a
    reply not in the benchmark's format) and whether a key was sent."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        asyncio.run(apreflight(spec, client, probe=probe))
        return
    # Called from inside a running loop (a notebook): run on a private loop in a thread.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, apreflight(spec, client, probe=probe)).result()

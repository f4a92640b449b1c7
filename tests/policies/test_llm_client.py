"""The chat client and the model registry, against httpx.MockTransport and a local socket."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from policies.llm import client as client_module
from policies.llm.client import (
    CallCancelledError,
    ChatClient,
    ChatReply,
    FatalModelError,
    ModelCallError,
    ServiceFailure,
    is_loopback,
)
from policies.llm.registry import ModelSpec, RegistryError, get_spec, load_registry
from tests.policies.mock_chat import Script, completion

KEY_ENV = "ARCADE_GYM_TEST_KEY"
MESSAGES = [{"role": "user", "content": "hi"}]


def make_client(script: Callable[[httpx.Request], httpx.Response], **kw: Any) -> ChatClient:
    options: dict[str, Any] = {"max_retries": 3, "backoff_base_s": 0.001, "backoff_cap_s": 0.01}
    options.update(kw)
    return ChatClient(
        "https://llm.example/v1",
        KEY_ENV,
        {"X-Title": "arcade-gym"},
        5.0,
        transport=httpx.MockTransport(script),
        **options,
    )


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(KEY_ENV, "sk-test")
    yield


def run(coro: Any) -> Any:
    return asyncio.run(coro)


# --------------------------------------------------------------------------------------------
# Retries and faults
# --------------------------------------------------------------------------------------------


def test_429_is_retried_then_the_reply_is_returned() -> None:
    script = Script(
        httpx.Response(429, json={"error": {"message": "slow down"}}),
        httpx.Response(200, json=completion()),
    )
    reply = run(make_client(script).complete(MESSAGES, model="m"))
    assert reply.retries == 1 and len(script.requests) == 2
    assert reply.text == '{"candidate":"AB","hold":false,"risk":0.1}'


def test_connection_errors_and_errors_inside_a_200_body_are_retried() -> None:
    in_body = {"error": {"code": 502, "message": "upstream hiccup"}}
    script = Script(
        httpx.ConnectError("refused"),
        httpx.Response(200, json=in_body),
        httpx.Response(200, json=completion()),
    )
    reply = run(make_client(script).complete(MESSAGES, model="m"))
    assert reply.retries == 2


def test_500s_until_retries_run_out_raise_model_call_error() -> None:
    script = Script(httpx.Response(500, json={"error": {"message": "boom"}}))
    with pytest.raises(ModelCallError) as info:
        run(make_client(script, max_retries=2).complete(MESSAGES, model="m"))
    assert len(script.requests) == 3
    assert info.value.status == 500 and info.value.retries == 2
    assert "boom" in str(info.value) and "retries exhausted" in str(info.value)


def test_no_retry_is_started_that_the_deadline_cannot_fit() -> None:
    script = Script(httpx.Response(429, headers={"retry-after": "5"}, json={}))
    client = make_client(script, backoff_cap_s=5.0)
    t0 = time.monotonic()
    with pytest.raises(ModelCallError, match="no time left"):
        run(client.complete(MESSAGES, model="m", deadline=time.monotonic() + 0.5))
    assert time.monotonic() - t0 < 0.5 and len(script.requests) == 1


@pytest.mark.parametrize("status", [401, 403])
def test_a_refused_key_is_fatal_and_not_retried(status: int) -> None:
    script = Script(httpx.Response(status, json={"error": {"message": "No auth credentials"}}))
    with pytest.raises(FatalModelError) as info:
        run(make_client(script).complete(MESSAGES, model="m"))
    assert info.value.reason == "auth" and info.value.status == status
    assert KEY_ENV in str(info.value) and len(script.requests) == 1


@pytest.mark.parametrize(
    ("status", "message"),
    [
        (404, "The model `vendor/nope` does not exist."),
        (400, "vendor/nope is not a valid model ID"),
        (404, 'model "llama9" not found, try pulling it first'),
    ],
)
def test_an_unknown_model_is_fatal(status: int, message: str) -> None:
    script = Script(httpx.Response(status, json={"error": {"message": message}}))
    with pytest.raises(FatalModelError, match="unknown model 'vendor/nope'") as info:
        run(make_client(script).complete(MESSAGES, model="vendor/nope"))
    assert info.value.reason == "model" and len(script.requests) == 1


def test_other_client_errors_fail_the_call_without_retrying() -> None:
    script = Script(httpx.Response(400, json={"error": {"message": "max_tokens is too large"}}))
    with pytest.raises(ModelCallError, match="max_tokens is too large"):
        run(make_client(script).complete(MESSAGES, model="m"))
    assert len(script.requests) == 1


def test_a_body_without_choices_is_a_call_error() -> None:
    script = Script(httpx.Response(200, json={"object": "chat.completion"}))
    with pytest.raises(ModelCallError, match="no choices"):
        run(make_client(script).complete(MESSAGES, model="m"))


def test_backoff_jitter_is_seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    def delays(seed: int) -> list[float]:
        slept: list[float] = []

        async def record(delay: float) -> None:
            slept.append(delay)

        monkeypatch.setattr(client_module, "_sleep", record)
        script = Script(httpx.Response(503, json={}))
        client = make_client(script, seed=seed, backoff_base_s=1.0, backoff_cap_s=8.0)
        with pytest.raises(ModelCallError):
            run(client.complete(MESSAGES, model="m"))
        return slept

    first, again, other = delays(7), delays(7), delays(8)
    assert first == again and first != other
    # exponential with "equal jitter": the n-th wait lies in [base * 2**n / 2, base * 2**n]
    assert all(lo / 2 <= d <= lo for d, lo in zip(first, [1.0, 2.0, 4.0], strict=True))


# --------------------------------------------------------------------------------------------
# Requests, keys, usage and cost
# --------------------------------------------------------------------------------------------


def test_the_request_carries_the_settings_key_and_headers() -> None:
    script = Script(httpx.Response(200, json=completion()))
    schema = {"type": "json_schema", "json_schema": {"name": "x", "schema": {}}}
    run(
        make_client(script).complete(
            MESSAGES,
            model="vendor/m",
            temperature=0.0,
            max_tokens=80,
            response_format=schema,
            reasoning={"effort": "low"},
        )
    )
    request = script.requests[0]
    assert str(request.url) == "https://llm.example/v1/chat/completions"
    assert request.headers["authorization"] == "Bearer sk-test"
    assert request.headers["x-title"] == "arcade-gym"
    body = script.body()
    assert body == {
        "model": "vendor/m",
        "messages": MESSAGES,
        "temperature": 0.0,
        "max_tokens": 80,
        "response_format": schema,
        "reasoning": {"effort": "low"},
    }


def test_a_missing_key_is_fatal_before_any_request(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(KEY_ENV)
    script = Script(httpx.Response(200, json=completion()))
    with pytest.raises(FatalModelError, match=f"{KEY_ENV} is not set") as info:
        run(make_client(script).complete(MESSAGES, model="m"))
    assert info.value.reason == "api-key" and not script.requests


def test_a_local_server_needs_no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(KEY_ENV)
    script = Script(httpx.Response(200, json=completion()))
    client = ChatClient("http://127.0.0.1:11434/v1", KEY_ENV, transport=httpx.MockTransport(script))
    run(client.complete(MESSAGES, model="llama3"))
    assert "authorization" not in script.requests[0].headers
    assert is_loopback("http://localhost:8000/v1") and is_loopback("http://[::1]:8000/v1")
    assert not is_loopback("https://openrouter.ai/api/v1")


def test_reported_cost_and_token_usage_are_read() -> None:
    script = Script(
        httpx.Response(
            200, json=completion(prompt_tokens=812, completion_tokens=14, cost=0.00019068)
        )
    )
    reply = run(make_client(script).complete(MESSAGES, model="m"))
    assert (reply.prompt_tokens, reply.completion_tokens) == (812, 14)
    assert reply.cost_usd == 0.00019068 and reply.finish_reason == "stop"
    assert reply.raw["id"] == "gen-1" and reply.retries == 0
    spec = ModelSpec(slug="m", model="m", pricing={"in": 100.0, "out": 100.0})
    assert spec.cost_usd(reply) == 0.00019068  # the provider's figure wins over the price list


def test_cost_comes_from_pricing_when_the_server_reports_none() -> None:
    script = Script(httpx.Response(200, json=completion(prompt_tokens=1000, completion_tokens=100)))
    reply = run(make_client(script).complete(MESSAGES, model="m"))
    assert reply.cost_usd is None
    priced = ModelSpec(slug="m", model="m", pricing={"in": 0.15, "out": 0.6})
    assert priced.cost_usd(reply) == pytest.approx((1000 * 0.15 + 100 * 0.6) / 1e6)
    assert ModelSpec(slug="m", model="m").cost_usd(reply) is None
    no_usage = ChatReply("x", None, None, None, {})
    assert priced.cost_usd(no_usage) is None


def test_content_parts_and_refusals_are_read() -> None:
    body = completion()
    body["choices"][0]["message"] = {
        "role": "assistant",
        "content": [{"type": "text", "text": "ab"}, {"type": "text", "text": "cd"}],
        "refusal": "I can't help with that.",
    }
    reply = run(make_client(Script(httpx.Response(200, json=body))).complete(MESSAGES, model="m"))
    assert reply.text == "abcd" and reply.refusal == "I can't help with that."


# --------------------------------------------------------------------------------------------
# Cancellation
# --------------------------------------------------------------------------------------------


def test_cancelling_the_task_cancels_the_transport_request() -> None:
    seen: dict[str, bool] = {}

    async def hang(request: httpx.Request) -> httpx.Response:
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            seen["cancelled"] = True
            raise
        return httpx.Response(200, json=completion())

    async def main() -> None:
        client = ChatClient("http://127.0.0.1:9/v1", None, transport=httpx.MockTransport(hang))
        task = asyncio.ensure_future(client.complete(MESSAGES, model="m"))
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    run(main())
    assert seen == {"cancelled": True}


async def _silent_server(
    received: asyncio.Event, closed: asyncio.Event
) -> tuple[asyncio.Server, int]:
    """A TCP server that reads a request, never answers, and notes when the client hangs up."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        received.set()
        while await reader.read(4096):
            pass
        closed.set()  # EOF: the client closed the connection
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1]


@pytest.mark.parametrize("how", ["task", "signal"])
def test_cancellation_closes_the_connection(how: str) -> None:
    async def main() -> None:
        received, closed = asyncio.Event(), asyncio.Event()
        server, port = await _silent_server(received, closed)
        client = ChatClient(f"http://127.0.0.1:{port}/v1", None, timeout=30.0)
        signal = asyncio.Event()
        task = asyncio.ensure_future(client.complete(MESSAGES, model="m", cancel=signal))
        await asyncio.wait_for(received.wait(), 10.0)
        await asyncio.sleep(0.05)
        assert not closed.is_set() and not task.done()
        if how == "task":
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
        else:
            signal.set()
            with pytest.raises(CallCancelledError):
                await task
        await asyncio.wait_for(closed.wait(), 2.0)
        await client.aclose()
        server.close()
        await server.wait_closed()

    run(main())


# --------------------------------------------------------------------------------------------
# The registry
# --------------------------------------------------------------------------------------------


def test_the_built_in_registry_has_hosted_models_and_a_local_ollama_one() -> None:
    registry = load_registry()
    local = registry["ollama-llama3"]
    assert local.base_url == "http://127.0.0.1:11434/v1" and local.api_key_env is None
    hosted = [s for s in registry.values() if s.base_url == "https://openrouter.ai/api/v1"]
    assert len(hosted) >= 2 and all(s.api_key_env == "OPENROUTER_API_KEY" for s in hosted)
    assert all(s.kind == "llm" for s in registry.values())


def test_an_unknown_slug_lists_the_known_ones() -> None:
    with pytest.raises(RegistryError, match=r"unknown model 'nope'; known models: .*ollama-llama3"):
        get_spec("nope", load_registry())


def test_a_json_registry_with_the_seeds_camel_case_keys_loads(tmp_path: Path) -> None:
    path = tmp_path / "models.json"
    entry = {
        "slug": "my-model",
        "name": "My Model",
        "provider": "Vendor",
        "model": "vendor/my-model",
        "kind": "llm",
        "temperature": 0,
        "maxTokens": 80,
        "jsonSchema": True,
        "pricing": {"in": 0.15, "out": 0.6},
        "reasoning": {"effort": "low", "maxTokens": 512},
        "extraHeaders": {"HTTP-Referer": "https://example.org"},
    }
    path.write_text(json.dumps({"models": [entry]}))
    spec = load_registry(path)["my-model"]
    assert spec.max_tokens == 80 and spec.json_schema and spec.pricing is not None
    assert spec.pricing.input == 0.15 and spec.pricing.output == 0.6
    assert spec.reasoning is not None
    assert spec.reasoning.to_request() == {"effort": "low", "max_tokens": 512}
    moved = spec.with_base_url("http://127.0.0.1:8000/v1")
    assert moved.base_url == "http://127.0.0.1:8000/v1" and moved.pricing == spec.pricing


def test_a_toml_registry_keyed_by_slug_loads(tmp_path: Path) -> None:
    path = tmp_path / "models.toml"
    path.write_text('[models.local]\nmodel = "qwen"\nbase_url = "http://localhost:8080/v1"\n')
    spec = load_registry(path)["local"]
    assert spec.model == "qwen" and spec.display_name == "local"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('[[models]]\nslug = "a"\nmodel = "m"\nmax_tokns = 3\n', "max_tokns"),
        ('[[models]]\nslug = "a"\n', "model"),
        ('[[models]]\nslug = "a"\nmodel = "m"\n[[models]]\nslug = "a"\nmodel = "n"\n', "twice"),
        ("models = [", "not valid TOML"),
    ],
)
def test_bad_registries_are_refused_with_the_reason(
    tmp_path: Path, text: str, problem: str
) -> None:
    path = tmp_path / "models.toml"
    path.write_text(text)
    with pytest.raises(RegistryError, match=problem):
        load_registry(path)


def test_a_missing_models_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(RegistryError, match="does not exist"):
        load_registry(tmp_path / "nope.toml")


def test_an_unreachable_server_is_an_outage_after_a_few_retries_whatever_the_deadline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A long safety-net deadline (Sudoku's 15 minutes) must not keep a dead endpoint's game
    waiting: connection failures in a row end the call after MAX_CONNECTION_RETRIES retries."""
    slept: list[float] = []

    async def record(delay: float) -> None:
        slept.append(delay)

    monkeypatch.setattr(client_module, "_sleep", record)

    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    client = make_client(refuse, max_retries=None)
    deadline = time.monotonic() + 900.0
    with pytest.raises(ServiceFailure, match="retries exhausted") as caught:
        run(client.complete(MESSAGES, model="m", deadline=deadline))
    assert caught.value.reason == "connection"
    assert len(slept) == client_module.MAX_CONNECTION_RETRIES


def test_a_server_that_answers_again_resets_the_unreachable_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def no_wait(delay: float) -> None:
        return None

    monkeypatch.setattr(client_module, "_sleep", no_wait)
    calls = {"n": 0}

    def flaky(request: httpx.Request) -> httpx.Response:
        calls["n"] += 1
        if calls["n"] % 2:  # refused, then a 503, refused, 503, ...: never 5 refusals in a row
            raise httpx.ConnectError("connection refused", request=request)
        if calls["n"] < 12:
            return httpx.Response(503, json={})
        return httpx.Response(200, json=completion())

    client = make_client(flaky, max_retries=None)
    reply = run(client.complete(MESSAGES, model="m", deadline=time.monotonic() + 900.0))
    assert reply.retries == 11

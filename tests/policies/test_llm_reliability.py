"""What makes LLM results trustworthy, at the client and chat-policy level: typed failures,
retries that honour Retry-After within the deadline, costs with their source and a sanity range,
the cost cap, the response cache, request options, the rate limit, run identity, pre-flight in
the benchmark's format, and telemetry on every decision. Against httpx.MockTransport and the
local server of tests/policies/chat_server.py (no network)."""

from __future__ import annotations

import asyncio
import json
import math
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_gym.tetris.game import TetrisGame
from arcade_gym.tictactoe.contract import TicTacToeAnswer, TicTacToeQuestion
from policies.base import DecisionContext, RunStopError, ServiceFailureError
from policies.llm import (
    ChatClient,
    ChatPolicy,
    CostCapReached,
    CostMeter,
    FatalModelError,
    ModelSpec,
    PreflightError,
    ResponseCache,
    ServiceFailure,
    identity_differences,
    load_registry,
    make_llm_policy,
    prompt_for,
    run_identity,
)
from policies.llm import client as client_module
from policies.llm.costs import MAX_CALL_COST_USD, sane_cost
from policies.llm.rate_limit import RateLimiter
from policies.llm.responses import retry_after
from policies.tetris.prompt import candidate_ids
from tests.policies.chat_server import ChatHandler, ChatServer, serving
from tests.policies.mock_chat import Script, completion

KEY_ENV = "ARCADE_GYM_TEST_RELIABILITY_KEY"
MESSAGES = [{"role": "user", "content": "hi"}]


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, "sk-test")


def client_for(script: Script, **options: Any) -> ChatClient:
    settings_: dict[str, Any] = {"backoff_base_s": 0.001, "backoff_cap_s": 0.01}
    settings_.update(options)
    return ChatClient(
        "https://llm.example/v1",
        KEY_ENV,
        None,
        5.0,
        transport=httpx.MockTransport(script),
        **settings_,
    )


def spec(**changes: Any) -> ModelSpec:
    values: dict[str, Any] = {
        "slug": "m",
        "model": "vendor/m",
        "base_url": "https://llm.example/v1",
        "api_key_env": KEY_ENV,
        "json_schema": True,
    }
    values.update(changes)
    return ModelSpec.model_validate(values)


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def tetris_question() -> Any:
    return TetrisGame("seed-01").question()


# --------------------------------------------------------------------------------------------
# Service failures: typed, retried while the deadline allows, Retry-After honoured
# --------------------------------------------------------------------------------------------


def test_429s_then_recovery_wait_as_long_as_retry_after_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    slept: list[float] = []

    async def record(delay: float) -> None:
        slept.append(delay)

    monkeypatch.setattr(client_module, "_sleep", record)
    busy = httpx.Response(429, headers={"retry-after": "3"}, json={"error": {"message": "busy"}})
    script = Script(busy, busy, busy, httpx.Response(200, json=completion()))
    client = client_for(script)  # no max_retries: the deadline is the only bound
    reply = run(client.complete(MESSAGES, model="m", deadline=time.monotonic() + 60))
    assert reply.retries == 3 and len(script.requests) == 4
    assert slept and all(d >= 3.0 for d in slept)  # never sooner than the server asked


def test_retry_after_ms_and_http_dates_are_read() -> None:
    headers = httpx.Headers({"retry-after-ms": "1500"})
    assert retry_after(headers) == 1.5
    date = httpx.Headers({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"})
    assert retry_after(date) == 0.0  # in the past: go now
    assert retry_after(httpx.Headers({"retry-after": "soon"})) is None


def test_a_rate_limit_longer_than_the_deadline_is_a_service_failure() -> None:
    script = Script(httpx.Response(429, headers={"retry-after": "30"}, json={}))
    t0 = time.monotonic()
    with pytest.raises(ServiceFailure, match="no time left") as info:
        run(client_for(script).complete(MESSAGES, model="m", deadline=time.monotonic() + 2))
    assert time.monotonic() - t0 < 1.5  # it did not sleep into a wait that cannot fit
    assert info.value.reason == "rate-limit" and info.value.status == 429
    assert isinstance(info.value, ServiceFailureError)  # the loop aborts the game on it


@pytest.mark.parametrize(
    ("step", "reason"),
    [
        (httpx.Response(503, json={"error": {"message": "overloaded"}}), "server"),
        (httpx.ConnectError("refused"), "connection"),
        (httpx.ReadTimeout("slow"), "timeout"),
        (httpx.Response(200, json={"error": {"code": 502, "message": "upstream"}}), "provider"),
        (httpx.Response(200, json={"object": "chat.completion"}), "provider"),
        (httpx.Response(200, content=b"<html>gateway</html>"), "provider"),
    ],
)
def test_failures_without_a_reply_are_service_failures(
    step: httpx.Response | Exception, reason: str
) -> None:
    script = Script(step)
    with pytest.raises(ServiceFailure) as info:
        run(client_for(script, max_retries=2).complete(MESSAGES, model="m"))
    assert info.value.reason == reason and info.value.retries == 2 and len(script.requests) == 3


def test_a_rejected_request_is_a_service_failure_without_retries() -> None:
    script = Script(httpx.Response(400, json={"error": {"message": "max_tokens is too large"}}))
    with pytest.raises(ServiceFailure, match="max_tokens is too large") as info:
        run(client_for(script).complete(MESSAGES, model="m"))
    assert info.value.reason == "rejected" and len(script.requests) == 1


def test_fatal_faults_stop_the_run() -> None:
    script = Script(httpx.Response(401, json={"error": {"message": "bad key"}}))
    with pytest.raises(FatalModelError) as info:
        run(client_for(script).complete(MESSAGES, model="m"))
    assert isinstance(info.value, RunStopError) and info.value.reason == "auth"


# --------------------------------------------------------------------------------------------
# Usage and cost
# --------------------------------------------------------------------------------------------


def test_litellm_cost_header_is_the_reported_cost() -> None:
    response = httpx.Response(
        200, headers={"x-litellm-response-cost": "0.00042"}, json=completion()
    )
    reply = run(client_for(Script(response)).complete(MESSAGES, model="m"))
    assert reply.cost_usd == 0.00042
    cost = spec(pricing={"in": 100.0, "out": 100.0}).price(reply)
    assert (cost.usd, cost.source) == (0.00042, "reported")


def test_usage_cost_wins_over_the_header_and_prices_are_only_a_fallback() -> None:
    both = httpx.Response(
        200, headers={"x-litellm-response-cost": "9"}, json=completion(cost=0.001)
    )
    reply = run(client_for(Script(both)).complete(MESSAGES, model="m"))
    assert reply.cost_usd == 0.001
    plain = run(
        client_for(Script(httpx.Response(200, json=completion()))).complete(MESSAGES, model="m")
    )
    cost = spec(pricing={"in": 1.0, "out": 2.0}).price(plain)
    assert cost.source == "estimated" and cost.usd == pytest.approx((120 * 1 + 9 * 2) / 1e6)
    assert spec().price(plain).source == "unknown" and spec().price(plain).usd is None


@pytest.mark.parametrize("bad", [1e300, -0.5, "NaN", "lots", 11.0, float("inf"), True])
def test_absurd_reported_costs_are_unknown_with_a_note(bad: Any) -> None:
    body = (
        completion(cost=bad) if not isinstance(bad, float) or math.isfinite(bad) else completion()
    )
    if isinstance(bad, float) and not math.isfinite(bad):
        body["usage"]["cost"] = "Infinity"
    reply = run(client_for(Script(httpx.Response(200, json=body))).complete(MESSAGES, model="m"))
    assert reply.cost_usd is None and reply.reported.note is not None
    assert "cost unknown" in reply.reported.note
    priced = spec(pricing={"in": 1.0, "out": 1.0}).price(reply)
    assert priced.source == "estimated" and priced.note == reply.reported.note


@given(st.one_of(st.floats(allow_nan=True), st.integers(), st.text(max_size=30), st.none()))
@settings(max_examples=200, deadline=None)
def test_sane_cost_never_raises_and_keeps_only_sane_figures(value: Any) -> None:
    cost = sane_cost(value, "usage.cost")
    if cost.usd is not None:
        assert 0 <= cost.usd <= MAX_CALL_COST_USD and cost.source == "reported"
    else:
        assert cost.source == "unknown"


def test_reasoning_and_cached_tokens_are_read_and_huge_numbers_do_not_break_the_body() -> None:
    body = completion(
        completion_tokens_details={"reasoning_tokens": 77},
        prompt_tokens_details={"cached_tokens": 64},
    )
    reply = run(client_for(Script(httpx.Response(200, json=body))).complete(MESSAGES, model="m"))
    assert (reply.reasoning_tokens, reply.cached_tokens) == (77, 64)
    huge = json.dumps(completion()).replace(
        '"prompt_tokens": 120', '"prompt_tokens": ' + "9" * 5000
    )
    response = httpx.Response(
        200, content=huge.encode(), headers={"content-type": "application/json"}
    )
    reply = run(client_for(Script(response)).complete(MESSAGES, model="m"))
    assert reply.prompt_tokens is None and reply.text.startswith('{"candidate"')


# --------------------------------------------------------------------------------------------
# Request options
# --------------------------------------------------------------------------------------------


def test_token_param_max_completion_tokens_sends_that_key_and_no_max_tokens() -> None:
    script = Script(httpx.Response(200, json=completion()))
    s = spec(token_param="max_completion_tokens", max_tokens=4000, reasoning_effort="low")
    policy = ChatPolicy(s, prompt_for("tetris"), client_for(script))
    run(policy.act_async(tetris_question(), DecisionContext.with_budget(5000)))
    body = script.body()
    assert body["max_completion_tokens"] == 4000 and "max_tokens" not in body
    assert body["reasoning_effort"] == "low" and "reasoning" not in body


def test_token_param_none_sends_no_budget_and_extra_body_routes_the_provider() -> None:
    script = Script(httpx.Response(200, json=completion()))
    s = spec(
        token_param="none",
        reasoning={"effort": "high"},
        extra_body={"provider": {"order": ["groq"], "allow_fallbacks": False}},
    )
    run(
        ChatPolicy(s, prompt_for("tetris"), client_for(script)).act_async(
            tetris_question(), DecisionContext()
        )
    )
    body = script.body()
    assert "max_tokens" not in body and "max_completion_tokens" not in body
    assert body["reasoning"] == {"effort": "high"}
    assert body["provider"] == {"order": ["groq"], "allow_fallbacks": False}


def test_the_registry_has_local_server_examples_and_openai_native_options() -> None:
    registry = load_registry()
    hosts = {s.slug: s.base_url for s in registry.values()}
    assert hosts["vllm-qwen2.5-7b"] == "http://127.0.0.1:8000/v1"
    assert hosts["llamacpp-local"] == "http://127.0.0.1:8080/v1"
    assert hosts["ollama-llama3"] == "http://127.0.0.1:11434/v1"
    native = registry["openai-o4-mini"]
    assert native.token_param == "max_completion_tokens" and native.reasoning_effort == "low"
    with pytest.raises(ValueError, match="token_param"):
        spec(token_param="max_tokenz")


# --------------------------------------------------------------------------------------------
# Run identity
# --------------------------------------------------------------------------------------------


def test_run_identity_holds_every_setting_and_names_what_changed() -> None:
    base = spec(extra_body={"provider": {"order": ["a"]}}, reasoning={"effort": "low"})
    identity = run_identity(base, prompt_version="p/1", adapter_version="a/1")
    assert identity["modelId"] == "vendor/m" and identity["baseUrlHost"] == "llm.example"
    assert identity["tokenParam"] == "max_tokens" and identity["maxTokens"] == 80
    assert identity["extraBodyKeys"] == ["provider"] and identity["jsonSchema"] is True
    assert identity["reasoning"] == {"effort": "low"} and identity["promptVersion"] == "p/1"
    json.dumps(identity)  # JSON-able
    hotter = base.model_copy(update={"temperature": 1.5})
    changed = run_identity(hotter, prompt_version="p/1", adapter_version="a/1")
    assert identity_differences(identity, changed) == ["temperature: 0.0 -> 1.5"]
    rerouted = base.model_copy(update={"extra_body": {"provider": {"order": ["b"]}}})
    diff = identity_differences(
        identity, run_identity(rerouted, prompt_version="p/1", adapter_version="a/1")
    )
    assert [line.split(":")[0] for line in diff] == ["extraBodyDigest"]
    policy = ChatPolicy(base, prompt_for("snake"), client_for(Script()))
    assert policy.run_identity()["promptVersion"].startswith("narcade-llm-prompt/")


# --------------------------------------------------------------------------------------------
# The cost cap
# --------------------------------------------------------------------------------------------


def test_the_cost_cap_refuses_a_call_before_sending_it() -> None:
    script = Script(httpx.Response(200, json=completion(cost=0.004)))
    meter = CostMeter(0.01)
    s = spec(pricing={"in": 1.0, "out": 1.0}, max_tokens=80)
    policy = ChatPolicy(s, prompt_for("tetris"), client_for(script), meter=meter)
    q = tetris_question()
    sent = 0
    with pytest.raises(CostCapReached, match="cost cap reached") as info:
        for _ in range(10):
            run(policy.act_async(q, DecisionContext()))
            sent += 1
    assert isinstance(info.value, RunStopError)
    assert len(script.requests) == sent and meter.spent_usd <= 0.01
    assert meter.spent_usd == pytest.approx(0.004 * sent)
    telemetry = policy.pop_telemetry()
    assert telemetry is not None and telemetry["errorKind"] == "cost-cap"
    higher = CostMeter(1.0, spent_usd=meter.spent_usd)  # a resume with a higher cap goes on
    policy.meter = higher
    run(policy.act_async(q, DecisionContext()))
    assert len(script.requests) == sent + 1


def test_calls_cut_off_by_the_deadline_are_charged_their_estimate() -> None:
    async def hang(request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(30)
        return httpx.Response(200, json=completion())

    meter = CostMeter(5.0)
    client = ChatClient("https://llm.example/v1", KEY_ENV, transport=httpx.MockTransport(hang))

    async def main() -> None:
        task = asyncio.ensure_future(
            client.send({"model": "m", "messages": MESSAGES}, meter=meter, worst_case_usd=0.25)
        )
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    run(main())
    assert meter.spent_usd == 0.25 and meter.in_flight_usd == 0.0


def test_failed_calls_cost_nothing_and_unpriced_models_are_booked_at_their_dearest_call() -> None:
    meter = CostMeter(1.0)
    failing = client_for(Script(httpx.Response(503, json={})), max_retries=0)
    with pytest.raises(ServiceFailure):
        run(failing.send({"model": "m", "messages": MESSAGES}, meter=meter, worst_case_usd=0.5))
    assert meter.spent_usd == 0.0 and meter.in_flight_usd == 0.0
    meter.settle(meter.reserve("m", 0.0), 0.3)
    assert meter.worst_case("m", 10_000, 100, None, None) == 0.3
    assert meter.worst_case("m", 4000, 100, 1.0, 2.0) == 0.3  # billed above its list price
    assert meter.worst_case("other", 4000, 100, 1.0, 2.0) == pytest.approx((1000 + 200) / 1e6)
    with pytest.raises(ValueError, match="max-cost-usd"):
        CostMeter(float("nan"))


# --------------------------------------------------------------------------------------------
# The response cache
# --------------------------------------------------------------------------------------------


def test_a_cached_rerun_makes_zero_requests_and_records_the_same_telemetry(tmp_path: Path) -> None:
    q = tetris_question()
    ids = candidate_ids(q.state_hash, len(q.candidates))
    script = Script(
        httpx.Response(
            200,
            headers={"x-litellm-response-cost": "0.002"},
            json=completion(json.dumps({"candidate": ids[3], "hold": False, "risk": 0.2})),
        )
    )
    first_answers: list[dict[str, Any]] = []
    first_telemetry: list[dict[str, Any] | None] = []
    for _ in range(2):  # two runs, each a fresh policy and client sharing the cache directory
        policy = ChatPolicy(
            spec(), prompt_for("tetris"), client_for(script, cache=ResponseCache(tmp_path))
        )
        answer = run(policy.act_async(q, DecisionContext.with_budget(5000)))
        first_answers.append(answer.model_dump(by_alias=True))
        first_telemetry.append(policy.pop_telemetry())
    assert len(script.requests) == 1  # the re-run made no request at all
    assert first_answers[0] == first_answers[1] and first_telemetry[0] == first_telemetry[1]
    assert first_telemetry[1] is not None
    assert first_telemetry[1]["costUsd"] == 0.002  # the header came back from the cache too
    assert policy.usage["cacheHits"] == 1


def test_the_cache_is_never_shared_across_settings(tmp_path: Path) -> None:
    script = Script(httpx.Response(200, json=completion()))
    cache = ResponseCache(tmp_path)
    q = tetris_question()
    for temperature in (0.0, 0.7, 0.0):
        s = spec(temperature=temperature)
        run(
            ChatPolicy(s, prompt_for("tetris"), client_for(script, cache=cache)).act_async(
                q, DecisionContext()
            )
        )
    assert len(script.requests) == 2 and cache.hits == 1
    assert "authorization" not in (next(tmp_path.rglob("*.json")).read_text().lower())


def test_a_corrupt_cache_entry_is_asked_again(tmp_path: Path) -> None:
    script = Script(httpx.Response(200, json=completion()))
    client = client_for(script, cache=ResponseCache(tmp_path))
    run(client.complete(MESSAGES, model="m"))
    next(tmp_path.rglob("*.json")).write_text("{not json")
    run(client.complete(MESSAGES, model="m"))
    assert len(script.requests) == 2


# --------------------------------------------------------------------------------------------
# Requests per minute
# --------------------------------------------------------------------------------------------


def test_requests_are_spaced_and_a_slot_past_the_deadline_is_a_service_failure() -> None:
    limiter = RateLimiter(60.0)  # one a second
    waits = [limiter.reserve() for _ in range(3)]
    assert waits[0] == pytest.approx(0.0, abs=0.05)
    assert waits[1] == pytest.approx(1.0, abs=0.05) and waits[2] == pytest.approx(2.0, abs=0.05)
    with pytest.raises(ServiceFailure, match="requests-per-minute") as info:
        limiter.reserve(deadline=time.monotonic() + 0.5)
    assert info.value.reason == "local-limit"
    limited = spec(requests_per_minute=30).client()
    assert limited.rate_limiter is spec(requests_per_minute=30).client().rate_limiter
    with pytest.raises(ValueError):
        RateLimiter(0)


# --------------------------------------------------------------------------------------------
# Telemetry and replies that must never break anything
# --------------------------------------------------------------------------------------------


def test_every_decision_reports_its_telemetry_once_with_the_whole_reply() -> None:
    long_reply = "x" * 5000 + '\n{"action": "up"}'
    body = completion(long_reply, cost=0.0001, completion_tokens_details={"reasoning_tokens": 5})
    script = Script(httpx.Response(200, json=body))
    game = __import__("arcade_gym.snake.game", fromlist=["SnakeGame"]).SnakeGame("seed-01")
    policy = ChatPolicy(spec(), prompt_for("snake"), client_for(script), transcripts=True)
    answer = run(policy.act_async(game.question(), DecisionContext()))
    assert answer.action == "up"
    telemetry = policy.pop_telemetry()
    assert telemetry is not None and policy.pop_telemetry() is None
    assert telemetry["raw"] == long_reply  # whole, not cut
    assert telemetry["reasoningTokens"] == 5 and telemetry["costSource"] == "reported"
    assert telemetry["messages"][0]["role"] == "system"
    assert all(key[0].islower() and "_" not in key for key in telemetry)


@pytest.mark.parametrize(
    "content",
    [
        '{"candidate": "AB", "hold": false, "risk": ' + "7" * 5000 + "}",
        '{"candidate": "AB", "risk": 1e999}',
        '{"candidate": ' + "[" * 5000 + "]" * 5000 + "}",
        '{"candidate": ' + "9" * 5000 + "}",
    ],
)
def test_replies_with_absurd_numbers_never_raise_and_keep_the_raw_text(content: str) -> None:
    q = tetris_question()
    ids = candidate_ids(q.state_hash, len(q.candidates))
    content = content.replace('"AB"', f'"{ids[0]}"')
    script = Script(httpx.Response(200, json=completion(content)))
    policy = ChatPolicy(spec(json_schema=False), prompt_for("tetris"), client_for(script))
    answer = run(policy.act_async(q, DecisionContext()))
    telemetry = policy.pop_telemetry()
    assert telemetry is not None and telemetry["raw"] == content
    meta = answer["meta"] if isinstance(answer, dict) else answer.meta
    assert meta["raw"] == content


def test_a_failed_call_reports_its_kind_in_the_telemetry() -> None:
    policy = ChatPolicy(
        spec(), prompt_for("snake"), client_for(Script(httpx.Response(502, json={})), max_retries=1)
    )
    game = __import__("arcade_gym.snake.game", fromlist=["SnakeGame"]).SnakeGame("seed-01")
    with pytest.raises(ServiceFailure):
        run(policy.act_async(game.question(), DecisionContext()))
    telemetry = policy.pop_telemetry()
    assert (
        telemetry is not None and telemetry["errorKind"] == "service" and telemetry["retries"] == 1
    )
    assert policy.usage["serviceFailures"] == 1


# --------------------------------------------------------------------------------------------
# Pre-flight in the benchmark's own format, against the local server
# --------------------------------------------------------------------------------------------


@dataclass
class State:
    reply: str = '{"action":"up"}'
    busy_until: float = 0.0
    requests: list[dict[str, Any]] = field(default_factory=list)
    auth: list[str | None] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class Handler(ChatHandler):
    server: Server

    def do_POST(self) -> None:  # noqa: N802  (the http.server hook name)
        state = self.server.state
        body = self.read_json()
        with state.lock:
            state.requests.append(body)
            state.auth.append(self.headers.get("Authorization"))
        if time.monotonic() < state.busy_until:
            self.send_json(429, {"error": {"message": "busy"}}, {"Retry-After": "0.2"})
            return
        self.send_completion(
            body,
            state.reply,
            report_cost=False,
            usage_extra={"prompt_tokens_details": {"cached_tokens": 3}},
            headers={"x-litellm-response-cost": "0.0005"},
        )


class Server(ChatServer):
    state: State

    def __init__(self) -> None:
        super().__init__(Handler, State())


@pytest.fixture
def server() -> Iterator[Server]:
    with serving(Server()) as srv:
        yield srv  # type: ignore[misc]


def local_spec(server: Server, **changes: Any) -> ModelSpec:
    values: dict[str, Any] = {
        "slug": "local",
        "model": "test/local",
        "base_url": server.base_url,
        "api_key_env": KEY_ENV,
        "json_schema": True,
    }
    values.update(changes)
    return ModelSpec.model_validate(values)


def test_preflight_checks_the_benchmarks_format_and_says_whether_a_key_was_sent(
    server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    models = tmp_path / "models.toml"
    models.write_text(
        f'[[models]]\nslug = "local"\nmodel = "test/local"\nbase_url = "{server.base_url}"\n'
        f'api_key_env = "{KEY_ENV}"\njson_schema = true\n'
    )
    snake = make_llm_policy("local", "snake", models_file=models)
    snake.preflight()  # {"action":"up"} is a NARCADE reply
    assert server.state.requests[-1]["response_format"]["json_schema"]["name"] == "narcade_action"

    server.state.reply = "Sure! I would go up."
    with pytest.raises(
        PreflightError, match=f"not in the benchmark's format.*\\${KEY_ENV} was sent"
    ):
        snake.preflight()
    monkeypatch.delenv(KEY_ENV)
    with pytest.raises(PreflightError, match="no API key was sent"):
        snake.preflight()  # a loopback server needs no key
    assert server.state.auth[-1] is None

    server.state.reply = "<move>1 1</move>"
    make_llm_policy("local", "tictactoe", models_file=models).preflight()


def test_a_server_busy_for_a_while_then_recovering_costs_retries_not_the_decision(
    server: Server,
) -> None:
    server.state.busy_until = time.monotonic() + 1.0
    policy = ChatPolicy(local_spec(server), prompt_for("snake"), local_spec(server).client())
    game = __import__("arcade_gym.snake.game", fromlist=["SnakeGame"]).SnakeGame("seed-01")
    answer = run(policy.act_async(game.question(), DecisionContext.with_budget(20_000)))
    assert answer.action == "up"
    telemetry = policy.pop_telemetry()
    assert telemetry is not None and telemetry["retries"] >= 1
    assert telemetry["costUsd"] == 0.0005 and telemetry["costSource"] == "reported"
    assert telemetry["cachedTokens"] == 3

    server.state.busy_until = time.monotonic() + 60.0
    with pytest.raises(ServiceFailure) as info:
        run(policy.act_async(game.question(), DecisionContext.with_budget(1500)))
    assert info.value.reason == "rate-limit"


def test_a_tictactoe_policy_from_the_registry_plays_through_the_base(server: Server) -> None:
    server.state.reply = "I will take the centre. <move>1 1</move>"
    policy = ChatPolicy(
        local_spec(server, json_schema=False), prompt_for("tictactoe"), local_spec(server).client()
    )
    q = TicTacToeQuestion(size=3, k=3, to_move="X", rows=("...", "...", "..."))
    assert run(policy.act_async(q, DecisionContext())) == TicTacToeAnswer(row=1, col=1)
    with pytest.raises(ValueError, match="do not play"):
        prompt_for("go")

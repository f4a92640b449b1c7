"""The response cache is accountable (`policies/llm/cache.py`): an entry is served only when it
records the hash of the very request it answers, in this format, as a regular file of bounded
size; anything planted, copied, old, oversized or linked is ignored, asked again and replaced.
A decision from a cache-enabled client is marked in its call record, the same way on the run
that stored it and on the re-run that reads it. Against httpx.MockTransport (no network)."""

from __future__ import annotations

import asyncio
import json
import math
import os
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from arcade_gym.tictactoe.contract import TicTacToeQuestion
from policies.base import DecisionContext
from policies.llm import ChatClient, ChatPolicy, ModelSpec, ResponseCache, prompt_for
from policies.llm import cache as cache_module
from policies.llm.cache import CACHE_FORMAT, CachedResponse, request_key
from policies.llm.cli_backend import _cached_reply
from tests.policies.mock_chat import Script, completion

KEY_ENV = "ARCADE_GYM_TEST_CACHE_KEY"
URL = "https://llm.example/v1"
MESSAGES = [{"role": "user", "content": "hi"}]
PLANTED = "planted reply"
FRESH = "fresh reply"


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, "sk-test")


def client_for(script: Script, cache: ResponseCache) -> ChatClient:
    return ChatClient(URL, KEY_ENV, None, 5.0, transport=httpx.MockTransport(script), cache=cache)


def fresh_script() -> Script:
    return Script(httpx.Response(200, json=completion(FRESH)))


def key_of(client: ChatClient, messages: list[dict[str, str]] = MESSAGES) -> str:
    return request_key(client.url, client.build_body(messages, model="m"), client.extra_headers)


def ask(client: ChatClient, messages: list[dict[str, str]] = MESSAGES) -> Any:
    return asyncio.run(client.complete(messages, model="m"))


def entry(key: str | None, text: str = PLANTED, **changes: Any) -> dict[str, Any]:
    """A cache file's content: a well-formed entry for `key` unless `changes` spoil it."""
    out: dict[str, Any] = {
        "format": CACHE_FORMAT,
        "requestHash": key,
        "body": completion(text),
        "headers": {},
        "latencyMs": 12.0,
        "retries": 0,
    }
    out.update(changes)
    return {k: v for k, v in out.items() if v is not None}


def plant(cache: ResponseCache, key: str, content: dict[str, Any] | str | bytes) -> Path:
    path = cache.path(key)
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, dict):
        content = json.dumps(content)
    path.write_bytes(content.encode() if isinstance(content, str) else content)
    return path


def assert_replaced_by_fresh(cache: ResponseCache, key: str) -> None:
    stored = json.loads(cache.path(key).read_text())
    assert stored["requestHash"] == key and stored["format"] == CACHE_FORMAT
    assert stored["body"]["choices"][0]["message"]["content"] == FRESH
    assert not cache.path(key).is_symlink()


# --- what is served -------------------------------------------------------------------------
def test_a_well_formed_entry_for_the_request_is_served(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path)
    script = fresh_script()
    client = client_for(script, cache)
    key = key_of(client)
    plant(cache, key, entry(key))
    reply = ask(client)
    assert reply.text == PLANTED and reply.from_cache and reply.cache_key == key
    assert script.requests == []


BAD_ENTRIES: dict[str, Any] = {
    "no request hash (as format 1 wrote them)": lambda key: entry(None),
    "format 1": lambda key: entry(None, format="arcade-gym-llm-cache/1"),
    "another request's hash": lambda key: entry("0" * 64),
    "no format": lambda key: entry(key, format=None),
    "a list": lambda key: json.dumps([entry(key)]),
    "body not an object": lambda key: entry(key, body="hi"),
    "headers not strings": lambda key: entry(key, headers={"x": 1}),
    "latency NaN": lambda key: json.dumps(entry(key, latencyMs=math.nan)),
    "negative retries": lambda key: entry(key, retries=-1),
    "retries a bool": lambda key: entry(key, retries=True),
    "not JSON": lambda key: "{not json",
    "not UTF-8": lambda key: b"\xff\xfe{}",
    "deeply nested": lambda key: "[" * 100_000 + "]" * 100_000,
    "empty": lambda key: "",
}


@pytest.mark.parametrize("name", list(BAD_ENTRIES))
def test_a_bad_entry_is_ignored_asked_again_and_replaced(tmp_path: Path, name: str) -> None:
    cache = ResponseCache(tmp_path)
    script = fresh_script()
    client = client_for(script, cache)
    key = key_of(client)
    plant(cache, key, BAD_ENTRIES[name](key))
    reply = ask(client)
    assert reply.text == FRESH and not reply.from_cache and len(script.requests) == 1
    assert_replaced_by_fresh(cache, key)
    again = ask(client_for(script, ResponseCache(tmp_path)))  # the fresh entry now serves
    assert again.from_cache and again.text == FRESH and len(script.requests) == 1


def test_an_entry_copied_from_another_request_is_not_served(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path)
    script = Script(
        httpx.Response(200, json=completion("for A")), httpx.Response(200, json=completion(FRESH))
    )
    client = client_for(script, cache)
    other = [{"role": "user", "content": "something else"}]
    ask(client, other)
    key_a, key_b = key_of(client, other), key_of(client)
    plant(cache, key_b, cache.path(key_a).read_bytes())  # a valid entry, at the wrong path
    reply = ask(client)
    assert reply.text == FRESH and len(script.requests) == 2
    assert_replaced_by_fresh(cache, key_b)


def test_an_oversized_entry_is_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache_module, "MAX_ENTRY_BYTES", 4096)
    cache = ResponseCache(tmp_path)
    script = fresh_script()
    client = client_for(script, cache)
    key = key_of(client)
    plant(cache, key, entry(key, padding="x" * 5000))  # well formed, but too big
    reply = ask(client)
    assert reply.text == FRESH and len(script.requests) == 1
    assert_replaced_by_fresh(cache, key)


def test_a_symlinked_entry_is_not_followed_and_its_target_is_untouched(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "cache")
    script = fresh_script()
    client = client_for(script, cache)
    key = key_of(client)
    outside = tmp_path / "outside.json"
    outside.write_text(json.dumps(entry(key)))  # a valid entry: only the link makes it bad
    path = cache.path(key)
    path.parent.mkdir(parents=True)
    path.symlink_to(outside)
    reply = ask(client)
    assert reply.text == FRESH and len(script.requests) == 1
    assert_replaced_by_fresh(cache, key)
    assert json.loads(outside.read_text()) == entry(key)


def test_a_symlinked_shard_directory_is_neither_read_nor_written(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "cache")
    script = fresh_script()
    client = client_for(script, cache)
    key = key_of(client)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / f"{key}.json").write_text(json.dumps(entry(key)))
    (tmp_path / "cache" / key[:2]).symlink_to(outside, target_is_directory=True)
    reply = ask(client)
    assert reply.text == FRESH and len(script.requests) == 1
    assert sorted(p.name for p in outside.iterdir()) == [f"{key}.json"]
    assert json.loads((outside / f"{key}.json").read_text()) == entry(key)


def test_a_fifo_at_the_entry_path_does_not_hang_the_call(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path)
    script = fresh_script()
    client = client_for(script, cache)
    key = key_of(client)
    cache.path(key).parent.mkdir(parents=True)
    os.mkfifo(cache.path(key))
    done: list[Any] = []
    worker = threading.Thread(target=lambda: done.append(ask(client)), daemon=True)
    worker.start()
    worker.join(timeout=30)
    assert done and done[0].text == FRESH
    assert_replaced_by_fresh(cache, key)


def test_a_directory_at_the_entry_path_is_left_and_the_reply_still_returned(
    tmp_path: Path,
) -> None:
    cache = ResponseCache(tmp_path)
    script = fresh_script()
    client = client_for(script, cache)
    key = key_of(client)
    cache.path(key).mkdir(parents=True)
    assert ask(client).text == FRESH
    assert ask(client).text == FRESH and len(script.requests) == 2  # never served from it


def test_the_first_valid_entry_for_a_key_is_kept(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path)
    key = "a" * 64
    cache.put(key, CachedResponse(completion("first"), {}, 1.0, 0))
    cache.put(key, CachedResponse(completion("second"), {}, 1.0, 0))
    got = cache.get(key)
    assert got is not None and got.body["choices"][0]["message"]["content"] == "first"
    assert [p.name for p in cache.path(key).parent.iterdir()] == [f"{key}.json"]  # no temp left


def test_a_malformed_key_is_refused_and_never_a_path(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "cache")
    with pytest.raises(ValueError, match="64 lowercase hex"):
        cache.put("../../escape", CachedResponse({}, {}, 0.0, 0))
    assert cache.get("../../escape") is None
    assert list(tmp_path.rglob("*")) == [tmp_path / "cache"]


def test_a_malformed_cached_cli_body_is_asked_again() -> None:
    key = "b" * 64
    reply = _cached_reply({"stdout": "<move>1 1</move>\n"}, 5.0, key)
    assert reply is not None and reply.from_cache and reply.cache_key == key
    assert reply.text == "<move>1 1</move>\n"
    failed = json.dumps({"type": "result", "is_error": True, "result": "usage limit reached"})
    for bad in (
        {"stdout": 3},
        {"stdout": "x", "more": 1},
        {"choices": [{"message": {"content": "<move>1 1</move>"}}]},  # format 2 stored this
        {"stdout": failed},  # a failure is never served
        {},
    ):
        assert _cached_reply(bad, 5.0, key) is None


# --- the call record ------------------------------------------------------------------------
def spec() -> ModelSpec:
    return ModelSpec.model_validate(
        {"slug": "m", "model": "vendor/m", "base_url": URL, "api_key_env": KEY_ENV}
    )


QUESTION = TicTacToeQuestion(size=3, k=3, to_move="X", rows=("X..", "...", "..."))


def decide(client: ChatClient) -> tuple[dict[str, Any] | None, ChatPolicy]:
    policy = ChatPolicy(spec(), prompt_for("tictactoe"), client)
    asyncio.run(policy.act_async(QUESTION, DecisionContext.with_budget(5000)))
    return policy.pop_telemetry(), policy


def test_a_cached_decision_is_marked_alike_on_the_storing_run_and_the_rerun(
    tmp_path: Path,
) -> None:
    script = Script(httpx.Response(200, json=completion('{"move": "1 1"}')))
    first, _ = decide(client_for(script, ResponseCache(tmp_path)))
    second, policy = decide(client_for(script, ResponseCache(tmp_path)))
    assert len(script.requests) == 1 and policy.usage["cacheHits"] == 1
    assert first is not None and second is not None
    assert first["cache"] == "used" and len(first["requestHash"]) == 64
    assert (tmp_path / first["requestHash"][:2] / f"{first['requestHash']}.json").is_file()
    assert json.dumps(first, sort_keys=True) == json.dumps(second, sort_keys=True)


def test_without_a_cache_the_call_record_has_no_cache_fields() -> None:
    script = Script(httpx.Response(200, json=completion('{"move": "1 1"}')))
    client = ChatClient(URL, KEY_ENV, None, 5.0, transport=httpx.MockTransport(script))
    record, _ = decide(client)
    assert record is not None and "cache" not in record and "requestHash" not in record


def test_a_planted_reply_never_reaches_the_decision(tmp_path: Path) -> None:
    script = Script(httpx.Response(200, json=completion('{"move": "1 1"}')))
    cache = ResponseCache(tmp_path)
    probe, _ = decide(client_for(script, cache))
    assert probe is not None
    key = probe["requestHash"]
    plant(cache, key, entry(None, text='{"move": "3 3"}'))  # what format 1 would have served
    record, policy = decide(client_for(script, ResponseCache(tmp_path)))
    assert record is not None and record["raw"] == '{"move": "1 1"}'
    assert len(script.requests) == 2 and policy.usage["cacheHits"] == 0

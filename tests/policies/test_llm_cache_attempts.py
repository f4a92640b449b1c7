"""The response cache is keyed by attempt (`policies/llm/cache.py`): the same request sent again
in a row, a benchmark's retry after an unreadable reply, is a new request, never the cached
unreadable reply it retries; a re-run with the same cache still makes no request and logs the
same decisions. Against httpx.MockTransport and a server on 127.0.0.1 (no network)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from arcade_gym.tictactoe.contract import TicTacToeQuestion
from evaluation import cli
from policies.base import DecisionContext
from policies.llm import ChatClient, ChatPolicy, ModelSpec, ResponseCache, prompt_for
from policies.llm.cache import request_key
from tests.policies.mock_chat import Script, completion
from tests.policies.recording_server import UNREADABLE, models_file, recording

URL = "http://127.0.0.1:9/v1"
Q1 = TicTacToeQuestion(size=3, k=3, to_move="X", rows=("X..", "...", "..."))
Q2 = TicTacToeQuestion(size=3, k=3, to_move="X", rows=("XO.", "...", "..."))


def test_the_key_names_the_attempt() -> None:
    body = {"model": "m", "messages": []}
    keys = {request_key(URL, body, {}, attempt) for attempt in (1, 2, 3)}
    assert len(keys) == 3 and request_key(URL, body, {}) == request_key(URL, body, {}, 1)
    for bad in (0, -1, True, 1.5):
        with pytest.raises(ValueError, match="attempt"):
            request_key(URL, body, {}, bad)  # type: ignore[arg-type]


def policy_with(script: Script, cache: ResponseCache) -> ChatPolicy:
    spec = ModelSpec(slug="m", model="vendor/m", base_url=URL, api_key_env="")
    client = ChatClient(URL, None, None, 5.0, transport=httpx.MockTransport(script), cache=cache)
    return ChatPolicy(spec, prompt_for("tictactoe"), client)


def play(policy: ChatPolicy, *questions: TicTacToeQuestion) -> list[dict[str, Any]]:
    records = []
    for question in questions:
        asyncio.run(policy.act_async(question, DecisionContext.with_budget(5000)))
        record = policy.pop_telemetry()
        assert record is not None
        records.append(record)
    return records


def test_the_same_question_again_is_the_next_attempt_and_a_new_request(tmp_path: Path) -> None:
    script = Script(
        httpx.Response(200, json=completion("Hmm.")),
        httpx.Response(200, json=completion("<move>1 1</move>")),
        httpx.Response(200, json=completion("<move>2 2</move>")),
    )
    first = play(policy_with(script, ResponseCache(tmp_path)), Q1, Q1, Q2)
    assert [r["attempt"] for r in first] == [1, 2, 1]
    assert [r["raw"] for r in first] == ["Hmm.", "<move>1 1</move>", "<move>2 2</move>"]
    assert len(script.requests) == 3 and len({r["requestHash"] for r in first}) == 3

    again = play(policy_with(script, ResponseCache(tmp_path)), Q1, Q1, Q2)
    assert len(script.requests) == 3  # the re-run is served from the cache, retry included
    assert json.dumps(again) == json.dumps(first)


def test_a_cached_sudoku_retry_makes_a_new_request(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "cache"
    with recording(first_unreadable=True) as (server, seen):
        models = models_file(tmp_path, server.base_url)
        decisions = []
        for name in ("run", "rerun"):
            argv = ["sudoku", "--policy", "llm:mock", "--tiers", "1", "--quiet"]
            argv += ["--models-file", str(models), "--cache", str(cache)]
            argv += ["--output-dir", str(tmp_path / name)]
            assert cli.main(argv) == 0, capsys.readouterr().err
            logs = sorted((tmp_path / name).rglob("*.jsonl"))
            assert len(logs) == 6
            events = [json.loads(line) for log in logs for line in log.read_text().splitlines()]
            decisions.append([e for e in events if e.get("type") == "decision"])
            if name == "run":  # the pre-flight, then each grid twice: the retry was sent
                assert len(seen.bodies) == 1 + 6 * 2
        assert len(seen.bodies) == 1 + 6 * 2  # the re-run asked nothing
    first, second = decisions
    assert len(first) == 12
    for unreadable, retry in zip(first[0::2], first[1::2], strict=True):
        assert unreadable["call"]["usage"]["raw"] == UNREADABLE
        assert (unreadable["call"]["usage"]["attempt"], retry["call"]["usage"]["attempt"]) == (1, 2)
        assert retry["call"]["usage"]["raw"] != UNREADABLE  # the retry got its own reply
        assert retry["call"]["usage"]["requestHash"] != unreadable["call"]["usage"]["requestHash"]
    assert json.dumps(second) == json.dumps(first)

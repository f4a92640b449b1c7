"""The Sudoku LLM lane against a real local chat server (127.0.0.1, no network): the grid as
nine rows, the one retry after a reply without a grid, tokens and cost in the results."""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arcade_gym.sudoku.sets import set_grids
from evaluation.benchmarks.sudoku import BENCHMARK
from evaluation.benchmarks.sudoku.episode import play_sudoku_grid
from evaluation.benchmarks.sudoku.report import usage_summary
from evaluation.core.registry import register
from evaluation.core.verify import verify_log
from policies.llm.chat_policy import ChatPolicy
from policies.llm.registry import ModelSpec
from policies.sudoku.prompt import PROMPT
from tests.policies.chat_server import ChatHandler, ChatServer, serving

register(BENCHMARK)
RECORD = set_grids("v1", 3)[0]
KEY_ENV = "ARCADE_GYM_TEST_SUDOKU_KEY"


class Handler(ChatHandler):
    def do_POST(self) -> None:  # noqa: N802 (the http.server hook name)
        body = self.read_json()
        state: dict[str, Any] = self.server.state  # type: ignore[attr-defined]
        state["requests"].append(body)
        self.send_completion(body, state["replies"].popleft())


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[ChatServer]:
    monkeypatch.setenv(KEY_ENV, "sk-local-test")
    state: dict[str, Any] = {"requests": [], "replies": deque()}
    with serving(ChatServer(Handler, state)) as srv:
        yield srv


def policy_for(server: ChatServer) -> ChatPolicy:
    spec = ModelSpec.model_validate(
        {
            "slug": "scripted",
            "model": "test/scripted",
            "json_schema": True,
            "base_url": server.base_url,
            "api_key_env": KEY_ENV,
            "max_tokens": 4000,
        }
    )
    return ChatPolicy(spec, PROMPT, spec.client(max_retries=1, backoff_base_s=0.005))


def test_a_model_gets_one_retry_and_its_usage_is_kept(server: ChatServer, tmp_path: Path) -> None:
    rows = [RECORD["solution"][r * 9 : r * 9 + 9] for r in range(9)]
    server.state["replies"].extend(
        [
            "Let me think about it.",
            "```json\n" + json.dumps({"grid": rows, "confidence": 80}) + "\n```",
        ]
    )
    log = tmp_path / "grid.jsonl"
    saved = play_sudoku_grid(policy_for(server), RECORD, log, set_version="v1")
    assert saved["attempts"] == 2 and saved["outcome"] == "solved" and saved["confidence"] == 80
    request = server.state["requests"][0]
    user = request["messages"][-1]["content"]
    puzzle_rows = [RECORD["puzzle"][r * 9 : r * 9 + 9].replace("0", ".") for r in range(9)]
    assert "\n".join(puzzle_rows) in user
    assert request["response_format"]["type"] == "json_schema"
    usage = usage_summary([saved])
    assert usage["calls"] == 2 and usage["promptTokens"] and usage["costUsd"] is not None
    report = verify_log(log)
    assert report.ok, report.message


def test_two_replies_without_a_grid_leave_it_unsolved(server: ChatServer, tmp_path: Path) -> None:
    server.state["replies"].extend(["no", "still no"])
    saved = play_sudoku_grid(policy_for(server), RECORD, tmp_path / "g.jsonl", set_version="v1")
    assert saved["endReason"] == "unreadable" and saved["attempts"] == 2
    events = [json.loads(line) for line in (tmp_path / "g.jsonl").read_text().splitlines()]
    assert "unreadable reply" in events[1]["call"]["answer"]["unreadable"]

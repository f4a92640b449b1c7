"""Reasoning text is kept in the call record, always (not only its token count): from
`reasoning_content`, `reasoning` or OpenRouter's `reasoning_details`, bounded like the reply
text (`policies/llm/telemetry.py:MAX_TEXT_CHARS`), and it reaches every benchmark's log."""

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
from policies.llm import ChatClient, ChatPolicy, ModelSpec, prompt_for, telemetry
from policies.llm.responses import reasoning_text
from policies.llm.telemetry import bounded_text
from tests.policies.mock_chat import Script, completion
from tests.policies.recording_server import models_file, recording

URL = "http://127.0.0.1:9/v1"
QUESTION = TicTacToeQuestion(size=3, k=3, to_move="X", rows=("X..", "...", "..."))


@pytest.mark.parametrize(
    ("message", "text"),
    [
        ({"reasoning_content": "deepseek style"}, "deepseek style"),
        ({"reasoning": "openrouter style"}, "openrouter style"),
        (
            {
                "reasoning": None,
                "reasoning_details": [
                    {"type": "reasoning.summary", "summary": "a summary"},
                    {"type": "reasoning.encrypted", "data": "opaque"},
                    {"type": "reasoning.text", "text": "the text"},
                ],
            },
            "a summary\n\nthe text",
        ),
        ({"reasoning": [{"type": "text", "text": "parts"}]}, "parts"),
        ({"reasoning": "   "}, None),
        ({"reasoning_details": "nonsense", "reasoning": 5}, None),
        ({}, None),
    ],
)
def test_the_reasoning_text_is_read_from_every_known_field(
    message: dict[str, Any], text: str | None
) -> None:
    assert reasoning_text(message) == text


def decide(message_extra: dict[str, Any]) -> dict[str, Any]:
    body = completion("<move>1 1</move>", completion_tokens_details={"reasoning_tokens": 7})
    body["choices"][0]["message"].update(message_extra)
    script = Script(httpx.Response(200, json=body))
    client = ChatClient(URL, None, None, 5.0, transport=httpx.MockTransport(script))
    spec = ModelSpec(slug="m", model="vendor/m", base_url=URL, api_key_env="")
    policy = ChatPolicy(spec, prompt_for("tictactoe"), client)
    asyncio.run(policy.act_async(QUESTION, DecisionContext.with_budget(5000)))
    record = policy.pop_telemetry()
    assert record is not None
    return dict(record)


def test_the_call_record_keeps_the_reasoning_beside_its_token_count() -> None:
    record = decide({"reasoning_content": "The centre is taken, so a corner."})
    assert record["reasoning"] == "The centre is taken, so a corner."
    assert record["reasoningTokens"] == 7 and record["raw"] == "<move>1 1</move>"
    assert decide({})["reasoning"] is None


def test_reasoning_and_reply_are_bounded_with_a_note(monkeypatch: pytest.MonkeyPatch) -> None:
    assert bounded_text("abcdef", 4) == "abcd [... 2 more characters not kept]"
    assert bounded_text("abcd", 4) == "abcd" and bounded_text(None) is None
    monkeypatch.setattr(telemetry, "MAX_TEXT_CHARS", 100)
    record = decide({"reasoning_content": "r" * 250})
    assert record["reasoning"] == "r" * 100 + " [... 150 more characters not kept]"


def test_the_reasoning_reaches_a_benchmarks_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with recording(reasoning="I check each row first.") as (server, _):
        models = models_file(tmp_path, server.base_url)
        argv = ["sudoku", "--policy", "llm:mock", "--tiers", "1", "--quiet"]
        argv += ["--models-file", str(models), "--output-dir", str(tmp_path / "run")]
        assert cli.main(argv) == 0, capsys.readouterr().err
    logs = sorted((tmp_path / "run").rglob("*.jsonl"))
    events = [json.loads(line) for line in logs[0].read_text().splitlines()]
    decisions = [e for e in events if e.get("type") == "decision"]
    assert decisions and decisions[0]["call"]["usage"]["reasoning"] == "I check each row first."

"""Agent CLIs report what they used (`policies/llm/cli_output.py`): the tokens of Claude Code's
`--output-format json`, of Codex's `exec --json` events and of the generic JSON shape reach the
call record, priced at the registry's list price as the API-equivalent cost (else the tool's own
figure, else n/a); a tool that says the request failed is a failure on our side. Fake CLIs are
scripts on PATH (`tests/policies/agent_clis.py`); one real Sudoku run shows the usage in its logs
and its table."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import pytest

from arcade_gym.tictactoe.contract import TicTacToeQuestion
from evaluation import cli
from policies.base import DecisionContext
from policies.llm import CostMeter, ServiceFailure, make_cli_policy
from policies.llm.cli_output import read_cli_output
from tests.policies.agent_clis import CLAUDE, CODEX, LIMITED, install, registry, runs

pytestmark = pytest.mark.skipif(os.name != "posix", reason="the fake CLIs are scripts")

CLAUDE_COMMAND = "claude -p --output-format json"
PRICE = "{ in = 3.0, out = 15.0, cached = 0.3 }"
QUESTION = TicTacToeQuestion(size=3, k=3, to_move="X", rows=("...", "...", "..."))


def claude_result(**changes: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "type": "result",
        "subtype": "success",
        "is_error": False,
        "duration_ms": 2100,
        "num_turns": 1,
        "result": "<move>1 1</move>",
        "session_id": "s",
        "total_cost_usd": 0.0123,
        "usage": {
            "input_tokens": 12,
            "cache_creation_input_tokens": 100,
            "cache_read_input_tokens": 640,
            "output_tokens": 30,
            "server_tool_use": {"web_search_requests": 0},
            "service_tier": "standard",
        },
    }
    out.update(changes)
    return out


def codex_lines(*events: dict[str, Any]) -> str:
    return "\n".join(json.dumps(e) for e in events) + "\n"


CODEX_OK = codex_lines(
    {"type": "thread.started", "thread_id": "t"},
    {"type": "turn.started"},
    {"type": "error", "message": "Reconnecting... 1/5"},
    {"type": "item.completed", "item": {"id": "0", "type": "reasoning", "text": "**Looking**"}},
    {"type": "item.completed", "item": {"id": "1", "type": "agent_message", "text": "draft"}},
    {"type": "item.completed", "item": {"id": "2", "type": "agent_message", "text": "<move>0 0"}},
    {
        "type": "turn.completed",
        "usage": {
            "input_tokens": 10_000,
            "cached_input_tokens": 9_800,
            "output_tokens": 50,
            "reasoning_output_tokens": 20,
        },
    },
)


# --- what each shape says -------------------------------------------------------------------
def test_claude_codes_json_gives_the_answer_its_tokens_and_its_own_cost() -> None:
    read = read_cli_output(json.dumps(claude_result()) + "\n")
    assert (read.shape, read.text, read.error) == ("claude-json", "<move>1 1</move>", None)
    assert (read.prompt_tokens, read.cached_tokens, read.completion_tokens) == (752, 640, 30)
    assert read.reported.usd == 0.0123 and read.reported.source == "reported"


def test_claude_codes_stream_json_gives_its_result_and_thinking() -> None:
    assistant = {
        "type": "assistant",
        "message": {
            "content": [
                {"type": "thinking", "thinking": "The centre is best."},
                {"type": "text", "text": "<move>1 1</move>"},
            ]
        },
    }
    lines = codex_lines({"type": "system", "subtype": "init"}, assistant, claude_result())
    array = json.dumps([{"type": "system", "subtype": "init"}, assistant, claude_result()])
    for stdout in (lines, array):  # stream-json, and json with --verbose (one array)
        read = read_cli_output(stdout)
        assert read.shape == "claude-json" and read.text == "<move>1 1</move>"
        assert read.reasoning == "The centre is best." and read.prompt_tokens == 752


@pytest.mark.parametrize(
    "result",
    [
        claude_result(is_error=True, result="Claude AI usage limit reached|1700000000"),
        claude_result(subtype="error_during_execution", result=None),
    ],
)
def test_a_claude_error_result_is_a_failure_not_an_answer(result: dict[str, Any]) -> None:
    read = read_cli_output(json.dumps(result))
    assert read.error is not None and "the tool reported an error" in read.error


def test_codex_events_give_the_last_agent_message_its_reasoning_and_tokens() -> None:
    read = read_cli_output(CODEX_OK)
    assert (read.shape, read.text, read.error) == ("codex-jsonl", "<move>0 0", None)
    assert read.reasoning == "**Looking**"
    assert (read.prompt_tokens, read.cached_tokens, read.completion_tokens) == (10_000, 9_800, 50)
    assert read.reasoning_tokens == 20 and read.reported.usd is None


def test_a_failed_codex_turn_is_a_failure() -> None:
    failed = codex_lines(
        {"type": "thread.started", "thread_id": "t"},
        {"type": "turn.failed", "error": {"message": "You've hit your usage limit."}},
    )
    read = read_cli_output(failed)
    assert read.error is not None and "usage limit" in read.error


def test_the_generic_shape_and_a_chat_completion_body_are_read() -> None:
    generic = {
        "reply": "<move>2 2</move>",
        "usage": {"input_tokens": 90, "output_tokens": 7, "cached_input_tokens": 30},
        "cost_usd": 0.001,
        "reasoning": "corner",
        "model": "x",
    }
    read = read_cli_output(json.dumps(generic))
    assert (read.shape, read.text, read.reasoning) == ("json", "<move>2 2</move>", "corner")
    assert (read.prompt_tokens, read.cached_tokens, read.completion_tokens) == (90, 30, 7)
    assert read.reported.usd == 0.001
    assert read_cli_output('{"error": "quota"}').error == "the tool reported an error: quota"
    body = {
        "choices": [{"message": {"content": "<move>0 2</move>", "reasoning": "edge"}}],
        "usage": {"prompt_tokens": 40, "completion_tokens": 5},
    }
    read = read_cli_output(json.dumps(body))
    assert (read.shape, read.text, read.reasoning) == (
        "chat-completion",
        "<move>0 2</move>",
        "edge",
    )
    assert (read.prompt_tokens, read.completion_tokens) == (40, 5)


@pytest.mark.parametrize(
    "stdout",
    [
        "<move>1 1</move>\n",
        '{"grid": ["123456789"], "confidence": 40}\n',  # a game answer, not an envelope
        '{"reply": "x", "grid": 1}',  # a key outside the generic shape
        '{"type": "result"}',
        "[" * 50_000 + "]" * 50_000,
        '{"type": "turn.completed", "usage": {"input_tokens": 1e999}}\n{"oops"\n',
        "",
    ],
)
def test_anything_else_is_the_answer_as_printed(stdout: str) -> None:
    read = read_cli_output(stdout)
    assert read.error is None
    if read.shape == "text":
        assert read.text == stdout and read.prompt_tokens is None


def test_absurd_figures_are_not_trusted() -> None:
    usage = {"input_tokens": -5, "output_tokens": True, "cache_read_input_tokens": "many"}
    read = read_cli_output(json.dumps(claude_result(usage=usage, total_cost_usd=1e300)))
    assert (read.prompt_tokens, read.completion_tokens, read.cached_tokens) == (None, None, None)
    assert read.reported.usd is None and read.reported.note is not None


# --- through the lane -----------------------------------------------------------------------
def decide(policy: Any) -> dict[str, Any]:
    asyncio.run(policy.act_async(QUESTION, DecisionContext.with_budget(30_000)))
    record = policy.pop_telemetry()
    assert record is not None
    return dict(record)


def test_a_registered_agent_cli_is_priced_at_its_list_price(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install(tmp_path / "bin", "claude", CLAUDE, monkeypatch)
    models = registry(tmp_path, CLAUDE_COMMAND, pricing=PRICE)
    meter = CostMeter(5.0)
    spaced = "claude  -p   --output-format json"  # the same words find the same entry
    policy = make_cli_policy(spaced, "tictactoe", models_file=models, meter=meter)
    assert policy.spec.slug == "claude-code" and policy.spec.pricing is not None
    record = decide(policy)
    prompt, cached, out = record["promptTokens"], record["cachedTokens"], record["completionTokens"]
    assert cached == 640 and prompt > cached and out >= 1
    expected = ((prompt - cached) * 3.0 + cached * 0.3 + out * 15.0) / 1e6
    assert record["costSource"] == "estimated"  # the list price, not the tool's $0.25
    assert record["costUsd"] == pytest.approx(expected)
    assert meter.spent_usd == pytest.approx(expected)
    assert policy.usage["costUsd"] == pytest.approx(expected)
    identity = policy.run_identity()
    assert identity["command"] == CLAUDE_COMMAND and identity["temperature"] is None
    assert "temperature" in identity and "maxTokens" in identity


def test_an_unpriced_cli_shows_the_tools_own_figure_else_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install(tmp_path / "bin", "claude", CLAUDE, monkeypatch)
    install(tmp_path / "bin", "codex", CODEX, monkeypatch)
    models = registry(tmp_path, "something else", pricing=None)
    claude = decide(make_cli_policy(CLAUDE_COMMAND, "tictactoe", models_file=models))
    assert claude["costSource"] == "reported" and claude["costUsd"] == 0.25
    codex = decide(make_cli_policy("codex exec --json", "tictactoe", models_file=models))
    assert codex["costUsd"] is None and codex["costSource"] == "unknown"  # n/a, not zero
    assert codex["cachedTokens"] == 9800 and codex["promptTokens"] > 9800
    assert codex["reasoning"] == "I look." and codex["raw"] == "<move>1 1</move>"


def test_a_tool_that_reports_a_failure_aborts_the_game_and_costs_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install(tmp_path / "bin", "claude", LIMITED, monkeypatch)
    meter = CostMeter(5.0)
    policy = make_cli_policy(
        CLAUDE_COMMAND,
        "tictactoe",
        models_file=registry(tmp_path, CLAUDE_COMMAND, pricing=PRICE),
        meter=meter,
    )
    with pytest.raises(ServiceFailure, match="usage limit reached") as info:
        asyncio.run(policy.act_async(QUESTION, DecisionContext.with_budget(30_000)))
    assert info.value.reason == "cli" and meter.spent_usd == 0 and meter.in_flight_usd == 0


# --- acceptance: one real benchmark run -----------------------------------------------------
def test_a_sudoku_run_through_claude_code_logs_and_tables_its_usage_and_cost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bin_dir = tmp_path / "bin"
    install(bin_dir, "claude", CLAUDE, monkeypatch)
    models = registry(tmp_path, CLAUDE_COMMAND, pricing=PRICE)
    run = tmp_path / "run"
    argv = ["sudoku", "--policy", f"cli:{CLAUDE_COMMAND}", "--tiers", "1"]
    argv += ["--models-file", str(models), "--output-dir", str(run), "--quiet"]
    assert cli.main(argv) == 0, capsys.readouterr().err
    assert len(runs(bin_dir)) == 1 + 6  # the pre-flight, then one answer a grid

    logs = sorted(run.rglob("*.jsonl"))
    assert len(logs) == 6
    usages = []
    for log in logs:
        events = [json.loads(line) for line in log.read_text().splitlines()]
        assert events[0]["policy"]["runIdentity"]["command"] == CLAUDE_COMMAND
        for event in events:
            if event.get("type") == "decision":
                usage = event["call"]["usage"]
                assert usage["cachedTokens"] == 640 and usage["costSource"] == "estimated"
                p, c, o = usage["promptTokens"], usage["cachedTokens"], usage["completionTokens"]
                assert usage["costUsd"] == pytest.approx(((p - c) * 3 + c * 0.3 + o * 15) / 1e6)
                usages.append(usage)
    assert len(usages) == 6

    report = json.loads((run / "report.json").read_text())
    totals = report["policies"][0]["usage"]
    assert totals["promptTokens"] == sum(u["promptTokens"] for u in usages)
    assert totals["completionTokens"] == sum(u["completionTokens"] for u in usages)
    assert totals["costUsd"] == pytest.approx(sum(u["costUsd"] for u in usages), abs=1e-6)
    table = (run / "report.md").read_text()
    row = next(line for line in table.splitlines() if "claude-code" in line and "| 6 |" in line)
    tokens = totals["promptTokens"]
    assert str(tokens) in row or f"{tokens:,}" in row
    assert "n/a" not in row

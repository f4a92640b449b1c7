"""What the tables say about LLM runs, through `arcade-eval` against a model on 127.0.0.1
(`tests/evaluation/model_server.py`): token totals, no latency for replies from the response
cache (a cached re-run must not report the cache's fraction of a millisecond), and costs under a
cent with enough digits (`evaluation/core/money.py`)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from evaluation import cli
from evaluation.core.money import usd
from tests.evaluation.model_server import Endpoint, endpoint


@pytest.fixture
def model() -> Iterator[Endpoint]:
    with endpoint() as live:
        yield live


def _twice(bench: str, more: list[str], model: Endpoint, tmp_path: Path) -> tuple[Path, Path]:
    """The same run into two folders with one response cache: the second asks nothing."""
    models = model.models_file(tmp_path)
    argv = [bench, "--policy", "llm:mock", *more, "--models-file", str(models), "--quiet"]
    argv += ["--cache", str(tmp_path / "cache")]
    first, second = tmp_path / "first", tmp_path / "second"
    assert cli.main([*argv, "--output-dir", str(first)]) == 0
    asked = model.state.completions
    assert cli.main([*argv, "--output-dir", str(second)]) == 0
    assert model.state.completions == asked  # every reply came from the cache
    return first, second


def test_tetris_bench_shows_token_totals_and_no_latency_for_cached_replies(
    model: Endpoint, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = _twice("tetris-bench", ["--seeds", "1", "--modes", "iq"], model, tmp_path)
    (live,) = json.loads((first / "leaderboard.json").read_text())["rows"]
    (cached,) = json.loads((second / "leaderboard.json").read_text())["rows"]
    assert live["promptTokens"] > 0 and live["completionTokens"] > 0
    assert (cached["promptTokens"], cached["completionTokens"]) == (
        live["promptTokens"],
        live["completionTokens"],
    )
    assert live["latencyMs"] is not None and cached["latencyMs"] is None
    table = (second / "leaderboard.md").read_text()
    assert "Tokens in / out" in table
    assert f"{live['promptTokens']:,} / {live['completionTokens']:,}" in table
    cells = [c.strip() for c in table.splitlines()[2].strip("|").split("|")]
    assert cells[5] == "—"  # latency: not measured, every reply came from the cache
    assert cells[6] == usd(cached["costPer100Decisions"]) != "$0.00"  # the one formatter


def test_the_arena_leaves_cached_replies_out_of_its_move_times(
    model: Endpoint, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = _twice("ttt-arena", [], model, tmp_path)
    (live,) = json.loads((first / "report.json").read_text())["reports"]
    (cached,) = json.loads((second / "report.json").read_text())["reports"]
    stats, again = live["moveStats"], cached["moveStats"]
    assert stats["avgMs"] is not None and again["avgMs"] is None and again["maxMs"] is None
    assert again["promptTokens"] == stats["promptTokens"] > 0
    text = (second / "report.txt").read_text()
    assert f"{again['moves']} untimed: replies from the cache" in text
    assert f"tokens {stats['promptTokens']:,} in / {stats['completionTokens']:,} out" in text


def test_the_probe_takes_several_policies_and_shows_tokens_and_cost_per_policy(
    model: Endpoint, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    models = model.models_file(tmp_path)
    report = tmp_path / "probe.json"
    argv = ["tetris-bench", "probe", "--policy", "llm:mock", "--policy", "heuristic"]
    argv += ["--models-file", str(models), "--json", str(report)]
    code = cli.main(argv)
    llm, heuristic = json.loads(report.read_text())
    assert code == (0 if llm["passed"] else 1)
    assert (llm["brain"], heuristic["brain"]) == ("mock", "heuristic")
    usage = llm["usage"]
    assert usage["calls"] == 20 and usage["promptTokens"] > 0 and usage["completionTokens"] > 0
    assert usage["costUsd"] is not None and usage["costUsd"] > 0
    assert heuristic["usage"] == {
        "calls": 0,
        "promptTokens": 0,
        "completionTokens": 0,
        "costUsd": None,
    }
    out = capsys.readouterr().out
    summary = out.split("probe summary (2 brains)\n", 1)[1].splitlines()
    spent = f"tokens {usage['promptTokens']:,} in / {usage['completionTokens']:,} out, cost "
    assert summary[0].split()[0] == "mock" and spent + usd(usage["costUsd"]) in summary[0]
    assert summary[1].split()[:3] == ["heuristic", "20/20", "PASSED"]


def test_sudoku_leaves_cached_replies_out_of_its_answer_times(
    model: Endpoint, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = _twice("sudoku", ["--tiers", "1"], model, tmp_path)
    results = sorted((second / "results").rglob("*.json"))
    assert results
    for path in results:
        calls = json.loads(path.read_text())["calls"]
        assert calls and all(call["latencyMs"] is None for call in calls)
    live = sorted((first / "results").rglob("*.json"))
    assert any(c["latencyMs"] is not None for p in live for c in json.loads(p.read_text())["calls"])

"""What a chat policy reports about each call reaches the arena's logs, results and report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from evaluation.benchmarks.ttt_arena.runner import run_arena
from evaluation.core.grid import PolicyPool
from policies.base import DecisionContext
from policies.tictactoe import make_player


class Billed:
    """The tactician, reporting tokens and a cost for every move as a chat policy does."""

    slug = name = "billed"
    description = "tactician with a bill"
    kind = "llm"
    adapter_version = "1"

    def __init__(self) -> None:
        self.player = make_player("tactician")
        self.pending: dict[str, Any] | None = None

    def act(self, question: Any, ctx: DecisionContext) -> Any:
        self.pending = {"promptTokens": 100, "completionTokens": 5, "costUsd": 0.001}
        return self.player.act(question, ctx)

    def pop_telemetry(self) -> dict[str, Any] | None:
        out, self.pending = self.pending, None
        return out


def test_tokens_and_cost_are_logged_per_decision_and_totalled_per_engine(tmp_path: Path) -> None:
    run = run_arena(["billed"], PolicyPool(lambda _: Billed()), tmp_path / "r", say=lambda _: None)
    report = run.reports[0]
    stats = report.move_stats
    assert stats.model_calls == stats.moves > 0
    assert (stats.prompt_tokens, stats.completion_tokens) == (100 * stats.moves, 5 * stats.moves)
    assert stats.cost_usd is not None and abs(stats.cost_usd - 0.001 * stats.moves) < 1e-9
    assert "tokens" in report.to_text() and "cost $" in report.to_text()
    log = next((tmp_path / "r" / "logs").rglob("*.jsonl"))
    decision = json.loads(log.read_text().splitlines()[1])
    assert decision["call"]["usage"] == {
        "promptTokens": 100,
        "completionTokens": 5,
        "costUsd": 0.001,
    }

"""The cost cap counts every invocation of a run: a stopped run resumes with a higher cap and the
meter starts where the manifest says the run stood."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from evaluation.benchmarks.ttt_arena.runner import run_arena
from evaluation.core.grid import PolicyPool
from evaluation.core.verify import verify_paths
from policies.base import DecisionContext
from policies.llm.cost_meter import CostMeter
from policies.tictactoe import make_player

PRICE = 0.01


class Priced:
    """The perfect player, charging every move to the run's meter like a chat policy does."""

    slug = name = "priced"
    description = "perfect play at a price"
    kind = "baseline"
    adapter_version = "1"

    def __init__(self, meter: CostMeter) -> None:
        self.meter = meter
        self.player = make_player("perfect")

    def act(self, question: Any, ctx: DecisionContext) -> Any:
        booking = self.meter.reserve("priced", PRICE)  # CostCapReached stops the run
        self.meter.settle(booking, PRICE)
        return self.player.act(question, ctx)


def _run(out: Path, cap: float) -> tuple[Any, CostMeter]:
    meter = CostMeter(cap)
    pool = PolicyPool(lambda _: Priced(meter), meter=meter)
    return run_arena(["priced"], pool, out, say=lambda _: None), meter


def test_a_capped_run_stops_resumably_and_a_higher_cap_finishes_it(tmp_path: Path) -> None:
    out = tmp_path / "run"
    first, meter = _run(out, cap=0.5)
    assert first.interrupted and first.missing and not first.reports
    assert meter.spent_usd <= 0.5
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "interrupted"
    assert manifest["spentUsd"] == round(meter.spent_usd, 6)

    second, again = _run(out, cap=100.0)
    assert not second.interrupted and not second.missing and second.reports
    assert again.spent_usd > manifest["spentUsd"]  # it started from what the first one spent
    assert json.loads((out / "manifest.json").read_text())["spentUsd"] == round(again.spent_usd, 6)
    reports = verify_paths([out / "logs"])
    assert reports and all(r.ok for r in reports)

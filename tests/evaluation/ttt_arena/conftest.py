"""One shared arena run (three built-ins and a text-speaking engine) for the arena tests."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from arcade_gym.tictactoe.contract import TicTacToeQuestion
from evaluation.benchmarks.ttt_arena.report import ArenaReport
from evaluation.benchmarks.ttt_arena.runner import run_arena
from evaluation.core.grid import PolicyPool
from policies.base import DecisionContext
from policies.specs import make_policy
from policies.tictactoe import make_player


class TextTactician:
    """The Tactician answering `row col` text, under a name that is not a built-in."""

    slug = name = "tactician-text"
    description = "the Tactician's moves as engine text"
    kind = "engine"
    adapter_version = "1"

    def __init__(self) -> None:
        self.player = make_player("tactician")

    def act(self, question: TicTacToeQuestion, ctx: DecisionContext) -> Any:
        return self.player.act(question, ctx).to_text()


SPECS = ("tactician", "perfect", "random", "text")


@dataclass
class SharedRun:
    path: Path
    reports: dict[str, ArenaReport]


@pytest.fixture(scope="session")
def arena_run(tmp_path_factory: pytest.TempPathFactory) -> SharedRun:
    path = tmp_path_factory.mktemp("arena") / "run"

    def factory(spec: str) -> Any:
        return TextTactician() if spec == "text" else make_policy(spec, "tictactoe")

    run = run_arena(list(SPECS), PolicyPool(factory), path, say=lambda _: None)
    assert not run.missing and not run.interrupted and not run.aborted
    return SharedRun(path, dict(zip(SPECS, run.reports, strict=True)))

"""Shared NARCADE runs: one small lockstep run (each model in its own spawned process, with full
traces) that the runner, verify, publish and replay tests read."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from evaluation.benchmarks.narcade.results import read_json
from evaluation.benchmarks.narcade.runner import run_narcade

GAMES = ("minesweeper", "snake", "tetris")
SMALL = {"max_decisions": 120, "max_pieces": 40}


def run(out: Path, models: str = "random,heuristic", **kw: Any) -> int:
    """A small lockstep run of `models` into `out` (2 episodes from seed 100 unless told)."""
    options: dict[str, Any] = {"mode": "lockstep", "quiet": True, **SMALL, **kw}
    games = options.pop("games", ",".join(GAMES))
    episodes = options.pop("episodes", 2)
    return run_narcade(models, games, episodes, 100, out, **options)


def result(out: Path, model: str, game: str) -> dict[str, Any]:
    """The result file of `model` on `game`."""
    data: dict[str, Any] = read_json(out / "results" / model / f"{game}.json")
    return data


@pytest.fixture(scope="session")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A lockstep run, each model in its own (spawned) process, with traces."""
    out = tmp_path_factory.mktemp("narcade") / "run"
    assert run(out, trace=True, hardware="test-box") == 0
    return out

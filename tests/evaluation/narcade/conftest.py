"""Shared NARCADE runs: one small lockstep run (each model in its own spawned process, with full
traces) that the runner, verify, publish and replay tests read."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from evaluation.benchmarks.narcade.results import read_json
from evaluation.benchmarks.narcade.runner import run_narcade
from evaluation.benchmarks.narcade.settings import NarcadeRunSettings

GAMES = ("minesweeper", "snake", "tetris")
SMALL = {"max_decisions": 120, "max_pieces": 40}


def run(out: Path, models: str = "random,heuristic", **kw: Any) -> int:
    """A small lockstep run of `models` into `out` (2 episodes from seed 100 unless told);
    `executor` and `log` go to `run_narcade`, the rest into the request."""
    options: dict[str, Any] = {"mode": "lockstep", "quiet": True, "episodes": 2, **SMALL, **kw}
    passed = {name: options.pop(name) for name in ("executor", "log") if name in options}
    request = NarcadeRunSettings(models=models, **options)
    return run_narcade(request, out, **passed)


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

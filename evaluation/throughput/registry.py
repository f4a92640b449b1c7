"""What `arcade-eval bench NAME` can measure: every game, read off the descriptors
(`arcade_gym/games.py`), every benchmark that registers a `bench`, and the engines below.

Kept apart from the benches themselves so the CLI starts without compiling any kernel.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import evaluation.benchmarks  # noqa: F401  (registers every benchmark)
from arcade_gym.games import descriptors
from evaluation.core.registry import benchmarks, lazy
from evaluation.throughput import run

ENGINE_BENCHES: dict[str, str] = {
    "brainfuck": "policies.engines.brainfuck.bench:bench_brainfuck",
}
"""Engine -> `module:function(seconds) -> Figures` of its bench (engines are no game)."""


def bench_targets() -> dict[str, Callable[[float], dict[str, Any]]]:
    """Name -> `run(seconds) -> report`, in the order `bench all` runs them: the games, the
    engines, then the benchmarks' own benches (a benchmark named like a game or an engine is
    listed as `NAME-benchmark`)."""
    targets: dict[str, Callable[[float], dict[str, Any]]] = {}
    for game in descriptors():
        targets[game.name] = partial(run.game_report, game)
    for name, target in ENGINE_BENCHES.items():
        targets[name] = partial(run.figures_report, name, lazy(target))
    for benchmark in benchmarks():
        if benchmark.bench is not None:
            name = (
                benchmark.name if benchmark.name not in targets else f"{benchmark.name}-benchmark"
            )
            targets[name] = partial(run.figures_report, name, benchmark.bench)
    return targets


def bench_names() -> list[str]:
    """Every name `arcade-eval bench` accepts besides `all`."""
    return list(bench_targets())


def run_bench(name: str, seconds: float) -> dict[str, Any]:
    """Run one bench and return its report (a JSON-able dict); KeyError for an unknown name."""
    return bench_targets()[name](seconds)

"""The Sudoku benchmark (set `v1`): policies answer each grid once with the whole grid and a
confidence; answers are graded cell by cell and scored by tier (`scoring.py`).

Importing this package is cheap (the CLI lists it at start-up): the solver, the grader and the
episodes are imported when a command runs or a log is replayed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from evaluation.benchmarks.sudoku.defaults import BENCHMARK_ID
from evaluation.core.eventlog import LogContents
from evaluation.core.registry import Benchmark, Replay


def _add_parsers(sub: Any) -> None:
    from evaluation.benchmarks.sudoku.cli import add_parsers

    add_parsers(sub)


def _replay(contents: LogContents) -> Replay:
    from evaluation.benchmarks.sudoku.replay import replay

    return replay(contents)


def _rederive(header: Mapping[str, Any]) -> Any:
    from evaluation.benchmarks.sudoku.replay import rederive

    return rederive(header)


BENCHMARK = Benchmark(
    name="sudoku",
    summary="Sudoku: seven tiers of unique grids, answered whole with a confidence",
    log_ids=(BENCHMARK_ID,),
    add_parsers=_add_parsers,
    replay=_replay,
    rederive=_rederive,
)

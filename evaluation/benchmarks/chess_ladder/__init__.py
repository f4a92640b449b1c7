"""The chess ladder (`chess-ladder`): models play fixed-rating opponents (weak built-in rungs and
Stockfish at limited strength), never each other; adjudication, grading, ratings and reports.

Importing this package is cheap (the CLI lists it at start-up): engines and kernels are loaded
when a command runs or a log is replayed.
"""

from __future__ import annotations

from typing import Any

from evaluation.benchmarks.chess_ladder.defaults import BENCHMARK_ID
from evaluation.core.eventlog import LogContents
from evaluation.core.registry import Benchmark, Replay, lazy


def _add_parsers(sub: Any) -> None:
    from evaluation.benchmarks.chess_ladder.cli import add_parsers

    add_parsers(sub)


def _replay(contents: LogContents) -> Replay:
    from evaluation.benchmarks.chess_ladder.replay import replay

    return replay(contents)


BENCHMARK = Benchmark(
    name=BENCHMARK_ID,
    summary="Chess ladder: fixed-rating rungs, adjudicated, graded, one rating per model",
    log_ids=(BENCHMARK_ID,),
    add_parsers=_add_parsers,
    replay=_replay,
    frame=lazy("evaluation.benchmarks.chess_ladder.site_frames:frame"),
    site=lazy("evaluation.benchmarks.chess_ladder.site:add_pages"),
    play=lazy("evaluation.benchmarks.chess_ladder.play:setups"),
    suite=lazy("evaluation.benchmarks.chess_ladder.suite_run:run"),
)

"""Tetris Bench (`tetris-bench@3`): brains place candidate pieces in IQ and Blitz; leaderboard.

Importing this package is cheap (the CLI lists it at start-up): the modules that compile kernels
are imported when a command runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from evaluation.core.eventlog import LogContents
from evaluation.core.registry import Benchmark, Replay


def _add_parsers(sub: Any) -> None:
    from evaluation.benchmarks.tetris_bench.cli import add_parsers

    add_parsers(sub)


def _replay(contents: LogContents) -> Replay:
    from evaluation.benchmarks.tetris_bench.replay import replay

    return replay(contents)


def _reads_log(header: Mapping[str, Any]) -> bool:
    from evaluation.benchmarks.tetris_bench.replay import reads_log

    return reads_log(header)


def _rederive(header: Mapping[str, Any]) -> Any:
    from evaluation.benchmarks.tetris_bench.replay import rederive

    return rederive(header)


BENCHMARK = Benchmark(
    name="tetris",
    summary="Tetris Bench: candidate placements under IQ and Blitz, leaderboard",
    log_ids=("tetris-bench",),
    add_parsers=_add_parsers,
    replay=_replay,
    reads_log=_reads_log,
    rederive=_rederive,
)

"""NARCADE: models play Minesweeper, Snake and Tetris with primitive controls from a structured
state, realtime or lockstep; result files, publication and comparison, replays.

Importing this package is cheap (the CLI lists it at start-up): the games, policies and the
runner load when a command runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from evaluation.core.eventlog import LogContents
from evaluation.core.registry import Benchmark, Replay


def _add_parsers(sub: Any) -> None:
    from evaluation.benchmarks.narcade.cli import add_parsers

    add_parsers(sub)


def _replay(contents: LogContents) -> Replay:
    from evaluation.benchmarks.narcade.replay import replay

    return replay(contents)


def _rederive(header: Mapping[str, Any]) -> Any:
    from evaluation.benchmarks.narcade.replay import rederive

    return rederive(header)


BENCHMARK = Benchmark(
    name="narcade",
    summary="NARCADE: Minesweeper, Snake and Tetris with primitive controls; publish, replays",
    log_ids=("narcade",),
    add_parsers=_add_parsers,
    replay=_replay,
    rederive=_rederive,
)

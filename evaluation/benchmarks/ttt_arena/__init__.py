"""The tic-tac-toe arena (suite `v1`): engines through 188 graded positions and 24 matches.

Importing this package is cheap (the CLI lists it at start-up): the suite, the oracle and the
episodes are imported when a command runs or a log is replayed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from evaluation.benchmarks.ttt_arena.defaults import BENCHMARK_ID
from evaluation.core.eventlog import LogContents
from evaluation.core.live import LiveOption
from evaluation.core.registry import Benchmark, Replay, lazy


def _add_parsers(sub: Any) -> None:
    from evaluation.benchmarks.ttt_arena.cli import add_parsers

    add_parsers(sub)


def _replay(contents: LogContents) -> Replay:
    from evaluation.benchmarks.ttt_arena.replay import replay

    return replay(contents)


def _rederive(header: Mapping[str, Any]) -> Any:
    from evaluation.benchmarks.ttt_arena.replay import rederive

    return rederive(header)


BENCHMARK = Benchmark(
    name=BENCHMARK_ID,
    summary="Tic-tac-toe arena: engines graded on suite positions and matches",
    log_ids=(BENCHMARK_ID,),
    add_parsers=_add_parsers,
    replay=_replay,
    rederive=_rederive,
    frame=lazy("evaluation.benchmarks.ttt_arena.site_frames:frame"),
    site=lazy("evaluation.benchmarks.ttt_arena.site:add_pages"),
    bench=lazy("evaluation.benchmarks.ttt_arena.bench:bench_arena"),
    play=lazy("evaluation.benchmarks.ttt_arena.play:setups"),
    suite=lazy("evaluation.benchmarks.ttt_arena.suite_run:run"),
    live=lazy("evaluation.benchmarks.ttt_arena.live:runs"),
    live_options=(
        LiveOption(
            "arena-entries",
            "the arena entries folder a page may bench (default: the shipped seeds/arena/entries)",
            metavar="DIR",
        ),
    ),
    compare=lazy("evaluation.benchmarks.ttt_arena.compare:compare"),
)

"""NARCADE: models play Minesweeper, Snake and Tetris with primitive controls from a structured
state, realtime or lockstep; result files, publication and comparison, replays.

Importing this package is cheap (the CLI lists it at start-up): the games, policies and the
runner load when a command runs.
"""

from __future__ import annotations

from evaluation.benchmarks.narcade.defaults import BENCHMARK_ID
from evaluation.core.registry import Benchmark, lazy

BENCHMARK = Benchmark(
    name=BENCHMARK_ID,
    summary="NARCADE: Minesweeper, Snake and Tetris with primitive controls; publish, replays",
    log_ids=(BENCHMARK_ID,),
    add_parsers=lazy("evaluation.benchmarks.narcade.cli:add_parsers"),
    replay=lazy("evaluation.benchmarks.narcade.replay:replay"),
    rederive=lazy("evaluation.benchmarks.narcade.replay:rederive"),
    frame=lazy("evaluation.benchmarks.narcade.site_frames:frame"),
    site=lazy("evaluation.benchmarks.narcade.site:add_pages"),
    play=lazy("evaluation.benchmarks.narcade.play:setups"),
    suite=lazy("evaluation.benchmarks.narcade.suite_run:run"),
    compare=lazy("evaluation.benchmarks.narcade.compare:compare"),
)

"""Tetris Bench (`tetris-bench@3`): brains place candidate pieces in IQ and Blitz; leaderboard.

Importing this package is cheap (the CLI lists it at start-up): the modules that compile kernels
are imported when a command runs.
"""

from __future__ import annotations

from evaluation.benchmarks.tetris_bench.defaults import BENCHMARK_ID
from evaluation.core.registry import Benchmark, lazy

BENCHMARK = Benchmark(
    name=BENCHMARK_ID,
    summary="Tetris Bench: candidate placements under IQ and Blitz, leaderboard",
    log_ids=(BENCHMARK_ID,),
    add_parsers=lazy("evaluation.benchmarks.tetris_bench.cli:add_parsers"),
    replay=lazy("evaluation.benchmarks.tetris_bench.replay:replay"),
    reads_log=lazy("evaluation.benchmarks.tetris_bench.replay:reads_log"),
    rederive=lazy("evaluation.benchmarks.tetris_bench.replay:rederive"),
    frame=lazy("evaluation.benchmarks.tetris_bench.site_frames:frame"),
    site=lazy("evaluation.benchmarks.tetris_bench.site:add_pages"),
    play=lazy("evaluation.benchmarks.tetris_bench.play:setups"),
    suite=lazy("evaluation.benchmarks.tetris_bench.suite_run:run"),
    compare=lazy("evaluation.benchmarks.tetris_bench.compare:compare"),
)

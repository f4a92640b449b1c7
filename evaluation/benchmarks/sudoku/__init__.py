"""The Sudoku benchmark (set `v1`): policies answer each grid once with the whole grid and a
confidence; answers are graded cell by cell and scored by tier (`scoring.py`).

Importing this package is cheap (the CLI lists it at start-up): the solver, the grader and the
episodes are imported when a command runs or a log is replayed.
"""

from __future__ import annotations

from evaluation.benchmarks.sudoku.defaults import BENCHMARK_ID
from evaluation.core.registry import Benchmark, lazy

BENCHMARK = Benchmark(
    name=BENCHMARK_ID,
    summary="Sudoku: seven tiers of unique grids, answered whole with a confidence",
    log_ids=(BENCHMARK_ID,),
    add_parsers=lazy("evaluation.benchmarks.sudoku.cli:add_parsers"),
    replay=lazy("evaluation.benchmarks.sudoku.replay:replay"),
    rederive=lazy("evaluation.benchmarks.sudoku.replay:rederive"),
    frame=lazy("evaluation.benchmarks.sudoku.site_frames:frame"),
    site=lazy("evaluation.benchmarks.sudoku.site:add_pages"),
    play=lazy("evaluation.benchmarks.sudoku.play:setups"),
    suite=lazy("evaluation.benchmarks.sudoku.suite_run:run"),
    compare=lazy("evaluation.benchmarks.sudoku.compare:compare"),
)

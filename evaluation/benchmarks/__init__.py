"""The benchmarks, one folder each on `evaluation/core`; each line below registers one."""

from __future__ import annotations

import evaluation.play  # noqa: F401  (registers the logs of games played on their env directly)
from evaluation.benchmarks import chess_ladder, narcade, sudoku, tetris_bench, ttt_arena
from evaluation.core.registry import register

register(tetris_bench.BENCHMARK)
register(ttt_arena.BENCHMARK)
register(narcade.BENCHMARK)
register(sudoku.BENCHMARK)
register(chess_ladder.BENCHMARK)

"""Which benchmark measures which game: `arcade-eval bench GAME` looks it up here.

Kept apart from the benchmarks themselves so the CLI starts without compiling any kernel.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

BENCH_GAMES: dict[str, str] = {
    "tetris": "evaluation.throughput.tetris:bench_tetris",
    "snake": "evaluation.throughput.snake:bench_snake",
    "minesweeper": "evaluation.throughput.minesweeper:bench_minesweeper",
    "tictactoe": "evaluation.throughput.tictactoe:bench_tictactoe",
    "brainfuck": "evaluation.throughput.brainfuck:bench_brainfuck",
    "sudoku": "evaluation.throughput.sudoku:bench_sudoku",
    "chess": "evaluation.throughput.chess:bench_chess",
}
"""Game -> `module:function` of its benchmark (imported on use)."""


def run_bench(game: str, seconds: float) -> dict[str, Any]:
    """Run one game's benchmark and return its report (a JSON-able dict)."""
    module_name, function_name = BENCH_GAMES[game].split(":")
    bench: Callable[[float], dict[str, Any]] = getattr(
        importlib.import_module(module_name), function_name
    )
    return bench(seconds)

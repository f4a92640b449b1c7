"""One call that compiles (or loads from numba's cache) every Sudoku kernel: solver, generator,
env step and the grader's chain search."""

from __future__ import annotations

import time

from arcade_gym.sudoku import chains, engine


def compile_kernels() -> float:
    """Warm every Sudoku kernel once; returns the seconds it took."""
    t0 = time.perf_counter()
    engine.warmup()
    chains.warmup()
    return time.perf_counter() - t0

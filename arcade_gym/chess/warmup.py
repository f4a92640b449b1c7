"""Compile (or load from numba's cache) every chess kernel once per process."""

from __future__ import annotations

import time

from arcade_gym.chess import engine, movegen


def compile_kernels() -> float:
    """The observation and move-generation kernels; seconds taken."""
    t0 = time.perf_counter()
    engine.warmup()
    movegen.warmup()
    return time.perf_counter() - t0

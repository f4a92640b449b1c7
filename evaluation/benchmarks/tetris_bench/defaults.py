"""Tetris Bench's fixed names, light to import (the CLI and the registry read them at start-up)."""

BENCHMARK_ID = "tetris-bench"
"""The `benchmark` of every Tetris Bench log header, and the benchmark's command and name."""

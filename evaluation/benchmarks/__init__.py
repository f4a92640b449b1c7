"""The benchmarks, one folder each on `evaluation/core`; each line below registers one."""

from __future__ import annotations

from evaluation.benchmarks import tetris_bench
from evaluation.core.registry import register

register(tetris_bench.BENCHMARK)

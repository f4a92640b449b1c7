"""Every registered speed bench runs and reports in the one shape (speed itself is never asserted
here: it is measured by `arcade-eval bench`)."""

from __future__ import annotations

import math

import pytest

from evaluation.throughput.registry import BENCH_GAMES, run_bench
from evaluation.throughput.report import format_table

SHAPE = {"game", "package_version", "seconds_per_figure", "compile_or_cache_load_s", "results"}


@pytest.mark.slow
@pytest.mark.parametrize("game", list(BENCH_GAMES))
def test_each_bench_reports_finite_figures_in_the_shared_shape(game: str) -> None:
    report = run_bench(game, 0.05)
    assert set(report) >= SHAPE and report["game"] == game
    assert report["results"] and all(math.isfinite(v) for v in report["results"].values())
    assert game in format_table(report)


def test_the_brainfuck_bench_runs_in_the_shared_shape() -> None:
    report = run_bench("brainfuck", 0.02)
    assert set(report) >= SHAPE
    assert "first_empty_10x10_moves_per_s" in report["results"]  # the example engine is found

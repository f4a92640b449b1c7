"""A grid played as Ray tasks writes byte-identical logs to the same grid played locally."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaluation.benchmarks.tetris_bench.runner import RunConfig, run_tetris_bench
from evaluation.core.executor import RayExecutor
from evaluation.core.grid import spec_pool
from policies.specs import SpecOptions


@pytest.mark.slow
def test_tetris_bench_through_ray_writes_the_logs_a_local_run_writes(tmp_path: Path) -> None:
    ray = pytest.importorskip("ray")
    config = RunConfig(
        brains=("random", "heuristic", "search"),
        seeds=("seed-01", "seed-02"),
        seed_set="custom",
        modes=("IQ",),
        official=False,
        piece_cap=20,
    )
    pool = spec_pool("tetris", SpecOptions())
    local = run_tetris_bench(config, tmp_path / "local", pool, say=lambda _: None)
    try:
        distributed = run_tetris_bench(
            config, tmp_path / "ray", pool, executor=RayExecutor(num_cpus=2), say=lambda _: None
        )
    finally:
        ray.shutdown()
    assert not local.missing and not distributed.missing
    logs = sorted(p.relative_to(tmp_path / "local") for p in (tmp_path / "local").rglob("*.jsonl"))
    assert len(logs) == 6
    for log in logs:
        assert (tmp_path / "local" / log).read_bytes() == (tmp_path / "ray" / log).read_bytes()

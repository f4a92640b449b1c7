"""A grid played as Ray tasks writes byte-identical logs to the same grid played locally.

The pool is the one `arcade-eval tetris-bench` builds: its factory compiles a built-in brain's
kernels before the game starts. A pool that left the compiling to the first decision charged it to
that decision's 20 s IQ budget; under heavy load a Ray worker then ran out of time, searched less
deep and wrote another first answer than the local run."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from evaluation.benchmarks.tetris_bench.cli import make_tetris_brain
from evaluation.benchmarks.tetris_bench.runner import RunConfig, run_tetris_bench
from evaluation.core.executor import RayExecutor
from evaluation.core.grid import PolicyPool
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
    pool = PolicyPool(functools.partial(make_tetris_brain, options=SpecOptions()))
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

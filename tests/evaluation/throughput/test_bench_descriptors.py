"""`arcade-eval bench` is read off the descriptors: a toy game added through `register_game` alone
(no bench module of its own) is among its choices, and every one of its envs is measured
generically (steps/s per wall and CPU second, its native vector env when it has one)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path

import pytest

from arcade_gym.core.descriptor import GameDescriptor
from evaluation.cli import build_parser
from evaluation.throughput.registry import bench_names, run_bench
from tests.toy_game import ToyEnvEntry, ToySpec, toy_games

TOY = ToySpec(
    "toybench",
    (
        ToyEnvEntry("ToyCount-v0", vector=True),
        ToyEnvEntry("ToyFree-v0", "ToyFreeEnv", game="toybench-free"),
    ),
)
"""A toy game (`tests/toy_game.py`) with a masked env that has a native vector env, and an env
with no mask in its info."""


@pytest.fixture
def toy_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[GameDescriptor]:
    with toy_games(tmp_path, monkeypatch, TOY) as (game,):
        yield game


def test_a_toy_game_is_a_bench_choice_of_the_command_line(toy_game: GameDescriptor) -> None:
    assert toy_game.bench is None
    assert "toybench" in bench_names()
    args = build_parser().parse_args(["bench", "toybench", "--seconds", "0.01"])
    assert args.game == "toybench"


def test_a_toy_game_with_no_bench_module_has_every_env_measured_generically(
    toy_game: GameDescriptor,
) -> None:
    from toy_toybench.env import STEPS

    report = run_bench("toybench", 0.02)
    assert report["game"] == "toybench"
    assert set(report["results"]) == {
        "toy_count_v0_steps_per_s",
        "toy_count_v0_steps_per_cpu_s",
        "toy_count_v0_vector1024_steps_per_s",
        "toy_count_v0_vector1024_steps_per_cpu_s",
        "toy_free_v0_steps_per_s",
        "toy_free_v0_steps_per_cpu_s",
    }
    assert all(math.isfinite(v) and v > 0 for v in report["results"].values())
    assert set(report["seconds"]) == {"toy_count_v0_vector1024_compile_or_cache_load"}
    assert "peer" not in report and report["targets"] == {}
    # every env was really stepped (the masked one only with its legal actions: no ValueError)
    assert STEPS["toy"] > 0 and STEPS["free"] > 0 and STEPS["vector"] >= 1024

"""Every speed bench runs and reports in the one shape (speed itself is never asserted here: it
is measured by `arcade-eval bench`), each game's envs measured generically, and the throughput
package names no game."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

import evaluation.throughput
from arcade_gym.core.throughput import VECTOR_BATCH, Figures, env_key
from arcade_gym.games import descriptors
from evaluation.core import registry as benchmark_registry
from evaluation.core.registry import Benchmark
from evaluation.throughput.registry import ENGINE_BENCHES, bench_names, bench_targets, run_bench
from evaluation.throughput.report import format_table
from evaluation.throughput.run import report_of

SHAPE = {"game", "package_version", "seconds_per_figure", "compile_or_cache_load_s", "results"}


def _generic_keys(name: str) -> set[str]:
    keys: set[str] = set()
    for game in descriptors():
        if game.name != name:
            continue
        for entry in game.envs:
            key = env_key(entry.id)
            keys |= {f"{key}_steps_per_s", f"{key}_steps_per_cpu_s"}
            if entry.vector_entry_point is not None:
                vector = f"{key}_vector{VECTOR_BATCH}"
                keys |= {f"{vector}_steps_per_s", f"{vector}_steps_per_cpu_s"}
    return keys


@pytest.mark.slow
@pytest.mark.parametrize("name", bench_names())
def test_each_bench_reports_finite_figures_in_the_shared_shape(name: str) -> None:
    report = run_bench(name, 0.05)
    assert set(report) >= SHAPE and report["game"] == name
    assert report["results"] and all(math.isfinite(v) for v in report["results"].values())
    assert set(report["results"]) >= _generic_keys(name)
    assert set(report["targets"]) <= set(report["results"])
    assert name in format_table(report)


def test_bench_lists_every_game_the_engines_and_the_arena() -> None:
    names = bench_names()
    assert names[: len(descriptors())] == [game.name for game in descriptors()]
    assert set(ENGINE_BENCHES) | {"ttt-arena"} <= set(names)


def test_every_game_has_its_bench_in_its_own_folder() -> None:
    assert {game.name: game.bench for game in descriptors()} == {
        game.name: f"arcade_gym.{game.name}.bench:bench_{game.name}" for game in descriptors()
    }


def test_a_benchmark_named_like_a_game_gets_its_own_bench_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def bench(seconds: float) -> Figures:
        return Figures(results={"questions_per_s": 1.0 / seconds})

    clash = Benchmark(
        name=descriptors()[0].name,
        summary="",
        log_ids=(),
        add_parsers=lambda _: None,
        replay=lambda _: None,  # type: ignore[arg-type,return-value]
        bench=bench,
    )
    monkeypatch.setitem(benchmark_registry._BENCHMARKS, "clash-test", clash)
    targets = bench_targets()
    report = targets[f"{clash.name}-benchmark"](0.5)
    assert report["results"] == {"questions_per_s": 2.0} and "peer" not in report


def test_a_target_naming_no_figure_or_a_figure_measured_twice_is_a_bench_bug() -> None:
    with pytest.raises(ValueError, match="targets name no figure: \\['b_per_s'\\]"):
        report_of("x", 1.0, 0.0, Figures(results={"a_per_s": 1.0}, targets={"b_per_s": 1.0}))
    with pytest.raises(ValueError, match="measured twice"):
        report_of("x", 1.0, 0.0, Figures(results={"a_per_s": 1.0}), Figures(results={"a_per_s": 2}))


def test_env_keys_come_from_the_env_id() -> None:
    assert env_key("arcade_gym/Tetris-v3") == "tetris_v3"
    assert env_key("TicTacToe-v0") == "tic_tac_toe_v0"
    assert env_key("TetrisPrimitive-v3") == "tetris_primitive_v3"


def test_the_throughput_package_names_no_game() -> None:
    folder = Path(evaluation.throughput.__file__).parent
    names = {game.name for game in descriptors()} | {
        name for game in descriptors() for name in game.games
    }
    for path in folder.glob("*.py"):
        text = path.read_text().lower()
        assert not [name for name in names if name in text], path


def test_the_brainfuck_bench_runs_in_the_shared_shape() -> None:
    report = run_bench("brainfuck", 0.02)
    assert set(report) >= SHAPE
    assert "first_empty_10x10_moves_per_s" in report["results"]  # the example engine is found
    assert report["peer"]["note"] == "measured above as naive_reference_instructions_per_s"

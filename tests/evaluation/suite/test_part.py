"""How suite names resolve per benchmark, and how a sub-run's output reaches the user."""

from __future__ import annotations

import importlib
import io
from pathlib import Path

import pytest

import evaluation.benchmarks  # noqa: F401  (registers every benchmark)
from evaluation.core.registry import benchmarks
from evaluation.suite.part import SuiteRequest, _Filtered, route, status_for, sub_argv
from evaluation.suite.runner import choose

HEURISTICS = {
    "tetris-bench": "heuristic",
    "ttt-arena": "tactician",
    "narcade": "heuristic",
    "sudoku": "techniques:3",
    "chess-ladder": "greedy",
}
"""docs/suite.md's table: what `heuristic` plays on each benchmark."""


FOLDERS = {"tetris-bench": "tetris_bench", "ttt-arena": "ttt_arena", "chess-ladder": "chess_ladder"}


def test_every_benchmark_takes_part_and_heuristic_resolves_as_documented() -> None:
    assert [b.name for b in choose(None)] == [b.name for b in benchmarks()]
    for benchmark in choose(None):
        folder = FOLDERS.get(benchmark.name, benchmark.name)
        module = importlib.import_module(f"evaluation.benchmarks.{folder}.suite_run")
        assert HEURISTICS[benchmark.name] == module.HEURISTIC


def test_routes() -> None:
    assert route("heuristic", ["chess"], "greedy") == ("greedy", "")
    assert route("random", ["tetris"], "heuristic") == ("random", "")
    assert route("llm:anything", ["sudoku"], "solver") == ("llm:anything", "")
    spec, why = route("random", ["sudoku"], "techniques:3")
    assert spec is None and "not a sudoku built-in" in why
    spec, why = route("search", ["chess"], "greedy")  # a Tetris built-in has no route to chess
    assert spec is None and why
    assert route("techniques:2", ["sudoku"], "x") == ("techniques:2", "")


def test_an_engine_with_no_route_is_not_applicable(tmp_path: Path) -> None:
    program = tmp_path / "engine.bf"
    program.write_text("+.")
    assert route(f"bf:{program}", ["tictactoe"], "tactician")[0] == f"bf:{program}"
    spec, why = route(f"bf:{program}", ["chess"], "greedy")
    assert spec is None and "bf: engines do not play chess" in why


def test_a_model_file_for_another_game_is_not_applicable(tmp_path: Path) -> None:
    spec, why = route(f"sb3:{tmp_path / 'missing.zip'}", ["chess"], "greedy")
    assert spec is None and why


def test_sub_argv_passes_the_budget_models_cap_and_quiet_on() -> None:
    request = SuiteRequest(
        ("random",),
        "quick",
        Path("out/b"),
        quiet=True,
        model_args=("--base-url", "http://127.0.0.1:1/v1"),
        run_args=("--concurrency", "2"),
        max_cost_usd=0.25,
    )
    argv = sub_argv("sudoku", ["solver", "solver", "singles"], request, ["--tiers", "1"])
    assert argv[:5] == ["sudoku", "--policy", "solver", "--policy", "singles"]
    assert argv[argv.index("--max-cost-usd") + 1] == "0.25"
    assert argv[-1] == "--quiet" and "--tiers" in argv and "--base-url" in argv
    assert "--max-cost-usd" not in sub_argv("x", ["a"], request, [], models=False)


def test_the_sub_runs_resume_lines_are_held_back_and_the_rest_passes() -> None:
    target, held = io.StringIO(), list[str]()
    stream = _Filtered(target, held)
    stream.write("\r 10%|#   | 1/10")
    stream.write("\rtable line\nstop")
    stream.write("ped: the cost cap is reached; resume with: arcade-eval x\n")
    stream.write("interrupted: 3 games missing; to finish the run: y\nlast")
    stream.flush()
    assert target.getvalue() == "\r 10%|#   | 1/10\rtable line\nlast"
    assert held == [
        "stopped: the cost cap is reached; resume with: arcade-eval x",
        "interrupted: 3 games missing; to finish the run: y",
    ]


@pytest.mark.parametrize(
    ("code", "status", "expected"),
    [
        (0, "complete", "complete"),
        (130, "interrupted", "interrupted"),
        (1, "interrupted", "stopped"),
        (1, "aborted", "aborted"),
        (2, None, "failed"),
        (1, "stopped", "failed"),
    ],
)
def test_status_for(code: int, status: str | None, expected: str) -> None:
    assert status_for(code, {"status": status}) == expected

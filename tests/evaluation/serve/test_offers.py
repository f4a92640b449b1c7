"""What `arcade-eval serve` offers, read off the registry: the arena's bench of an entry (the same
command line as `ttt-arena bench`), a suite of a built-in policy, the server flags benchmarks
declare; and the one validator every value a page sends goes through."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import evaluation.benchmarks  # noqa: F401  (registers every benchmark)
from evaluation.cli import build_parser
from evaluation.core.live import LiveError, LiveField, LiveRun, check_values, find_run
from evaluation.core.registry import benchmarks
from evaluation.serve.offers import live_options, live_runs

SHIPPED = Path(__file__).resolve().parents[3] / "seeds" / "arena" / "entries"


def test_the_arena_offers_a_bench_of_each_entry_as_its_command_line(tmp_path: Path) -> None:
    for name in ("broken", "first-empty"):
        shutil.copytree(SHIPPED / name, tmp_path / name)
    runs = live_runs({"arena-entries": str(tmp_path)})
    bench = find_run(runs, "ttt-arena-bench")
    (entry,) = [f for f in bench.fields if f.name == "entry"]
    assert entry.choices == ("broken", "first-empty")
    values = check_values(bench, {"entry": "first-empty", "seed": "7"})
    assert values == {"entry": "first-empty", "seed": 7, "save": True}
    assert bench.argv(values) == [
        "ttt-arena",
        "bench",
        "--entries",
        str(tmp_path.resolve()),
        "--entry",
        "first-empty",
        "--seed",
        "7",
    ]
    assert bench.argv({**values, "save": False})[-1] == "--no-save"
    assert bench.steps == 212
    build_parser().parse_args(["serve", "--arena-entries", str(tmp_path)])


def test_the_arena_run_refuses_a_missing_entries_folder(tmp_path: Path) -> None:
    with pytest.raises(LiveError, match="--arena-entries: no entries directory"):
        live_runs({"arena-entries": str(tmp_path / "absent")})
    (tmp_path / "empty").mkdir()
    with pytest.raises(LiveError, match="no entries in"):
        live_runs({"arena-entries": str(tmp_path / "empty")})


def test_the_suite_is_offered_for_every_benchmark_with_a_suite_route() -> None:
    suite = find_run(live_runs({}), "suite")
    (chosen,) = [f for f in suite.fields if f.name == "benchmarks"]
    assert chosen.choices == ("all", *(b.name for b in benchmarks() if b.suite is not None))
    values = check_values(suite, {"policy": "heuristic"})
    assert suite.argv(values) == ["suite", "--policy", "heuristic", "--budget", "quick"]
    one = check_values(suite, {"benchmarks": "sudoku", "budget": "official"})
    assert suite.argv(one)[-2:] == ["--benchmarks", "sudoku"]
    with pytest.raises(LiveError, match="policy must be one of: random, heuristic"):
        check_values(suite, {"policy": "cmd:rm -rf /"})
    assert [o.name for o in live_options()] == ["arena-entries"]


def test_fields_take_only_what_they_declare() -> None:
    number = LiveField("n", "N", "int", 1, minimum=0, maximum=2**64 - 1)
    assert number.check("18446744073709551615") == 2**64 - 1
    for bad in ("18446744073709551616", "-1", " 5", "5.0", "1e3", True, None, 2.0, [1]):
        with pytest.raises(LiveError, match="n must be an integer from 0 to"):
            number.check(bad)
    flag = LiveField("f", "F", "bool", False)
    assert flag.check(True) is True
    for bad in ("true", 1, None):
        with pytest.raises(LiveError, match="f must be true or false"):
            flag.check(bad)
    choice = LiveField("c", "C", "choice", "a", choices=("a", "b"))
    for bad in ("A", "a ", 1, None, "x" * 10_000):
        with pytest.raises(LiveError, match="c must be one of: a, b"):
            choice.check(bad)
    with pytest.raises(ValueError, match="not a short lowercase word"):
        LiveField("Bad Name", "x", "bool", False)
    with pytest.raises(ValueError, match="offers no choices"):
        LiveField("c", "C", "choice", "a")


def test_a_run_checks_its_values_as_a_whole() -> None:
    run = LiveRun("r", "R", "", (LiveField("f", "F", "bool", False),), lambda v: [])
    assert check_values(run, {}) == {"f": False}
    with pytest.raises(LiveError, match="r takes no field 'g'; its fields: f"):
        check_values(run, {"g": 1})
    with pytest.raises(LiveError, match="values must be an object"):
        check_values(run, ["f"])
    with pytest.raises(LiveError, match="no live run 'x'; offered: r"):
        find_run([run], "x")
    with pytest.raises(LiveError, match="no live run 'list'"):
        find_run([run], ["r"])
    with pytest.raises(ValueError, match="two fields of one name"):
        LiveRun("r", "R", "", (run.fields[0], run.fields[0]), lambda v: [])

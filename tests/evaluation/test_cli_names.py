"""One name per concept in `arcade-eval` (issue 21, item 4): each benchmark's command is its log
id, `--help` lists benchmarks and suite-wide tools only, benchmark tools are nested, one flag per
idea; every older spelling still parses the same way and says its new form."""

from __future__ import annotations

import argparse
import importlib
import json
import re
from pathlib import Path

import pytest

from evaluation.cli import build_parser, command_aliases, main
from evaluation.core.cli_moved import moved_note
from evaluation.core.registry import benchmarks

SUITE_TOOLS = {"bench", "verify", "models", "site", "serve", "play", "suite"}

RENAMED = {
    "tetris": "tetris-bench",
    "arena": "ttt-arena",
    "ttt": "ttt-arena",
    "chess": "chess-ladder",
}
"""The older benchmark command names, each an alias of the benchmark's id."""

MOVED: dict[tuple[str, ...], tuple[str, ...]] = {
    ("probe",): ("tetris-bench", "probe"),
    ("publish",): ("narcade", "publish"),
    ("export-replays",): ("narcade", "export-replays"),
}
"""Tools that moved under their benchmark: old argv prefix -> new one."""

RUNS = ["tetris-bench", "ttt-arena", "narcade", "sudoku", "chess-ladder"]


def _commands(parser: argparse.ArgumentParser) -> argparse._SubParsersAction:
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return sub


def _listed(help_text: str) -> set[str]:
    """The command names `arcade-eval --help` lists (aliases in parentheses left out)."""
    block = help_text.split("positional arguments:", 1)[1].split("options:", 1)[0]
    return {m.group(1) for m in re.finditer(r"^    ([a-z][\w-]*)", block, re.MULTILINE)}


def test_help_lists_benchmarks_and_suite_wide_tools_only() -> None:
    listed = _listed(build_parser().format_help())
    assert listed == {b.name for b in benchmarks()} | SUITE_TOOLS
    assert not listed & {"probe", "publish", "export-replays", *RENAMED}


def test_each_benchmark_command_is_its_log_id() -> None:
    choices = _commands(build_parser()).choices
    for benchmark in benchmarks():
        assert benchmark.log_ids[0] == benchmark.name, benchmark
        assert benchmark.name in choices
        assert choices[benchmark.name].prog == f"arcade-eval {benchmark.name}"
    assert sorted(b.name for b in benchmarks()) == sorted(RUNS)


def test_old_benchmark_names_are_aliases_of_the_same_command() -> None:
    sub = _commands(build_parser())
    assert command_aliases(sub) == RENAMED
    for old, new in RENAMED.items():
        assert sub.choices[old] is sub.choices[new]
        assert f"{new} ({old}" in build_parser().format_help() or old == "ttt"
    help_text = build_parser().format_help()
    assert "ttt-arena (arena, ttt)" in help_text


@pytest.mark.parametrize("old", sorted(RENAMED))
def test_an_old_benchmark_name_parses_as_the_new_one_and_its_usage_says_the_new_form(
    old: str, capsys: pytest.CaptureFixture[str]
) -> None:
    new = RENAMED[old]
    parser = build_parser()
    before = vars(parser.parse_args([old, "--policy", "random", "--output-dir", "d"]))
    after = vars(parser.parse_args([new, "--policy", "random", "--output-dir", "d"]))
    assert before.pop("command") == old and after.pop("command") == new
    assert before == after
    with pytest.raises(SystemExit):
        parser.parse_args([old, "--help"])
    assert capsys.readouterr().out.startswith(f"usage: arcade-eval {new} ")


def test_old_nested_tools_under_renamed_benchmarks_still_parse() -> None:
    parser = build_parser()
    for old, new in (("arena", "ttt-arena"), ("ttt", "ttt-arena")):
        args = parser.parse_args([old, "table", "--json"])
        assert args.handler is parser.parse_args([new, "table", "--json"]).handler
    calibrate = parser.parse_args(["chess", "calibrate", "--output", "x.json"])
    assert calibrate.handler is parser.parse_args(["chess-ladder", "calibrate"]).handler


@pytest.mark.parametrize("old", sorted(MOVED))
def test_a_moved_tool_is_hidden_parses_as_the_nested_one_and_says_its_new_form(
    old: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    new = MOVED[old]
    sub = _commands(build_parser())
    nested = _commands(sub.choices[new[0]]).choices[new[1]]
    hidden = sub.choices[old[0]]
    assert hidden.prog == nested.prog == f"arcade-eval {' '.join(new)}"
    assert hidden.format_help() == nested.format_help()
    with pytest.raises(SystemExit):
        build_parser().parse_args([*old, "--help"])
    assert capsys.readouterr().out.startswith(f"usage: arcade-eval {' '.join(new)} ")
    assert moved_note(" ".join(old), " ".join(new)) == (
        f"`arcade-eval {' '.join(old)}` is now `arcade-eval {' '.join(new)}`"
    )


def test_old_probe_runs_as_the_nested_probe_after_one_line_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    nested, old = tmp_path / "nested.json", tmp_path / "old.json"
    code = main(["tetris-bench", "probe", "--policy", "heuristic", "--json", str(nested)])
    first = capsys.readouterr()
    assert code == 0 and first.err == ""
    assert main(["probe", "--policy", "heuristic", "--json", str(old)]) == code
    second = capsys.readouterr()
    assert second.err == "`arcade-eval probe` is now `arcade-eval tetris-bench probe`\n"
    assert second.out == first.out
    assert json.loads(old.read_text()) == json.loads(nested.read_text())


@pytest.mark.parametrize(
    ("old", "args"),
    [
        (("probe",), ["--policy", "no-such-brain"]),
        (("publish",), ["{tmp}/none.json", "--label", "L", "--output", "{tmp}/p.json"]),
        (("export-replays",), ["{tmp}/no-run", "--output", "{tmp}/replays"]),
    ],
)
def test_a_moved_tool_runs_as_the_nested_one_after_one_line_naming_it(
    old: tuple[str, ...], args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [a.format(tmp=tmp_path) for a in args]
    new = MOVED[old]
    code = main([*new, *argv])
    nested = capsys.readouterr()
    assert code != 0 and nested.err.startswith(f"arcade-eval {' '.join(new)}: ")
    assert main([*old, *argv]) == code
    moved = capsys.readouterr()
    assert moved.out == nested.out
    assert moved.err == f"{moved_note(' '.join(old), ' '.join(new))}\n{nested.err}"


@pytest.mark.parametrize("command", RUNS)
def test_every_run_takes_quiet_and_resume_and_the_old_progress_flags(command: str) -> None:
    parser = build_parser()
    base = [command, "--output-dir", "d"]
    assert parser.parse_args(base).quiet is False
    assert parser.parse_args([*base, "--quiet"]).quiet is True
    assert parser.parse_args([*base, "--no-progress"]).quiet is True  # the older spelling
    assert parser.parse_args([*base, "--progress"]).quiet is False  # the default, said
    assert parser.parse_args([*base, "--resume"]).resume is True
    shown = _commands(parser).choices[command].format_help()
    assert "--quiet" in shown and "--resume" in shown
    assert "--no-progress" not in shown and "--progress" not in shown


def test_bench_takes_a_renamed_benchmark_by_its_old_name() -> None:
    parser = build_parser()
    old = parser.parse_args(["bench", "arena", "--seconds", "0.01"])
    new = parser.parse_args(["bench", "ttt-arena", "--seconds", "0.01"])
    assert old.bench_aliases.get(old.game, old.game) == new.game == "ttt-arena"


def test_each_benchmark_id_is_defined_once_in_its_defaults_module() -> None:
    root = Path(__file__).resolve().parents[2] / "evaluation" / "benchmarks"
    for folder in sorted(p for p in root.iterdir() if (p / "__init__.py").is_file()):
        defining = sorted(
            path.name
            for path in folder.glob("*.py")
            if re.search(r"^BENCHMARK_ID\s*=", path.read_text(encoding="utf-8"), re.MULTILINE)
        )
        assert defining == ["defaults.py"], folder.name
        defaults = importlib.import_module(f"evaluation.benchmarks.{folder.name}.defaults")
        package = importlib.import_module(f"evaluation.benchmarks.{folder.name}")
        assert package.BENCHMARK.name == defaults.BENCHMARK_ID


def test_each_benchmark_folder_is_its_id() -> None:
    root = Path(__file__).resolve().parents[2] / "evaluation" / "benchmarks"
    folders = {p.name for p in root.iterdir() if (p / "__init__.py").is_file()}
    assert folders == {b.name.replace("-", "_") for b in benchmarks()}
    tests = Path(__file__).resolve().parent
    assert {b.name.replace("-", "_") for b in benchmarks()} <= {p.name for p in tests.iterdir()}


def _first_err_lines(argv: list[str], capsys: pytest.CaptureFixture[str]) -> list[str]:
    capsys.readouterr()
    main(argv)
    return capsys.readouterr().err.splitlines()


@pytest.mark.parametrize("old", sorted(RENAMED))
def test_an_old_benchmark_name_runs_after_one_line_naming_the_new_one(
    old: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    new = RENAMED[old]
    argv = ["--policy", "no-such-policy", "--output-dir", str(tmp_path / "run")]
    current = _first_err_lines([new, *argv], capsys)
    assert current and not any("is now" in line for line in current)
    assert _first_err_lines([old, *argv], capsys) == [moved_note(old, new), *current]


@pytest.mark.parametrize(
    ("command", "old", "new"),
    [
        ("tetris-bench", ["--no-progress"], "tetris-bench --quiet"),
        ("tetris-bench", ["--progress"], "tetris-bench"),
        ("tetris-bench", ["--brains", "no-such-policy"], "tetris-bench --policy"),
        ("ttt-arena", ["--engine", "no-such-policy"], "ttt-arena --policy"),
        ("narcade", ["--models", "no-such-policy"], "narcade --policy"),
    ],
)
def test_an_old_flag_works_after_one_line_naming_its_new_form(
    command: str, old: list[str], new: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [command, "--output-dir", str(tmp_path / "run"), *old]
    if "--policy" not in new:
        argv += ["--policy", "no-such-policy"]
    lines = _first_err_lines(argv, capsys)
    assert lines[0] == moved_note(f"{command} {old[0]}", new)
    assert not any("is now" in line for line in lines[1:])
    twice = _first_err_lines([*argv, old[0], *old[1:]], capsys)
    assert [line for line in twice if "is now" in line] == [lines[0]]  # one line per spelling


def test_an_old_name_and_an_old_flag_say_one_line_each(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["tetris", "--brains", "no-such-policy", "--output-dir", str(tmp_path / "r")]
    lines = _first_err_lines(argv, capsys)
    assert lines[:2] == [
        moved_note("tetris", "tetris-bench"),
        moved_note("tetris-bench --brains", "tetris-bench --policy"),
    ]


def test_bench_given_an_old_benchmark_name_says_the_new_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from evaluation import cli

    args = build_parser().parse_args(["bench", "arena", "--seconds", "0.01"])
    cli._note_old_spellings(args)
    assert capsys.readouterr().err == moved_note("bench arena", "bench ttt-arena") + "\n"
    cli._note_old_spellings(build_parser().parse_args(["bench", "ttt-arena"]))
    assert capsys.readouterr().err == ""

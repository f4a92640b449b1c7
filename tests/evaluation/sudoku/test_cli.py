"""`arcade-eval sudoku solve|grade|generate`, called through the parser and its handlers."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from evaluation.benchmarks.sudoku.cli import add_parsers
from tests.sudoku.famous import BEYOND_PUZZLES, NEWSPAPER

INKALA = BEYOND_PUZZLES["inkala-2012"]


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="arcade-eval")
    add_parsers(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["sudoku", *argv])
    code: int = args.handler(args)
    return code


def test_solve_prints_the_solution_on_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["solve", INKALA]) == 0
    lines = capsys.readouterr().out.split()
    assert len(lines) == 1 and len(lines[0]) == 81
    assert all(p in ("0", s) for p, s in zip(INKALA, lines[0], strict=True))


def test_solve_prints_each_solution_up_to_the_limit(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["solve", "0" * 81, "--limit", "3"]) == 0
    assert len(set(capsys.readouterr().out.split())) == 3


def test_grade_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["grade", "--json", NEWSPAPER]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report == {
        "solutions": 1,
        "tier": 1,
        "techniques": report["techniques"],
        "guesses": 0,
    }
    assert set(report["techniques"]) <= {"naked single", "hidden single"}


def test_grade_text_and_a_file_of_puzzles(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "puzzles.txt"
    path.write_text(f"# two puzzles\n{NEWSPAPER}\n\n{INKALA.replace('0', '.')}\n")
    assert run(["grade", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 2 and "tier 1" in out[0] and "tier 7 (Beyond)" in out[1]


def test_grade_of_a_grid_with_many_solutions(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["grade", "--json", "0" * 81]) == 0
    assert json.loads(capsys.readouterr().out)["tier"] is None


@pytest.mark.parametrize(
    ("puzzle", "message"),
    [
        ("123", "81 cells"),
        ("a" + "0" * 80, "digits 1-9"),
        ("55" + "0" * 79, "repeats in row 1"),
    ],
)
@pytest.mark.parametrize("tool", ["solve", "grade"])
def test_a_malformed_puzzle_is_one_line_and_exit_2(
    tool: str, puzzle: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run([tool, puzzle]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_malformed_line_in_a_file_names_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "p.txt"
    path.write_text(NEWSPAPER + "\n" + "1" * 80 + "\n")
    assert run(["grade", str(path)]) == 2
    assert "line 2" in capsys.readouterr().err


def test_no_solution_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["solve", "12345678" + "0" * 9 + "9" + "0" * 63]) == 1
    assert "no solution" in capsys.readouterr().err


def test_generate_refuses_an_unknown_set(tmp_path: Path) -> None:
    assert run(["generate", "--set", "v7", "--output", str(tmp_path / "x.json")]) == 2


@pytest.mark.slow
def test_generate_writes_the_shipped_file(tmp_path: Path) -> None:
    out = tmp_path / "v1.json"
    assert run(["generate", "--set", "v1", "--output", str(out), "--quiet"]) == 0
    shipped = Path(__file__).resolve().parents[3] / "seeds" / "sudoku" / "v1.json"
    assert out.read_bytes() == shipped.read_bytes()

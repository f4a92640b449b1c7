"""A run command that did not finish says why, in one shape, with its exit status."""

from __future__ import annotations

import io
from argparse import Namespace

import pytest

from evaluation.core.grid import GridRun
from evaluation.core.run_exit import (
    ABORTED,
    INTERRUPTED,
    STOPPED,
    outcome_exit,
    resume_command,
    unfinished_exit,
)


def test_a_finished_run_has_no_exit_status_and_says_nothing() -> None:
    out = io.StringIO()
    assert unfinished_exit("runs/x", interrupted=False, missing=0, aborted=[], out=out) is None
    assert out.getvalue() == ""


def test_an_interrupted_run_names_what_is_missing_and_how_to_finish() -> None:
    out = io.StringIO()
    status = unfinished_exit("runs/x", interrupted=True, missing=3, aborted=["a"], out=out)
    assert status == INTERRUPTED == 130
    assert out.getvalue() == (
        "interrupted: 3 games missing; to finish the run: the same command with --output-dir "
        "runs/x\n"
    )


def test_the_resume_command_is_the_one_given_with_its_output_directory() -> None:
    given = Namespace(argv=["tetris-bench", "--policy", "llm:a b"], output_dir=None)
    assert resume_command(given, "runs/t 1") == (
        "arcade-eval tetris-bench --policy 'llm:a b' --output-dir 'runs/t 1'"
    )
    named = Namespace(argv=["sudoku", "--output-dir=d", "--max-cost-usd", "1"], output_dir="d")
    assert resume_command(named, "d", replace={"--max-cost-usd": "2"}) == (
        "arcade-eval sudoku --output-dir=d --max-cost-usd 2"
    )
    assert resume_command(named, "d", replace={"--cache": "c"}).endswith("--cache c")


def test_a_stop_on_our_side_is_one_line_with_the_resume_command_and_exit_1() -> None:
    out = io.StringIO()
    args = Namespace(argv=["ttt-arena", "--output-dir", "d"], output_dir="d")
    status = unfinished_exit(
        "d",
        interrupted=True,
        missing=4,
        aborted=["x"],
        stop_reason="the endpoint died",
        args=args,
        out=out,
    )
    assert status == STOPPED == 1
    assert out.getvalue() == (
        "stopped: the endpoint died; 4 games missing. Once the cause is fixed (the endpoint "
        "back, the key valid), resume with: arcade-eval ttt-arena --output-dir d\n"
    )


def test_a_cost_cap_stop_names_the_cap_and_the_spent_amount() -> None:
    out = io.StringIO()
    meter = Namespace(cap_usd=0.01, spent_usd=0.00912)
    args = Namespace(
        argv=["sudoku", "--max-cost-usd", "0.01"],
        output_dir=None,
        cost_meter=meter,
        max_cost_usd=0.01,
    )
    status = unfinished_exit(
        "runs/s",
        interrupted=True,
        missing=2,
        aborted=[],
        unit="grids",
        stop_reason="CostCapReached: cost cap reached",
        args=args,
        out=out,
    )
    assert status == STOPPED
    assert out.getvalue() == (
        "stopped: the cost cap --max-cost-usd 0.01 is reached ($0.0091 spent of $0.01; the next "
        "call could pass it); 2 grids missing. To go on, raise the cap (the same cap stops "
        "again at once): arcade-eval sudoku --max-cost-usd 0.02 --output-dir runs/s\n"
    )


def test_aborted_games_are_listed_and_exit_1() -> None:
    out = io.StringIO()
    status = unfinished_exit(
        "d", interrupted=False, missing=2, aborted=["p g1: 503", "p g2: 429"], unit="grids", out=out
    )
    assert status == ABORTED == 1
    lines = out.getvalue().splitlines()
    assert lines[:2] == ["aborted (not counted): p g1: 503", "aborted (not counted): p g2: 429"]
    assert lines[2].startswith("2 grids aborted by failures on our side")


def test_a_grid_outcome_exits_as_its_fields_say(capsys: pytest.CaptureFixture[str]) -> None:
    outcome = GridRun({}, missing=[("random", "seed-01")], aborted=["random seed-01: boom"])
    assert outcome_exit("runs/x", outcome, None, unit="grids") == ABORTED
    err = capsys.readouterr().err
    assert "aborted (not counted): random seed-01: boom" in err
    assert "1 grids aborted by failures on our side" in err
    assert outcome_exit("runs/x", GridRun({}), None) is None

"""A run command that did not finish says why, in one shape, with its exit status."""

from __future__ import annotations

import io

from evaluation.core.run_exit import ABORTED, INTERRUPTED, unfinished_exit


def test_a_finished_run_has_no_exit_status_and_says_nothing() -> None:
    out = io.StringIO()
    assert unfinished_exit("runs/x", interrupted=False, missing=0, aborted=[], out=out) is None
    assert out.getvalue() == ""


def test_an_interrupted_run_names_what_is_missing_and_how_to_finish() -> None:
    out = io.StringIO()
    status = unfinished_exit("runs/x", interrupted=True, missing=3, aborted=["a"], out=out)
    assert status == INTERRUPTED == 130
    assert out.getvalue() == (
        "interrupted: 3 games missing; repeat the command (or add --resume) with "
        "--output-dir runs/x to finish the run\n"
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

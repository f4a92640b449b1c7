"""The acceptance test of terminal play a person enjoys: a whole Sudoku grid played under tmux as
a person plays it (the cursor walked cell by cell, the digits typed, Enter), whose final screen
keeps the board, says the result in words and where the log is; the person's digits are drawn in
a style of their own. Skipped only when tmux is not installed."""

from __future__ import annotations

import json

import pytest

import evaluation.benchmarks  # noqa: F401  (registers the benchmark that replays the log)
from arcade_gym.sudoku.sets import set_grids
from evaluation.core.verify import verify_log
from tests.evaluation.play.tmux_game import TMUX, TmuxGame

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install tmux)")


def walk_keys(puzzle: str, solution: str) -> list[str]:
    """Keys that go to row 1 col 1, then fill every blank row by row (tmux key names)."""
    keys = ["Up"] * 8 + ["Left"] * 8
    for row in range(9):
        for col in range(9):
            if puzzle[row * 9 + col] in ".0":
                keys.append(solution[row * 9 + col])
            if col < 8:
                keys.append("Right")
        if row < 8:
            keys += ["Down"] + ["Left"] * 8
    return keys


def test_a_sudoku_grid_played_to_the_end_keeps_the_board_and_says_the_result(tmp_path):
    record = set_grids("v1")[0]
    run = tmp_path / "run"
    game = TmuxGame(["sudoku", "--output-dir", str(run)], tmp_path)
    try:
        game.wait_text("cursor row 5 col 5")
        screen = game.screen()
        assert "   1 2 3   4 5 6   7 8 9" in screen  # the axis labels, counted from 1
        keys = walk_keys(record["puzzle"], record["solution"])
        for start in range(0, len(keys), 40):
            game.keys(*keys[start : start + 40])
        game.wait_text("cursor row 9 col 9")
        game.wait_text("empty 0")
        styled = game.styled_screen()
        # colour under tmux: the person's digits cyan (SGR 36), the givens bold (SGR 1)
        assert "\x1b[36m" in styled and "\x1b[1m" in styled
        game.keys("Enter")
        over = game.wait_text("Game over")
        assert "Game over: solved." in over
        assert "cells right" in over
        assert "Your game is saved in the log:" in over
        log = run / "logs" / "human" / f"{record['seed']}.jsonl"
        assert str(log)[:40] in over.replace("\n", "")
        solution = record["solution"]
        for row in range(9):  # the final board, as handed in
            digits = solution[row * 9 : row * 9 + 9]
            line = f"{row + 1}  " + " | ".join(" ".join(digits[k : k + 3]) for k in (0, 3, 6))
            assert line in over, over
        game.keys("Enter")
        assert game.exit_status() == 0
    finally:
        game.close()
    report = verify_log(log)
    assert report.ok, report.message
    assert report.result is not None and report.result["outcome"] == "solved"
    assert json.loads((run / "manifest.json").read_text())["status"] == "complete"

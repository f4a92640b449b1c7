"""`arcade-eval play` driven under tmux as a person would play it: the acceptance test that a
terminal game of Tetris writes a log that verifies, and that a quit game is recorded as cut short.

Skipped only when tmux is not installed. Every wait polls the screen with a generous timeout.
"""

from __future__ import annotations

import json
import re

import pytest

from evaluation.cli import main
from evaluation.core.verify import verify_log
from tests.evaluation.play.tmux_game import TMUX, TmuxGame

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install tmux)")


@pytest.fixture
def terminal(tmp_path):
    games: list[TmuxGame] = []

    def start(*args: str) -> TmuxGame:
        game = TmuxGame([*args, "--output-dir", str(tmp_path / "run")], tmp_path)
        games.append(game)
        return game

    yield start
    for game in games:
        game.close()


def ghost_column(screen: str) -> int:
    found = re.search(r"placement x (-?\d+) rotation", screen)
    assert found, screen
    return int(found.group(1))


def test_a_terminal_game_of_tetris_writes_a_log_that_verifies(terminal, tmp_path):
    game = terminal("tetris", "--seed", "seed-01", "--max-pieces", "3")
    screen = game.wait_text("pieces 0")
    assert "q quit" in screen and "log " in screen
    column = ghost_column(screen)
    game.keys("Left")
    game.wait(lambda s: ghost_column(s) == column - 1, "the ghost one column left")
    game.keys("Enter")
    game.wait_text("pieces 1")
    game.keys("?")
    game.wait_text("hide the keys")
    game.keys("c")
    game.wait_text("(used)")
    game.keys("Enter")
    game.wait_text("pieces 2")
    game.keys("Enter")
    over = game.wait_text("Game over")
    assert "Game over: piece cap." in over and "pieces 3" in over
    game.keys("Enter")
    assert game.exit_status() == 0
    run = tmp_path / "run"
    log = run / "logs" / "human" / "seed-01.jsonl"
    report = verify_log(log)
    assert report.ok, report.message
    assert report.result["pieces"] == 3
    decisions = [json.loads(line) for line in log.read_text().splitlines()[1:-1]]
    assert [d["hold"] for d in decisions] == [False, True, False, False]
    assert decisions[0]["played"]["x"] == column - 1
    assert report.header["policy"]["kind"] == "human"
    assert json.loads((run / "manifest.json").read_text())["status"] == "complete"
    assert main(["verify", str(run)]) == 0


def test_a_quit_tetris_game_is_recorded_as_cut_short(terminal, tmp_path):
    game = terminal("tetris")
    game.wait_text("pieces 0")
    game.keys("Enter")
    game.wait_text("pieces 1")
    game.keys("q")
    game.wait_text("quit? the game is not counted")
    game.keys("n")
    game.wait(lambda s: "quit?" not in s, "the question gone after n")
    game.keys("q")
    game.wait_text("quit? the game is not counted")
    game.keys("y")
    assert game.exit_status() == 130
    run = tmp_path / "run"
    report = verify_log(run / "logs" / "human" / "seed-01.jsonl")
    assert report.status == "incomplete"
    assert "interrupted" in report.message
    assert json.loads((run / "manifest.json").read_text())["status"] == "interrupted"
    assert not (run / "results").exists()
    assert main(["verify", str(run)]) == 1


def test_a_terminal_game_of_snake_ends_at_the_wall_and_verifies(terminal, tmp_path):
    game = terminal("snake", "--difficulty", "easy")
    game.wait_text("move 0")
    for move in range(1, 20):
        game.keys("Right")
        screen = game.wait(
            lambda s, n=move: f"move {n}" in s or "Game over" in s, f"move {move} or the end"
        )
        if "Game over" in screen:
            break
    assert "Game over: wall." in screen
    game.keys("Enter")
    assert game.exit_status() == 0
    report = verify_log(tmp_path / "run" / "logs" / "human" / "100.jsonl")
    assert report.ok, report.message
    assert report.result["endReason"] != "policy failure"


def test_a_quit_minesweeper_game_is_recorded_as_cut_short(terminal, tmp_path):
    game = terminal("minesweeper", "--difficulty", "easy")
    game.wait_text("flags 0")
    game.keys("Up", "Up", "Left")
    game.wait_text("cursor row 3 col 4")
    game.keys("f")
    game.wait_text("flags 1")
    game.keys("q", "y")
    assert game.exit_status() == 130
    report = verify_log(tmp_path / "run" / "logs" / "human" / "100.jsonl")
    assert report.status == "incomplete"

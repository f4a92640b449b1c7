"""`arcade-eval play tictactoe --opponent entry:ID | bf:PATH`: a person's free match against an
arena entry, played by a scripted keyboard through the play setup, verifies; a changed engine
file then fails verify naming it. The same game under tmux, end to end, when tmux is installed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from evaluation.core.verify import verify_log
from evaluation.play.human import Human
from evaluation.play.setups import HUMAN_LIMIT_MS, PlayError
from tests.evaluation.play.test_games import ScriptedScreen, options, setup_of
from tests.evaluation.play.tmux_game import TMUX, TmuxGame

REPO = Path(__file__).resolve().parents[3]
FIRST_EMPTY = REPO / "seeds" / "arena" / "entries" / "first-empty" / "engine.bf"

KEYS = ["enter", "up", "right", "enter", "down", "down", "left", "left", "enter"]
"""From the centre: (1, 1), (0, 2), (2, 0): the anti-diagonal, which first-empty (it takes
(0, 0), then (0, 1)) never blocks."""


def play(tmp_path: Path, opponent: str, keys: list[str] = KEYS, **given: object) -> Path:
    setup = setup_of("tictactoe", options(opponent=opponent, **given))
    log = tmp_path / "free.jsonl"
    setup.play(Human(setup.keys, ScriptedScreen(keys)), log)  # type: ignore[arg-type]
    return log


def test_a_free_match_against_a_bf_file_verifies_and_a_changed_file_fails(tmp_path):
    engine = tmp_path / "engine.bf"
    shutil.copyfile(FIRST_EMPTY, engine)
    log = play(tmp_path, f"bf:{engine}")
    report = verify_log(log)
    assert report.ok, report.message
    assert report.result["result"] == "win" and report.result["endReason"] == "line"
    header = report.header
    assert header["policy"]["kind"] == "human"
    assert header["settings"]["game"] == "free-match"
    assert header["settings"]["timeoutMs"] == HUMAN_LIMIT_MS
    engine.write_bytes(engine.read_bytes().replace(b">", b">>", 1))
    report = verify_log(log)
    assert report.status == "fail" and str(engine.resolve()) in report.message


def test_a_free_match_against_a_shipped_entry_by_id(tmp_path):
    setup = setup_of("tictactoe", options(opponent="entry:first-empty", size=5, mark="O"))
    assert setup.keys.opponent == "entry:first-empty"  # type: ignore[attr-defined]
    assert setup.settings["match"] == "free-match" and setup.settings["size"] == 5
    log = play(tmp_path, "entry:first-empty", size=3)
    report = verify_log(log)
    assert report.ok, report.message
    settings = report.header["settings"]
    assert settings["opponentEntry"] == "first-empty"
    assert settings["opponentSpec"] == f"bf:{FIRST_EMPTY.resolve()}"


def test_sparring_names_still_play_the_suites_match(tmp_path):
    setup = setup_of("tictactoe", options(opponent="greedy"))
    assert setup.settings["match"] == "match-3-03"


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"opponent": "entry:nobody"}, "entries: broken, first-empty, tactician"),
        ({"opponent": "bf:missing.bf"}, "no such Brainfuck file"),
        ({"opponent": "cmd:./engine"}, "entry:ID"),
        ({"opponent": "entry:first-empty", "size": 4}, "3, 5, 10"),
        ({"opponent": "entry:first-empty", "mark": "Z"}, "X or O"),
    ],
)
def test_bad_opponents_are_refused_before_the_game(given, message):
    with pytest.raises(PlayError, match=message):
        setup_of("tictactoe", options(**given))


@pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install tmux)")
def test_a_terminal_free_match_against_an_entry_verifies(tmp_path):
    run = tmp_path / "run"
    game = TmuxGame(
        ["tictactoe", "--opponent", "entry:first-empty", "--output-dir", str(run)], tmp_path
    )
    try:
        game.wait_text("against entry:first-empty")
        for key in ["Enter", "Up", "Right", "Enter", "Down", "Down", "Left", "Left", "Enter"]:
            game.keys(key)
        over = game.wait_text("Game over")
        assert "Game over: win." in over and "final position" in over
        game.keys("Enter")
        assert game.exit_status() == 0
    finally:
        game.close()
    logs = sorted((run / "logs").rglob("*.jsonl"))
    assert len(logs) == 1 and verify_log(logs[0]).ok
    saved = json.loads(next((run / "results").rglob("*.json")).read_text(encoding="utf-8"))
    assert saved["opponent"] == "entry:first-empty" and saved["forfeitBy"] is None

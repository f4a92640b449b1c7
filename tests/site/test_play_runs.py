"""`arcade-eval site` takes games played with `arcade-eval play` (`evaluation/site/play_runs.py`):
each finished game gets a replay page drawn by its game's viewer under "Played games", a game that
did not finish is listed with the reason, names from the run are escaped, a log linked from outside
the run is refused in one line, and a played replay opens at `#ply=N` in Chromium."""

from __future__ import annotations

import curses
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from evaluation.core.replay_compact import expand_replay
from evaluation.core.rundir import RunDirError
from evaluation.play import command, screen
from evaluation.play.command import cmd_play
from evaluation.site.cli import build_site
from evaluation.site.play_runs import is_play_run, play_runs
from tests.evaluation.play.test_games import ScriptedScreen, options
from tests.site.conftest import file_url
from tests.site.test_replay_links import shown_decision

GAMES: dict[str, tuple[dict[str, Any], list[str]]] = {
    # play run folder: (flags, keys; the last key closes the game-over screen)
    "tetris": ({"max_pieces": 3}, ["right", "enter", "enter", "enter", "x"]),
    "snake": ({"difficulty": "easy"}, ["right"] * 20 + ["x"]),
    "sudoku": ({"difficulty": "2"}, ["5", "enter", "enter", "x"]),
}


def _replay_data(page: Path) -> dict[str, Any]:
    html = page.read_text()
    start = html.index('id="replay-data">') + len('id="replay-data">')
    return expand_replay(json.loads(html[start : html.index("</script>", start)]))


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of play runs, one a game of `GAMES`, each written by `cmd_play`."""
    folder = tmp_path_factory.mktemp("played") / "runs"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(command, "_in_terminal", lambda: True)
        patch.setattr(curses, "wrapper", lambda session, *args: session(None, *args))
        for game, (flags, keys) in GAMES.items():
            patch.setattr(screen, "Screen", lambda window, keys=keys: ScriptedScreen(keys))
            args = options(output_dir=str(folder / f"play-{game}"), **flags)
            args.game = game
            assert cmd_play(args) == 0, game
    return folder


def test_every_played_game_gets_a_replay_page(played: Path, tmp_path: Path) -> None:
    assert all(is_play_run(run) for run in played.iterdir())
    assert play_runs(played) == sorted(played.iterdir())
    site = build_site(tmp_path / "site", [played])
    assert "played" in site.sections
    index = (tmp_path / "site" / "played" / "index.html").read_text()
    for game in GAMES:
        logs = list((played / f"play-{game}" / "logs" / "human").glob("*.jsonl"))
        assert len(logs) == 1
        page = tmp_path / "site" / "played" / f"play-{game}-{logs[0].stem}.html"
        assert f'href="{page.name}"' in index
        html = page.read_text()
        assert f'data-viewer="{game}"' in html and "assets/inflate.js" in html
        replay = _replay_data(page)
        assert len(replay["frames"]) >= 2 and replay["header"]["policy"]["slug"] == "human"
    assert index.count(">replay</a>") == len(GAMES)


def test_one_play_run_alone_and_beside_a_benchmark_run(
    played: Path, tetris_run: Path, tmp_path: Path
) -> None:
    site = build_site(tmp_path / "one", [played / "play-snake"])
    assert list(site.sections) == ["played"]
    site = build_site(tmp_path / "both", [tetris_run, played / "play-tetris"])
    assert list(site.sections) == ["tetris", "played"]


def test_an_unfinished_game_is_listed_with_the_reason(played: Path, tmp_path: Path) -> None:
    run = tmp_path / "play-<b>cut</b>"
    shutil.copytree(played / "play-snake", run)
    log = next((run / "logs" / "human").glob("*.jsonl"))
    lines = log.read_text().splitlines(keepends=True)
    log.write_text("".join(lines[:-1]))  # no result line: the game did not finish
    build_site(tmp_path / "site", [run])
    index = (tmp_path / "site" / "played" / "index.html").read_text()
    assert "<b>cut</b>" not in index and "&lt;b&gt;cut&lt;/b&gt;" in index
    assert ">replay</a>" not in index
    assert "not replayed: no result line after" in index


def test_a_log_linked_from_outside_the_run_is_refused(played: Path, tmp_path: Path) -> None:
    run = tmp_path / "play-linked"
    shutil.copytree(played / "play-snake", run)
    log = next((run / "logs" / "human").glob("*.jsonl"))
    outside = tmp_path / "elsewhere.jsonl"
    log.rename(outside)
    log.symlink_to(outside)
    with pytest.raises(RunDirError, match=r"is a symbolic link to .*, outside"):
        build_site(tmp_path / "site", [run])


def test_a_played_replay_opens_at_a_ply(played: Path, tmp_path: Path, browser: Any) -> None:
    from selenium.webdriver.common.by import By

    build_site(tmp_path / "site", [played / "play-snake"])
    page = next((tmp_path / "site" / "played").glob("play-snake-*.html"))
    frames = _replay_data(page)["frames"]
    browser.get(file_url(page) + "#ply=3")
    assert browser.find_element(By.ID, "position").text == f"decision 3 / {len(frames) - 1}"
    shown_decision(browser, "snake", frames[3])


def test_the_command_takes_a_play_run_and_refuses_a_planted_link_in_one_line(
    played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from evaluation.cli import main

    assert main(["site", "--quiet", "--output", str(tmp_path / "ok"), str(played)]) == 0
    assert "wrote" in capsys.readouterr().out
    run = tmp_path / "play-linked"
    shutil.copytree(played / "play-sudoku", run)
    log = next((run / "logs" / "human").glob("*.jsonl"))
    outside = tmp_path / "elsewhere.jsonl"
    log.rename(outside)
    log.symlink_to(outside)
    assert main(["site", "--quiet", "--output", str(tmp_path / "bad"), str(run)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "symbolic link" in err and "Traceback" not in err

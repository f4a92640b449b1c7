"""The arena's site pages (`evaluation/benchmarks/ttt_arena/site.py`): the tier list and entry pages
built from the entries folder, match replays from verified logs (a tampered one is refused),
arena run directories as inputs, and the tier list, an entry page and a replay in a browser."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from arcade_gym.tictactoe.game import TicTacToeGame
from evaluation import cli
from evaluation.benchmarks.ttt_arena.entries import load_entries, official_result
from evaluation.benchmarks.ttt_arena.entry_bench import match_logs
from evaluation.benchmarks.ttt_arena.episode import play_arena_game
from evaluation.benchmarks.ttt_arena.runner import _items
from evaluation.benchmarks.ttt_arena.tier_list import row_cells, tier_rows
from evaluation.core.replay_export import export_replay
from evaluation.site.build import SiteError
from evaluation.site.cli import build_site
from policies.tictactoe import make_player
from tests.site.conftest import file_url

REPO = Path(__file__).resolve().parents[2]
SHIPPED = REPO / "seeds" / "arena" / "entries"


def page_data(path: Path) -> Any:
    html = path.read_text(encoding="utf-8")
    match = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', html, re.S)
    assert match is not None
    return json.loads(match.group(1).replace("<\\/", "</"))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    output = tmp_path_factory.mktemp("arena-site") / "dist"
    build_site(output, [SHIPPED])
    return output


def test_the_tier_list_json_holds_the_official_results_ranked(site: Path) -> None:
    listed = json.loads((site / "arena" / "tier-list.json").read_text())
    expected = json.loads(json.dumps(tier_rows(load_entries(SHIPPED))))
    assert listed["rows"] == expected
    assert [r["entry"] for r in listed["rows"]][:2] == ["tactician", "first-empty"]
    html = (site / "arena" / "index.html").read_text()
    assert 'href="entries/tactician.html"' in html


def test_each_entry_has_a_page_with_its_numbers_replays_source_and_play_box(site: Path) -> None:
    for entry in load_entries(SHIPPED):
        page = site / "arena" / "entries" / f"{entry.id}.html"
        html = page.read_text(encoding="utf-8")
        data = page_data(page)
        assert data["play"]["source"] == entry.engine.read_bytes().decode("latin-1")
        assert data["play"]["sizes"] == [3, 5, 10]
        assert '<div id="play" data-arcade-play="play"></div>' in html
        for script in ("viewer-kit.js", "brainfuck.js", "tictactoe-rules.js", "arena-play.js"):
            assert f'src="../../assets/{script}"' in html
        result = official_result(entry)
        assert result is not None
        assert f"<dd>{result['score']:.1f}</dd>" in html
        assert result["engineSha256"] in html
        saved = json.loads((site / "arena" / "entries" / f"{entry.id}.json").read_text())
        assert saved["score"] == result["score"]
        replays = sorted((site / "arena" / "entries" / entry.id).glob("match-*.html"))
        assert len(replays) == 24
        assert f'href="{entry.id}/match-3-01.html"' in html


def test_a_match_replay_ends_on_the_recorded_game(site: Path) -> None:
    entry = next(e for e in load_entries(SHIPPED) if e.id == "tactician")
    result = official_result(entry)
    assert result is not None
    log = match_logs(entry, result)["match-5-12"]
    replay = export_replay(log).to_json()
    frames = replay["frames"]
    first, last = frames[0], frames[-1]
    assert first["lastMove"] is None and first["instructions"] is None
    game = TicTacToeGame(5)
    for move in replay["result"]["moves"]:
        game.play(game.cell(*map(int, move.split())))
    assert last["rows"] == list(game.rows())
    assert last["over"] and last["outcome"] == replay["result"]["result"]
    assert all(f["instructions"] > 0 for f in frames[1:])
    assert last["size"] == 5 and last["k"] == 4 and last["engineMark"] == "O"
    page = site / "arena" / "entries" / "tactician" / "match-5-12.html"
    assert "viewers/tictactoe.js" in page.read_text()


def test_a_position_replay_shows_the_expected_answers(tmp_path: Path) -> None:
    item = _items(20261009)[("positions", "block-3-01")]
    log = tmp_path / "position.jsonl"
    play_arena_game(make_player("tactician"), item, log, suite_seed=20261009)
    frames = export_replay(log).to_json()["frames"]
    assert len(frames) == 2
    assert frames[0]["kind"] == "position" and frames[0]["passed"] is None
    assert frames[1]["passed"] is True
    assert frames[1]["lastMove"] in frames[1]["expected"]


def copy_entries(tmp_path: Path) -> Path:
    root = tmp_path / "entries"
    shutil.copytree(SHIPPED / "first-empty", root / "first-empty")
    return root


def test_a_tampered_match_log_leaves_its_result_unverified_and_unranked(tmp_path: Path) -> None:
    root = copy_entries(tmp_path)
    log = next((root / "first-empty" / "results").glob("*/matches/match-3-01.jsonl"))
    lines = log.read_text().splitlines()
    lines[1] = lines[1].replace('"output":"0 0\\n"', '"output":"1 1\\n"', 1)
    log.write_text("\n".join(lines) + "\n")
    build_site(tmp_path / "dist", [root])
    (row,) = json.loads((tmp_path / "dist" / "arena" / "tier-list.json").read_text())["rows"]
    assert row["benched"] is False and row["rank"] is None
    assert "match-3-01.jsonl does not verify" in row["unverified"][0]["reason"]
    page = (tmp_path / "dist" / "arena" / "entries" / "first-empty.html").read_text()
    assert "match-3-01.jsonl does not verify" in page and "Not benched yet" in page
    assert (
        "match-3-01.jsonl does not verify"
        in (tmp_path / "dist" / "arena" / "index.html").read_text()
    )
    assert not (tmp_path / "dist" / "arena" / "entries" / "first-empty").exists()


def test_an_entry_without_a_result_gets_a_page_and_is_listed_last(tmp_path: Path) -> None:
    root = copy_entries(tmp_path)
    shutil.copytree(SHIPPED / "broken", root / "new-one", ignore=shutil.ignore_patterns("results"))
    build_site(tmp_path / "dist", [root])
    page = (tmp_path / "dist" / "arena" / "entries" / "new-one.html").read_text()
    assert "Not benched yet" in page and "data-arcade-play" in page
    rows = json.loads((tmp_path / "dist" / "arena" / "tier-list.json").read_text())["rows"]
    assert [r["entry"] for r in rows] == ["first-empty", "new-one"]
    assert not (tmp_path / "dist" / "arena" / "entries" / "new-one.json").exists()


def test_a_bad_entry_stops_the_build_naming_it(tmp_path: Path) -> None:
    root = copy_entries(tmp_path)
    meta = root / "first-empty" / "entry.json"
    data = json.loads(meta.read_text())
    del data["harness"]
    meta.write_text(json.dumps(data))
    with pytest.raises(SiteError, match=r"entry 'first-empty'.*field 'harness' is missing"):
        build_site(tmp_path / "dist", [root])


def test_an_arena_run_directory_or_a_folder_of_runs_gets_a_page_with_its_match_replays(
    tmp_path: Path,
) -> None:
    run = tmp_path / "run"
    assert cli.main(["ttt-arena", "--policy", "random", "--output-dir", str(run)]) == 0
    build_site(tmp_path / "dist", [run])
    page = (tmp_path / "dist" / "arena" / "runs" / "run.html").read_text()
    assert "arena-categories" in page and "arena-matches" in page
    assert len(list((tmp_path / "dist" / "arena" / "runs" / "run").rglob("match-*.html"))) == 24
    assert 'href="runs/run.html"' in (tmp_path / "dist" / "arena" / "index.html").read_text()
    folder = tmp_path / "runs"
    folder.mkdir()
    shutil.copytree(run, folder / "first")
    build_site(tmp_path / "dist2", [folder])
    assert (tmp_path / "dist2" / "arena" / "runs" / "first.html").is_file()


# --- in a browser -------------------------------------------------------------------------------


def test_the_tier_list_shows_the_results_numbers_in_a_browser(
    site: Path, browser: Any, screenshot: Callable[[Any, str], Path]
) -> None:
    from selenium.webdriver.common.by import By

    browser.get(file_url(site / "arena" / "index.html"))
    table = browser.find_element(By.ID, "arena-tier-list")
    shown = [
        [c.text for c in row.find_elements(By.TAG_NAME, "td")]
        for row in table.find_elements(By.CSS_SELECTOR, "tbody tr")
    ]
    rows = json.loads((site / "arena" / "tier-list.json").read_text())["rows"]
    assert shown == [row_cells(r) for r in rows]
    tactician = shown[0]
    assert tactician[1:4] == ["B", "82.9", "12/30"]
    screenshot(browser, "arena-tier-list")


def test_an_entry_page_mounts_the_play_box_and_shows_the_source_in_a_browser(
    site: Path, browser: Any, screenshot: Callable[[Any, str], Path]
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(file_url(site / "arena" / "entries" / "first-empty.html"))
    WebDriverWait(browser, 20).until(
        lambda d: d.find_element(By.ID, "play").get_attribute("data-play-state") == "your-turn"
    )
    source = browser.execute_script("return document.getElementById('engine-source').textContent")
    assert source == (SHIPPED / "first-empty" / "engine.bf").read_bytes().decode("latin-1")
    facts = browser.find_element(By.ID, "arena-facts").text
    assert "23.4" in facts and "4/0/20" in facts
    screenshot(browser, "arena-entry-first-empty")


def test_a_match_replay_stepped_to_the_end_shows_the_outcome_in_a_browser(
    site: Path, browser: Any, screenshot: Callable[[Any, str], Path]
) -> None:
    from selenium.webdriver.common.by import By

    entry = next(e for e in load_entries(SHIPPED) if e.id == "tactician")
    result = official_result(entry)
    assert result is not None
    game = next(g for g in result["report"]["games"] if g["id"] == "match-3-01")
    browser.get(file_url(site / "arena" / "entries" / "tactician" / "match-3-01.html"))
    browser.find_element(By.ID, "last").click()
    position = browser.find_element(By.ID, "position").text
    steps = position.split("/")[-1].strip()
    assert position == f"decision {steps} / {steps}"
    assert browser.find_element(By.CSS_SELECTOR, ".ttt-outcome").text.startswith(game["result"])
    board = TicTacToeGame(3)
    for move in game["moves"]:
        board.play(board.cell(*map(int, move.split())))
    rows = browser.find_element(By.ID, "board").get_attribute("data-rows")
    assert rows == "/".join(board.rows())
    screenshot(browser, "arena-replay")

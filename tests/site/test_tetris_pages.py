"""Tetris Bench pages: replay frames, the leaderboard in the browser equals leaderboard.json, a
replay stepped to its end shows the recorded score, and no page logs a console error."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from arcade_gym.tetris.rules import PIECE_LETTERS as KINDS
from evaluation.core.eventlog import read_log
from evaluation.core.replay_export import export_replay
from evaluation.site.cli import build_site
from tests.site.conftest import console_errors, file_url


def _cells(row: Any) -> list[str]:
    from selenium.webdriver.common.by import By

    return [td.text for td in row.find_elements(By.TAG_NAME, "td")]


def _number(text: str) -> float:
    return float(text.replace(",", "").replace("≈", "").replace("ms", "").strip())


def test_frames_are_the_shared_tetris_shape_and_mark_the_chosen_placement(
    tetris_run: Path,
) -> None:
    log = tetris_run / "logs" / "heuristic" / "IQ" / "seed-01.jsonl"
    replay = export_replay(log).to_json()
    frames = replay["frames"]
    result = read_log(log).result or {}
    assert len(frames) == len(read_log(log).events) + 1
    assert frames[0]["chosen"] is None and frames[0]["score"] == 0
    assert frames[-1]["score"] == result["score"] and frames[-1]["over"]
    assert frames[-1]["lines"] == result["lines"] and frames[-1]["level"] == result["level"]
    events = list(read_log(log).events)
    chosen = 0
    for event, (before, after) in zip(events, itertools.pairwise(frames), strict=True):
        played = event.get("played")
        assert (after["chosen"] is None) == (played is None)
        board = after["board"]
        assert len(board) == 20 and all(len(row) == 10 for row in board)
        assert {v for row in board for v in row} <= set(range(8))
        assert after["next"] and set(after["next"]) <= set(KINDS)
        if after["chosen"] is not None:
            chosen += 1
            assert after["chosen"]["kind"] == before["active"]["kind"]
            cells = after["chosen"]["cells"]
            assert len(cells) == 4 and all(0 <= r < 20 and 0 <= c < 10 for r, c in cells)
            assert (after["chosen"]["x"], after["chosen"]["rotation"]) == (
                played["x"],
                played["rotation"],
            )
            if after["lines"] == before["lines"]:  # nothing cleared: the piece is on the board
                kind = KINDS.index(after["chosen"]["kind"]) + 1
                assert all(board[r][c] == kind for r, c in cells)
    assert chosen > 20


def test_the_section_has_a_leaderboard_brain_pages_and_replays(tetris_site: Path) -> None:
    tetris = tetris_site / "tetris"
    assert (tetris / "index.html").is_file() and (tetris / "leaderboard.json").is_file()
    assert {p.name for p in (tetris / "brains").iterdir()} == {"heuristic.html", "random.html"}
    replays = {p.name for p in (tetris / "replays").iterdir()}
    assert "heuristic-IQ-seed-01.html" in replays and "random-Blitz-seed-02.html" in replays
    home = (tetris_site / "index.html").read_text()
    assert 'href="tetris/index.html"' in home


def test_leaderboard_json_beside_the_page_is_the_runs_own(
    tetris_run: Path, tetris_site: Path
) -> None:
    ours = json.loads((tetris_site / "tetris" / "leaderboard.json").read_text())
    assert ours == json.loads((tetris_run / "leaderboard.json").read_text())


def test_leaderboard_json_reads_back_into_the_same_leaderboard(tetris_run: Path) -> None:
    from evaluation.benchmarks.tetris_bench.leaderboard import leaderboard_from_json, to_json

    shipped = json.loads((tetris_run / "leaderboard.json").read_text())
    assert to_json(leaderboard_from_json(shipped)) == shipped


def test_the_leaderboard_page_shows_the_numbers_of_leaderboard_json(
    browser: Any, tetris_site: Path, screenshot: Callable[[Any, str], Path]
) -> None:
    from selenium.webdriver.common.by import By

    board = json.loads((tetris_site / "tetris" / "leaderboard.json").read_text())
    browser.get(file_url(tetris_site / "tetris" / "index.html"))
    headers = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "#leaderboard th")]
    assert headers[:3] == ["#", "Brain", "Score"] and len(headers) == 10
    rows = browser.find_elements(By.CSS_SELECTOR, "#leaderboard tbody tr")
    assert len(rows) == len(board["rows"])
    for row, want in zip(rows, board["rows"], strict=True):
        cells = _cells(row)
        assert int(_number(cells[0])) == want["rank"]
        assert ("≈" in cells[0]) == want["tiedWithAbove"]
        assert cells[1].startswith(want["name"])
        assert _number(cells[2]) == pytest.approx(want["score"], abs=0.05)
        per_seed = [int(v) for v in want["seedScores"].values()]
        assert [int(v) for v in cells[3].split(":")[1].split(",")] == per_seed
        assert _number(cells[4]) == pytest.approx(want["lines"], abs=0.05)
        assert _number(cells[5]) == pytest.approx(want["latencyMs"], abs=0.05)
        assert cells[6] == "—"  # local brains are not priced
        assert cells[7] == "—"  # nor do they report tokens
        assert int(cells[8]) == want["blitz"]["levelReached"]
        share = 100 * want["blitz"]["inTimeShare"]
        assert _number(cells[9].rstrip("%")) == pytest.approx(share, abs=0.05)
    pairs = browser.find_elements(By.CSS_SELECTOR, "#head-to-head tbody tr")
    assert len(pairs) == len(board["headToHead"])
    first = _cells(pairs[0])
    assert _number(first[2]) == pytest.approx(board["headToHead"][0]["meanDiff"], abs=0.05)
    text = browser.find_element(By.TAG_NAME, "main").text
    assert "Elo (penalised Bradley-Terry" in text and "Brier score" in text
    screenshot(browser, "tetris-leaderboard")


def _recorded_score(run: Path, slug: str, mode: str, seed: str) -> int:
    result = read_log(run / "logs" / slug / mode / f"{seed}.jsonl").result
    assert result is not None
    return int(result["score"])


def test_a_replay_stepped_to_its_end_shows_the_recorded_final_score(
    browser: Any, tetris_run: Path, tetris_site: Path, screenshot: Callable[[Any, str], Path]
) -> None:
    from selenium.webdriver.common.by import By

    browser.get(file_url(tetris_site / "tetris" / "replays" / "random-IQ-seed-01.html"))
    position = browser.find_element(By.ID, "position")
    total = int(position.text.split("/")[1])
    assert position.text == f"decision 0 / {total}"
    step = browser.find_element(By.ID, "step")
    for _ in range(total + 2):  # two extra clicks stay at the end
        step.click()
    assert position.text == f"decision {total} / {total}"
    score = browser.find_element(By.CSS_SELECTOR, ".tetris-score").text
    assert int(score.replace(",", "")) == _recorded_score(tetris_run, "random", "IQ", "seed-01")
    browser.find_element(By.ID, "back").click()
    assert position.text == f"decision {total - 1} / {total}"
    screenshot(browser, "tetris-replay-random-end")


def test_seek_and_keys_reach_the_end_of_a_long_replay(
    browser: Any, tetris_run: Path, tetris_site: Path, screenshot: Callable[[Any, str], Path]
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.get(file_url(tetris_site / "tetris" / "replays" / "heuristic-IQ-seed-01.html"))
    seek = browser.find_element(By.ID, "seek")
    total = int(seek.get_attribute("max"))
    browser.execute_script(
        "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'));",
        seek,
        total,
    )
    position = browser.find_element(By.ID, "position")
    assert position.text == f"decision {total} / {total}"
    score = int(browser.find_element(By.CSS_SELECTOR, ".tetris-score").text.replace(",", ""))
    assert score == _recorded_score(tetris_run, "heuristic", "IQ", "seed-01")
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.HOME)
    assert position.text == f"decision 0 / {total}"
    body.send_keys(Keys.ARROW_RIGHT)
    body.send_keys(Keys.ARROW_RIGHT)
    assert position.text == f"decision 2 / {total}"
    assert browser.find_elements(By.CSS_SELECTOR, "#board rect.chosen")
    screenshot(browser, "tetris-replay-heuristic-step-2")
    body.send_keys(Keys.END)
    assert position.text == f"decision {total} / {total}"


CHART_TEXT = """
const out = [];
for (const svg of document.querySelectorAll('.tetris-charts svg')) {
  const box = svg.getBoundingClientRect();
  const scale = box.width / svg.viewBox.baseVal.width;
  for (const text of svg.querySelectorAll('text')) {
    const r = text.getBoundingClientRect();
    out.push({px: parseFloat(getComputedStyle(text).fontSize) * scale, text: text.textContent,
              inside: r.left >= box.left - 0.5 && r.right <= box.right + 0.5
                      && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5});
  }
}
return {texts: out, wide: document.documentElement.scrollWidth};
"""


@pytest.mark.parametrize("width", [390, 1280])
def test_the_charts_text_is_11_px_or_more_and_inside_on_a_phone_and_a_desktop(
    browser: Any, tetris_site: Path, width: int, screenshot: Callable[[Any, str], Path]
) -> None:
    from selenium.webdriver.common.by import By

    metrics = {"width": width, "height": 844, "deviceScaleFactor": 1, "mobile": width < 800}
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    try:
        browser.get(file_url(tetris_site / "tetris" / "replays" / "heuristic-IQ-seed-01.html"))
        browser.find_element(By.ID, "last").click()
        found = browser.execute_script(CHART_TEXT)
        texts = found["texts"]
        assert len(texts) == 8  # two charts: maximum, 0, title, last decision
        assert all(t["px"] >= 11 - 0.01 for t in texts), texts
        assert all(t["inside"] for t in texts), texts
        assert found["wide"] <= width
        screenshot(browser, f"tetris-replay-charts-{width}")
        if width == 390:  # turned to a desktop's width, the charts are drawn again, wider
            browser.execute_cdp_cmd(
                "Emulation.setDeviceMetricsOverride", {**metrics, "width": 1280, "mobile": False}
            )
            browser.execute_script("window.dispatchEvent(new Event('resize'))")
            wider = browser.execute_script(CHART_TEXT)["texts"]
            assert all(t["px"] >= 11 - 0.01 and t["inside"] for t in wider), wider
            boxes = browser.execute_script(
                "return [...document.querySelectorAll('.tetris-charts svg')]"
                ".map(s => s.viewBox.baseVal.width)"
            )
            assert min(boxes) > 390
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_every_game_row_links_to_its_replay(tetris_site: Path, tetris_run: Path) -> None:
    games = list((tetris_run / "results").rglob("*.json"))
    replays = list((tetris_site / "tetris" / "replays").glob("*.html"))
    assert len(replays) == len(games) == 8
    for brain in ("heuristic", "random"):
        page = (tetris_site / "tetris" / "brains" / f"{brain}.html").read_text()
        assert page.count(">replay</a>") == 4
        assert "<td></td></tr>" not in page  # no empty Replay cell


def test_play_advances_the_replay(browser: Any, tetris_site: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    browser.get(file_url(tetris_site / "tetris" / "replays" / "heuristic-Blitz-seed-01.html"))
    # 16 frames a second: the replay (a frame a decision of a 40-piece game) cannot reach its end,
    # which stops it by itself, before the pause below, even on a loaded machine.
    Select(browser.find_element(By.ID, "speed")).select_by_value("16")
    play = browser.find_element(By.ID, "play")
    play.click()
    assert play.text == "pause"
    WebDriverWait(browser, 20, poll_frequency=0.05).until(
        lambda d: int(d.find_element(By.ID, "seek").get_attribute("value")) >= 5
    )
    play.click()
    assert play.text == "play"


def test_every_page_of_the_site_opens_without_a_console_error(
    browser: Any, tetris_site: Path, screenshot: Callable[[Any, str], Path]
) -> None:
    from selenium.webdriver.common.by import By

    pages = sorted(tetris_site.rglob("*.html"))
    assert len(pages) >= 10
    for page in pages:
        browser.get(file_url(page))
        assert browser.find_element(By.TAG_NAME, "h1").text
        assert console_errors(browser) == [], page
    browser.get(file_url(tetris_site / "index.html"))
    screenshot(browser, "site-home")
    browser.get(file_url(tetris_site / "tetris" / "brains" / "heuristic.html"))
    screenshot(browser, "tetris-brain-heuristic")


@pytest.mark.slow
def test_the_default_site_of_shipped_results_opens_without_a_console_error(
    browser: Any, tmp_path: Path, screenshot: Callable[[Any, str], Path]
) -> None:
    from selenium.webdriver.common.by import By

    build_site(tmp_path / "dist", None)
    pages = sorted((tmp_path / "dist").rglob("*.html"))
    for page in pages:
        browser.get(file_url(page))
        assert browser.find_element(By.TAG_NAME, "h1").text
        assert console_errors(browser) == [], page
    browser.get(file_url(tmp_path / "dist" / "index.html"))
    screenshot(browser, "default-site-home")


def test_a_shipped_folder_with_an_index_and_a_few_logs_builds_and_verifies(
    tetris_run: Path, tmp_path: Path
) -> None:
    """A shipped folder: the leaderboard index, and logs plain or xz-compressed
    (`docs/results/tetris-bench/README.md`); a game without a log says so."""
    import lzma
    import shutil

    from evaluation.benchmarks.tetris_bench.leaderboard import merge_index
    from evaluation.benchmarks.tetris_bench.records import GameResult
    from evaluation.benchmarks.tetris_bench.site import INDEX
    from evaluation.cli import main

    shipped = tmp_path / "tetris-bench"
    shipped.mkdir()
    for name in ("manifest.json", "leaderboard.json", "leaderboard.md"):
        shutil.copy(tetris_run / name, shipped / name)
    results = [
        GameResult.from_dict(json.loads(p.read_text()))
        for p in sorted((tetris_run / "results").rglob("*.json"))
    ]
    merge_index(shipped / INDEX, results, official=True)
    kept = shipped / "logs" / "random" / "IQ" / "seed-02.jsonl"
    kept.parent.mkdir(parents=True)
    shutil.copy(tetris_run / "logs" / "random" / "IQ" / "seed-02.jsonl", kept)
    packed = shipped / "logs" / "random" / "Blitz" / "seed-01.jsonl.xz"
    packed.parent.mkdir(parents=True)
    plain = (tetris_run / "logs" / "random" / "Blitz" / "seed-01.jsonl").read_bytes()
    packed.write_bytes(lzma.compress(plain))
    assert main(["verify", str(shipped)]) == 0

    build_site(tmp_path / "dist", [shipped])
    tetris = tmp_path / "dist" / "tetris"
    assert sorted(p.name for p in (tetris / "replays").iterdir()) == [
        "random-Blitz-seed-01.html",
        "random-IQ-seed-02.html",
    ]
    assert ">no log</span>" in (tetris / "brains" / "heuristic.html").read_text()
    page = (tetris / "brains" / "heuristic.html").read_text()
    for game in results:
        if game.slug == "heuristic":
            assert f'<td>{game.seed}</td><td class="num">{game.score:,}</td>' in page
    assert "random-IQ-seed-02.html" in (tetris / "brains" / "random.html").read_text()


def test_two_runs_get_a_page_each_under_one_section(tetris_run: Path, tmp_path: Path) -> None:
    import shutil

    from evaluation.site.build import SiteError

    for name in ("quick-a", "quick-b"):
        shutil.copytree(tetris_run, tmp_path / name)
    build_site(tmp_path / "dist", [tmp_path / "quick-a", tmp_path / "quick-b"])
    tetris = tmp_path / "dist" / "tetris"
    index = (tetris / "index.html").read_text()
    assert 'href="quick-a/index.html"' in index and 'href="quick-b/index.html"' in index
    for name in ("quick-a", "quick-b"):
        assert (tetris / name / "leaderboard.json").is_file()
        assert (tetris / name / "brains" / "heuristic.html").is_file()

    (tmp_path / "quick-b" / "leaderboard.json").unlink()
    with pytest.raises(SiteError, match=r"quick-b has no leaderboard\.json: the run is unfinished"):
        build_site(tmp_path / "dist2", [tmp_path / "quick-b"])

    manifest = json.loads((tmp_path / "quick-b" / "manifest.json").read_text())
    manifest["settings"] = {"game": "tetris", "seed": "seed-01", "mode": "iq"}  # as play writes
    (tmp_path / "quick-b" / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(SiteError, match=r"one-game run of `arcade-eval play`.*Played games"):
        build_site(tmp_path / "dist3", [tmp_path / "quick-b"])

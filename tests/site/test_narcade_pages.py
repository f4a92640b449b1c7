"""The NARCADE pages (`evaluation/benchmarks/narcade/site.py`), built from a small run made here
and its publication: the results table shows the published numbers, a policy page per model,
replays of the logs that verify (a tampered log is listed as refused, never dropped), and in
Chromium a Snake replay stepped to its end shows the recorded final length and score."""

from __future__ import annotations

import html
import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import evaluation.benchmarks  # noqa: F401  (registers NARCADE)
from evaluation.benchmarks.narcade.publish import publish
from evaluation.benchmarks.narcade.runner import run_narcade
from evaluation.benchmarks.narcade.settings import NarcadeRunSettings
from evaluation.benchmarks.narcade.site import add_pages, sources_in
from evaluation.core.money import usd
from evaluation.site.build import SiteBuild
from tests.site.conftest import file_url

GAMES = ("minesweeper", "snake", "tetris")


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder like `docs/results/narcade/`: a small lockstep run and its publication."""
    root = tmp_path_factory.mktemp("narcade-results")
    request = NarcadeRunSettings(
        models="random,heuristic",
        games=",".join(GAMES),
        episodes=2,
        mode="lockstep",
        difficulty="easy",
        max_decisions=80,
        max_pieces=15,
        isolate=False,
        quiet=True,
        hardware="test-box",
    )
    code = run_narcade(request, root / "run")
    assert code == 0
    files = sorted((root / "run" / "results").glob("*/*.json"))
    publish(files, "Test run", root / "publication.json")
    return root


def _build(out: Path, inputs: list[Path]) -> tuple[SiteBuild, list[Path]]:
    build = SiteBuild(out, inputs=[str(p) for p in inputs])
    used = add_pages(inputs, build)
    build.finish()
    return build, used


@pytest.fixture(scope="module")
def site(results: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("narcade-site") / "dist"
    _, used = _build(out, [results])
    assert used == [results]
    return out


def _page_data(page: Path) -> Any:
    text = page.read_text(encoding="utf-8")
    found = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', text, re.S)
    assert found is not None
    return json.loads(found.group(1).replace("<\\/", "</"))


def _shown(mean: float) -> str:
    return f"{int(mean):,}" if mean == int(mean) else f"{mean:,.2f}"


def test_inputs_it_claims_and_leaves(results: Path, tmp_path: Path) -> None:
    assert sources_in(results) == ([results / "publication.json"], [results / "run"])
    assert sources_in(results / "run") == ([], [results / "run"])
    assert sources_in(results / "publication.json") == ([results / "publication.json"], [])
    other = tmp_path / "other"
    other.mkdir()
    (other / "manifest.json").write_text(json.dumps({"benchmark": "sudoku"}))
    (tmp_path / "notes.json").write_text(json.dumps({"format": "something else"}))
    build = SiteBuild(tmp_path / "dist")
    assert add_pages([other, tmp_path / "notes.json"], build) == []
    assert "narcade" not in build.sections


def test_the_results_page_holds_the_published_means_and_every_replay(
    results: Path, site: Path
) -> None:
    publication = json.loads((results / "publication.json").read_text())
    index = site / "narcade" / "index.html"
    text = index.read_text(encoding="utf-8")
    for game, block in publication["games"].items():
        for entry in block["entries"]:
            cell = (
                f'<span data-model="{entry["model"]}" data-game="{game}">'
                f"{_shown(entry['meanScore'])}</span>"
            )
            assert cell in text
    assert "Publication: Test run" in text and "Run: run" in text
    # the run the publication was made from is not tabulated twice
    assert "was made from this run's result files" in html.unescape(text)
    assert text.count('id="game-') == len(GAMES)
    data = _page_data(index)
    assert len(data["replays"]) == 2 * len(GAMES) * 2 and data["refused"] == {}
    for page in data["replays"]:
        assert (site / page).is_file()
    assert json.loads((site / "narcade" / "publications" / "publication.json").read_text()) == (
        publication
    )
    for model in ("random", "heuristic"):
        policy = (site / "narcade" / "policies" / f"{model}.html").read_text(encoding="utf-8")
        assert policy.count('<svg xmlns="http://www.w3.org/2000/svg" class="plot"') == len(GAMES)


def test_a_log_that_does_not_verify_is_listed_as_refused(results: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    shutil.copytree(results / "run", run)
    log = run / "logs" / "heuristic" / "snake" / "101.jsonl"
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    lines[4]["verdict"]["action"] = "nowhere"
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))
    junk = run / "logs" / "someone" / "snake" / "7.jsonl"
    junk.parent.mkdir(parents=True)
    junk.write_text("not an event log\n")
    _build(tmp_path / "dist", [run])
    index = tmp_path / "dist" / "narcade" / "index.html"
    data = _page_data(index)
    assert data["refused"] == {
        "run": ["logs/heuristic/snake/101.jsonl", "logs/someone/snake/7.jsonl"]
    }
    assert len(data["replays"]) == 2 * len(GAMES) * 2 - 1
    text = index.read_text(encoding="utf-8")
    assert "Refused logs" in text and "does not verify" in html.unescape(text)
    assert (
        not (tmp_path / "dist" / "narcade" / "replays" / "run" / "heuristic" / "snake")
        .joinpath("101.html")
        .exists()
    )


def test_an_unfinished_result_is_marked_as_the_closing_table_marks_it(
    results: Path, tmp_path: Path
) -> None:
    run = tmp_path / "run"
    shutil.copytree(results / "run", run)
    path = run / "results" / "random" / "snake.json"
    data = json.loads(path.read_text())
    data["status"] = "failed"
    path.write_text(json.dumps(data))
    _build(tmp_path / "dist", [run])
    text = (tmp_path / "dist" / "narcade" / "index.html").read_text(encoding="utf-8")
    mean = _shown(data["summary"]["meanScore"])
    assert f'<span data-model="random" data-game="snake">{mean}*</span>' in text
    assert "* incomplete: the model failed or was stopped; not comparable" in text


def test_policy_pages_show_the_published_episodes_with_the_runs_tokens_and_cost(
    results: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "results"
    shutil.copytree(results, copy)
    path = copy / "run" / "results" / "heuristic" / "snake.json"
    data = json.loads(path.read_text())
    for episode in data["episodes"]:
        episode.update(promptTokens=1200, completionTokens=34, costUsd=0.0123)
    path.write_text(json.dumps(data))
    _build(tmp_path / "dist", [copy])
    page = tmp_path / "dist" / "narcade" / "policies" / "heuristic.html"
    games = _page_data(page)["games"]
    assert [block["source"] for block in games["snake"]] == ["Test run"]  # the run not twice
    assert [e["costUsd"] for e in games["snake"][0]["episodes"]] == [0.0123, 0.0123]
    text = page.read_text(encoding="utf-8")
    assert "Tokens in" in text and usd(0.0123) in text and "1,200" in text  # one formatter
    assert text.count("Tokens in") == 1  # only the game whose run recorded usage


def test_a_publication_alone_with_its_comparison(results: Path, tmp_path: Path) -> None:
    files = sorted((results / "run" / "results").glob("*/*.json"))
    second = tmp_path / "second.json"
    publish(files, "Second", second, compare_with=results / "publication.json")
    _, used = _build(tmp_path / "dist", [second])
    assert used == [second]
    text = html.unescape((tmp_path / "dist" / "narcade" / "index.html").read_text())
    assert "Publication: Second" in text and "Compared with Test run" in text
    assert "Run:" not in text and "/replays/" not in text  # no run, so no replay to link
    assert text.count("+0.00") == 2 * len(GAMES)  # the same run: every mean unchanged


def test_in_the_browser_results_and_a_snake_replay_to_its_end(
    results: Path, site: Path, browser: Any, screenshot: Callable[[Any, str], Path]
) -> None:
    from selenium.webdriver.common.by import By

    publication = json.loads((results / "publication.json").read_text())
    browser.get(file_url(site / "narcade" / "index.html"))
    for game, block in publication["games"].items():
        for entry in block["entries"]:
            shown = browser.find_element(
                By.CSS_SELECTOR,
                f'#means-publication span[data-model="{entry["model"]}"][data-game="{game}"]',
            ).text
            assert shown == _shown(entry["meanScore"])
    screenshot(browser, "narcade-results")

    episode = json.loads((results / "run" / "results" / "heuristic" / "snake.json").read_text())[
        "episodes"
    ][0]
    page = site / "narcade" / "replays" / "run" / "heuristic" / "snake" / f"{episode['seed']}.html"
    browser.get(file_url(page))
    board = browser.find_element(By.ID, "board")
    assert board.find_element(By.CSS_SELECTOR, '[data-field="length"]').text == "3"
    browser.find_element(By.ID, "last").click()
    decisions = episode["decisions"]
    assert browser.find_element(By.ID, "position").text == f"decision {decisions} / {decisions}"
    assert board.find_element(By.CSS_SELECTOR, '[data-field="score"]').text == str(episode["score"])
    assert board.find_element(By.CSS_SELECTOR, '[data-field="length"]').text == str(
        episode["length"]
    )
    assert board.find_element(By.CSS_SELECTOR, '[data-field="end"]').text == episode["endReason"]
    assert len(board.find_elements(By.CSS_SELECTOR, "rect.snk-body")) == episode["length"] - 1
    screenshot(browser, "narcade-snake-replay")

    browser.get(
        file_url(site / "narcade" / "replays" / "run" / "random" / "minesweeper" / "100.html")
    )
    browser.find_element(By.ID, "last").click()
    cells = browser.find_elements(By.CSS_SELECTOR, "#board .msw-cell")
    assert len(cells) == 81 and browser.find_elements(By.CSS_SELECTOR, ".msw-cell.exploded")
    screenshot(browser, "narcade-minesweeper-replay")

    browser.get(file_url(site / "narcade" / "policies" / "heuristic.html"))
    assert browser.find_elements(By.CSS_SELECTOR, "svg.plot circle")
    screenshot(browser, "narcade-policy")

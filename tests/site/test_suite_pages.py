"""The suite's pages on the site, from a real (small) suite run: the home page's policies x
benchmarks matrix shows `scorecard.json`'s numbers (in Chromium), a comparison of two Tetris brains
shows `leaderboard.json`'s head-to-head, the other benchmarks' paired differences agree with their
own scores, and a policy page links its benchmarks, charts and replays.

The suite is `arcade-eval suite --policy random --policy heuristic --budget quick --benchmarks
tetris-bench,ttt-arena,sudoku`, run in this process, with one change to keep it in seconds: Tetris
Bench's strongest reference (the normalisation's 100) is the heuristic instead of the beam search
(which takes minutes here). Every other figure is the suite's own.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from evaluation.benchmarks.tetris_bench import suite_run as tetris_suite
from evaluation.benchmarks.ttt_arena.grading import WEIGHTS
from evaluation.cli import main
from evaluation.core.registry import benchmarks
from evaluation.site.cli import build_site
from tests.site.conftest import file_url

pytestmark = pytest.mark.slow  # a quick suite run and a site build: over a minute

POLICIES = ("random", "heuristic")
BENCHMARKS = "tetris-bench,ttt-arena,sudoku"


@pytest.fixture(scope="module")
def suite_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("suite") / "run"
    argv = ["suite", *(w for p in POLICIES for w in ("--policy", p)), "--budget", "quick"]
    argv += ["--benchmarks", BENCHMARKS, "--output-dir", str(out), "--quiet"]
    with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stdout(io.StringIO()):
        patch.setattr(tetris_suite, "STRONGEST", "heuristic")
        assert main(argv) == 0
    return out


@pytest.fixture(scope="module")
def suite_site(suite_run: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    output = tmp_path_factory.mktemp("site") / "dist"
    build_site(output, [suite_run])
    return output


def _card(run: Path) -> dict[str, Any]:
    return json.loads((run / "scorecard.json").read_text())


def _close(shown: str, value: float | None) -> None:
    """`shown` is `value` written to the precision shown (n/a for none)."""
    shown = shown.strip()
    if value is None:
        assert shown == "n/a"
        return
    number = float(shown.replace(",", ""))
    decimals = len(shown.partition(".")[2]) if "e" not in shown else 0
    tolerance = 0.5 * 10**-decimals if "e" not in shown else abs(value) * 0.005
    assert abs(number - value) <= tolerance * (1 + 1e-9), (shown, value)


def _page_data(path: Path) -> Any:
    found = re.search(
        r'<script type="application/json" id="page-data">(.*?)</script>', path.read_text()
    )
    assert found is not None
    return json.loads(found.group(1))


def test_the_home_page_shows_the_scorecard(suite_run: Path, suite_site: Path, browser: Any) -> None:
    from selenium.webdriver.common.by import By

    card = _card(suite_run)
    browser.get(file_url(suite_site / "index.html"))
    names = [b["name"] for b in card["benchmarks"]]
    assert names == BENCHMARKS.split(",")
    headers = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "#suite-matrix-0 th")]
    assert headers == ["Policy", *names, "Budget"]
    rows = browser.find_elements(By.CSS_SELECTOR, "#suite-matrix-0 tbody tr")
    assert [r.find_element(By.TAG_NAME, "td").text for r in rows] == list(POLICIES)
    checked = 0
    for row in card["rows"]:
        for name in names:
            cell = row["cells"][name]
            shown = browser.find_element(
                By.CSS_SELECTOR,
                f'.suite-cell[data-policy="{row["policy"]}"][data-benchmark="{name}"]',
            )
            if cell["status"] != "ok":
                assert cell["status"] in shown.text
                continue
            assert "quick sample, not official" in shown.text
            heads = shown.find_elements(By.CSS_SELECTOR, ".headline")
            assert len(heads) == len(cell["headlines"])
            for h, element in zip(cell["headlines"], heads, strict=True):
                assert element.get_attribute("data-label") == h["label"]
                _close(element.find_element(By.CSS_SELECTOR, ".value").text, h["value"])
                interval = element.find_element(By.CSS_SELECTOR, ".interval").text
                if h["low95"] is None:
                    assert interval == "n/a"
                else:
                    low, high = interval.strip("[]").split(", ")
                    _close(low, h["low95"])
                    _close(high, h["high95"])
                norm = element.find_element(By.CSS_SELECTOR, ".normalised").text
                _close(norm.removeprefix("norm "), h["normalised"])
                target = element.find_element(By.CSS_SELECTOR, ".value a").get_attribute("href")
                assert (
                    target.endswith("/index.html")
                    and Path(target.removeprefix("file://")).is_file()
                )
                checked += 1
    assert checked >= 4  # both policies on Tetris Bench and the arena, the heuristic on Sudoku
    assert card["rows"][0]["cells"]["sudoku"]["status"] == "not applicable"


def test_a_tetris_comparison_shows_the_leaderboards_head_to_head(
    suite_run: Path, suite_site: Path, browser: Any
) -> None:
    from selenium.webdriver.common.by import By

    board = json.loads((suite_run / "tetris-bench" / "leaderboard.json").read_text())
    pair = next(p for p in board["headToHead"] if {p["brainA"], p["brainB"]} == set(POLICIES))
    sign = 1.0 if pair["brainA"] == POLICIES[0] else -1.0  # the page shows random - heuristic
    page = suite_site / "suite" / "compare" / "random--heuristic.html"
    browser.get(file_url(page))
    row = next(
        r
        for r in browser.find_elements(By.CSS_SELECTOR, "#comparison tbody tr")
        if r.find_element(By.TAG_NAME, "td").text == "tetris-bench"
    )
    cells = [td.text for td in row.find_elements(By.TAG_NAME, "td")]
    _close(cells[4], sign * pair["meanDiff"])
    low, high = cells[5].replace(" ≈", "").strip("[]").split(", ")
    ends = sorted((sign * pair["low"], sign * pair["high"]))
    _close(low, ends[0])
    _close(high, ends[1])
    wins = (pair["winsA"], pair["winsB"]) if sign > 0 else (pair["winsB"], pair["winsA"])
    assert cells[6].startswith(f"{wins[0]} / {wins[1]} / {pair['ties']} of {pair['seeds']} seed")
    data = _page_data(page)["pairs"]["tetris-bench"][0]
    assert data["meanDiff"] == sign * pair["meanDiff"]
    assert sorted((data["low95"], data["high95"])) == pytest.approx(ends, abs=1e-9)
    assert data["differences"] == {s: sign * d for s, d in pair["differences"].items()}


def test_arena_and_sudoku_pairs_agree_with_their_scores(suite_run: Path) -> None:
    hooks = {b.name: b.compare for b in benchmarks()}
    arena = suite_run / "ttt-arena"
    reports = {
        r["engine"]["slug"]: r for r in json.loads((arena / "report.json").read_text())["reports"]
    }

    def unrounded(report: dict[str, Any]) -> float:
        total = sum(WEIGHTS.values())
        return 100 * sum(WEIGHTS[c] * report["accuracy"][c] for c in WEIGHTS) / total

    assert hooks["ttt-arena"] is not None
    (paired,) = hooks["ttt-arena"](arena, "random", "tactician")
    expected = unrounded(reports["random"]) - unrounded(reports["tactician"])
    assert paired.summary.mean_diff == pytest.approx(expected, abs=1e-3)
    assert paired.summary.low <= paired.summary.mean_diff <= paired.summary.high
    assert paired.summary.n == 188 + 24

    sudoku = suite_run / "sudoku"
    scores = {
        row["policy"]: row["score"]
        for row in json.loads((sudoku / "report.json").read_text())["policies"]
    }
    assert hooks["sudoku"] is not None
    (grids,) = hooks["sudoku"](sudoku, "techniques:3", "solver")
    assert grids.summary.n == 18 and grids.unit == "grid"
    assert grids.summary.mean_diff == pytest.approx(scores["techniques-3"] - scores["solver"])
    assert hooks["sudoku"](sudoku, "solver", "solver") == []
    assert hooks["sudoku"](sudoku, "solver", "not-played") == []


def test_a_policy_page_has_each_benchmark_its_charts_and_replays(suite_site: Path) -> None:
    page = suite_site / "suite" / "policies" / "heuristic.html"
    html = page.read_text()
    assert "El-Tetris heuristic" in html and "Tactician" in html  # who played on each
    assert html.count("<svg") >= 2 * 3  # a chart per benchmark (drawn twice: desktop, phone)
    replays = re.findall(r'<p class="replays">Replays: (.*?)</p>', html)
    assert len(replays) == 3
    for href in re.findall(r'href="([^"]+)"', " ".join(replays)):
        assert (page.parent / href).resolve().is_file(), href
    assert "random vs heuristic" in html
    data = _page_data(page)
    assert set(data["cells"]) == set(BENCHMARKS.split(","))

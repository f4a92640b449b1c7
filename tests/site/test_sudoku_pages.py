"""The Sudoku pages of the site: replay frames against the engine, the pages a small run builds,
refused logs, and the leaderboard and a replay in a real browser."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from arcade_gym.sudoku.frame import cell_marks
from arcade_gym.sudoku.grader import grade
from arcade_gym.sudoku.rules import parse_puzzle
from arcade_gym.sudoku.sets import set_grids
from evaluation.benchmarks.sudoku import BENCHMARK
from evaluation.benchmarks.sudoku.cli import add_parsers
from evaluation.benchmarks.sudoku.defaults import BENCHMARK_ID
from evaluation.benchmarks.sudoku.site import add_pages, calibration_points
from evaluation.benchmarks.sudoku.site_frames import cell_tiers
from evaluation.core.registry import register
from evaluation.core.replay_export import export_replay
from evaluation.core.rundir import safe_name
from evaluation.site.build import SiteBuild, SiteError
from evaluation.site.inputs import run_dirs
from tests.site.conftest import file_url

register(BENCHMARK)
RECORDS = {g["id"]: g for g in set_grids("v1")}


@pytest.fixture(scope="module")
def small_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two built-ins through tiers 1 and 4 (12 grids each)."""
    out = tmp_path_factory.mktemp("sudoku") / "run"
    parser = argparse.ArgumentParser()
    add_parsers(parser.add_subparsers())
    args = parser.parse_args(
        ["sudoku", "--policy", "singles,techniques:3", "--tiers", "1,4", "--output-dir", str(out)]
    )
    with contextlib.redirect_stdout(io.StringIO()):
        assert args.handler(args) == 0
    return out


def build(output: Path, *inputs: Path) -> list[Path]:
    """Build a site from `inputs` with the Sudoku pages only; returns the inputs they used."""
    site = SiteBuild(output, inputs=[str(p) for p in inputs])
    used = add_pages(list(inputs), site)
    site.finish()
    return used


def test_cell_tiers_follow_the_graders_path() -> None:
    for grid_id in ("v1-t1-1", "v1-t4-2", "v1-t6-3", "v1-t7-1"):
        record = RECORDS[grid_id]
        needs = cell_tiers(record["puzzle"])
        givens = [c for c in range(81) if record["puzzle"][c] != "0"]
        assert all(needs[c] == 0 for c in givens)
        assert all(needs[c] >= 1 for c in range(81) if c not in givens)
        assert max(needs) == record["tier"]
    # a tier-4 grid: its first cells need only singles, the cells after its first tier-4 step
    # need tier 4, and no cell needs more than the hardest step before it
    record = RECORDS["v1-t4-2"]
    graded = grade(parse_puzzle(record["puzzle"]))
    first_hard = next(i for i, s in enumerate(graded.steps) if s.tier == 4)
    early = [c for s in graded.steps[:first_hard] for c, _ in s.placements]
    late = [c for s in graded.steps[first_hard:] for c, _ in s.placements]
    needs = cell_tiers(record["puzzle"])
    assert early and all(needs[c] <= 3 for c in early)
    assert late and all(needs[c] == 4 for c in late)


def test_cell_marks_name_given_right_wrong_changed_and_empty() -> None:
    record = RECORDS["v1-t1-1"]
    puzzle, solution = record["puzzle"], record["solution"]
    blanks = [c for c in range(81) if puzzle[c] == "0"]
    given = next(c for c in range(81) if puzzle[c] != "0")
    answer = list(solution)
    answer[blanks[0]] = "0"
    answer[blanks[1]] = str(int(solution[blanks[1]]) % 9 + 1)
    answer[given] = str(int(puzzle[given]) % 9 + 1)
    marks = cell_marks(puzzle, solution, "".join(answer))
    assert marks[blanks[0]] == "empty" and marks[blanks[1]] == "wrong"
    assert marks[blanks[2]] == "right" and marks[given] == "changed"
    assert cell_marks(puzzle, solution, None).count("empty") == len(blanks)


def test_frames_show_the_graded_answer_at_each_decision(small_run: Path) -> None:
    for log in sorted((small_run / "logs").rglob("*.jsonl"))[:6]:
        events = [json.loads(line) for line in log.read_text().splitlines()]
        header, decisions, result = events[0], events[1:-1], events[-1]
        record = RECORDS[header["settings"]["grid"]["id"]]
        frames = export_replay(log).frames
        assert len(frames) == len(decisions) + 1
        start, end = frames[0], frames[-1]
        assert start["grid"] == record["puzzle"] and start["outcome"] is None
        assert start["labels"] == record["labels"] and start["filled"] == []
        assert end["grid"] == decisions[-1]["answer"]
        assert end["cellsRight"] == result["cellsRight"] and end["outcome"] == result["outcome"]
        assert end["confidence"] == result["confidence"]
        assert end["marks"].count("right") == result["cellsRight"]
        assert end["marks"].count("empty") == result["emptyCells"]
        assert end["needs"] == list(cell_tiers(record["puzzle"]))


def test_calibration_points_bin_confidence_by_tenths() -> None:
    grids: list[dict[str, Any]] = [
        {"confidence": 95.0, "outcome": "solved"},
        {"confidence": 91.0, "outcome": "wrong"},
        {"confidence": 10.0, "outcome": "empty"},
        {"confidence": None, "outcome": "solved"},
        {"confidence": 100.0, "outcome": "solved"},
    ]
    points = calibration_points(grids)
    assert points == [(0.1, 0.0, 1), pytest.approx(((0.95 + 0.91 + 1.0) / 3, 2 / 3, 3))]


def test_pages_hold_the_reports_numbers_and_a_replay_per_log(
    small_run: Path, tmp_path: Path
) -> None:
    used = build(tmp_path / "site", small_run)
    assert used == [small_run]
    report = json.loads((small_run / "report.json").read_text())
    board = json.loads((tmp_path / "site" / "sudoku" / "leaderboard.json").read_text())
    rows = {row["policy"]: row for row in board["rows"]}
    for policy in report["policies"]:
        row = rows[policy["policy"]]
        for key in ("score", "ci95", "tiers", "brier", "cellsRight", "accuracyByTechnique"):
            assert row[key] == policy[key]
        assert row["accuracyByNeededTier"] == policy["accuracyByNeededTier"]  # one computation
        assert row["missingConfidence"] == policy["missingConfidence"] == 0
    assert [r["rank"] for r in board["rows"]] == [1, 2]
    # a run of tiers 1 and 4 says so: in the report, the CLI table and the site
    assert report["tiers"] == [1, 4]
    text = (small_run / "report.md").read_text()
    assert "tiers 1, 4 only" in text and "solved by tier (1, 4)" in text and "1..7" not in text
    index = (tmp_path / "site" / "sudoku" / "index.html").read_text()
    assert "solved by tier (1, 4)" in index and "solved by tier (1..7)" not in index
    # the tier each cell needs explains the built-ins: each places exactly the cells its
    # techniques reach, and none that need more
    by_need = rows["techniques-3"]["accuracyByNeededTier"]
    assert by_need["4"]["right"] == 0 < by_need["4"]["cells"]
    easy = [t for t in by_need if int(t) <= 3]
    assert "1" in easy and all(by_need[t]["right"] == by_need[t]["cells"] for t in easy)
    singles = rows["singles"]["accuracyByNeededTier"]
    assert singles["1"]["right"] == singles["1"]["cells"] > 0
    assert all(singles[t]["right"] == 0 for t in singles if t != "1")
    assert board["rows"][0]["score"] >= board["rows"][1]["score"]
    replays = sorted((tmp_path / "site" / "sudoku" / "replays").rglob("*.html"))
    assert len(replays) == len(list((small_run / "logs").rglob("*.jsonl"))) == 24
    policy_page = (tmp_path / "site" / "sudoku" / "policies" / "techniques-3.html").read_text()
    assert policy_page.count('href="../replays/techniques-3/') == 12
    index = (tmp_path / "site" / "sudoku" / "index.html").read_text()
    assert "sudoku-leaderboard" in index and "Calibration" in index and "<svg" in index


def test_a_folder_of_runs_is_one_input_and_other_folders_are_not_claimed(
    small_run: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "results"
    shutil.copytree(small_run, folder / "a")
    shutil.copytree(small_run, folder / "b")
    assert run_dirs(folder, BENCHMARK_ID) == [folder / "a", folder / "b"]
    other = tmp_path / "other"
    other.mkdir()
    (other / "manifest.json").write_text(json.dumps({"benchmark": "tetris-bench"}))
    assert run_dirs(other, BENCHMARK_ID) == []
    assert run_dirs(tmp_path / "missing", BENCHMARK_ID) == []
    used = build(tmp_path / "site", folder, other)
    assert used == [folder]
    board = json.loads((tmp_path / "site" / "sudoku" / "leaderboard.json").read_text())
    # the same policies in two runs get one page each, named after their run
    assert sorted(r["key"] for r in board["rows"]) == [
        "singles-a",
        "singles-b",
        "techniques-3-a",
        "techniques-3-b",
    ]


def test_a_run_cut_short_is_scored_from_its_results_and_marked(
    small_run: Path, tmp_path: Path
) -> None:
    run = tmp_path / "cut"
    shutil.copytree(small_run, run)
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["status"] = "interrupted"
    (run / "manifest.json").write_text(json.dumps(manifest))
    (run / "report.json").unlink()
    for name in ("v1-t4-1", "v1-t4-2"):
        (run / "results" / "singles" / f"{name}.json").unlink()
    build(tmp_path / "site", run)
    board = json.loads((tmp_path / "site" / "sudoku" / "leaderboard.json").read_text())
    singles = next(r for r in board["rows"] if r["policy"] == "singles")
    assert singles["complete"] is False and singles["tiers"]["4"]["grids"] == 4
    assert "incomplete run" in (tmp_path / "site" / "sudoku" / "index.html").read_text()


def test_a_log_that_does_not_verify_is_refused(small_run: Path, tmp_path: Path) -> None:
    run = tmp_path / "tampered"
    shutil.copytree(small_run, run)
    log = run / "logs" / "singles" / "v1-t1-1.jsonl"
    lines = log.read_text().splitlines()
    decision = json.loads(lines[1])
    decision["cellsRight"] += 1
    lines[1] = json.dumps(decision)
    log.write_text("\n".join(lines) + "\n")
    with pytest.raises(SiteError, match="v1-t1-1"):
        build(tmp_path / "site", run)


def test_the_leaderboard_shows_the_reports_numbers_in_a_browser(
    small_run: Path, tmp_path: Path, browser: Any, screenshot: Callable[[Any, str], Path]
) -> None:
    from selenium.webdriver.common.by import By

    build(tmp_path / "site", small_run)
    report = json.loads((small_run / "report.json").read_text())
    browser.get(file_url(tmp_path / "site" / "sudoku" / "index.html"))
    table = browser.find_element(By.ID, "sudoku-leaderboard")
    shown = {}
    for row in table.find_elements(By.CSS_SELECTOR, "tbody tr"):
        cells = [c.text for c in row.find_elements(By.TAG_NAME, "td")]
        shown[cells[1]] = cells
    for policy in report["policies"]:
        cells = shown[policy["policy"]]
        low, high = policy["ci95"]
        assert cells[2] == f"{policy['score']:.1f}"
        assert cells[3] == f"{low:.1f}\u2013{high:.1f}"
        assert cells[4].split() == [f"{t['solved']}/{t['grids']}" for t in policy["tiers"].values()]
        assert cells[5].startswith(f"{policy['cellsRight']}/{policy['blankCells']}")
        assert cells[7] == f"{policy['brier']:.3f}"
    screenshot(browser, "sudoku-leaderboard")


def test_a_replay_drawn_in_a_browser_ends_on_the_graded_answer(
    small_run: Path, tmp_path: Path, browser: Any, screenshot: Callable[[Any, str], Path]
) -> None:
    from selenium.webdriver.common.by import By

    build(tmp_path / "site", small_run)
    folder = small_run / "results" / safe_name("techniques:3")
    result = json.loads((folder / "v1-t4-1.json").read_text())
    page = tmp_path / "site" / "sudoku" / "replays" / "techniques-3" / "v1-t4-1.html"
    browser.get(file_url(page))
    cells = browser.find_elements(By.CSS_SELECTOR, "#board .sdk-cell")
    assert len(cells) == 81
    assert browser.find_element(By.ID, "position").text == "decision 0 / 1"
    browser.find_element(By.ID, "last").click()
    assert browser.find_element(By.ID, "position").text == "decision 1 / 1"
    assert browser.find_element(By.CSS_SELECTOR, ".sdk-outcome").text == result["outcome"]
    right = browser.find_elements(By.CSS_SELECTOR, "#board .sdk-cell.right")
    assert len(right) == result["cellsRight"]
    empty = next(c for c in cells if "empty" in c.get_attribute("class"))
    empty.click()
    detail = browser.find_element(By.CSS_SELECTOR, ".sdk-detail").text
    assert "empty" in detail and "needs tier" in detail
    legend = browser.find_element(By.CSS_SELECTOR, ".sdk-legend").text
    assert "tier 4" in legend
    screenshot(browser, "sudoku-replay")

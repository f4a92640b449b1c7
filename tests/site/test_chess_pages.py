"""The chess ladder pages of the site: replay frames against the game, the pages of a ladder run,
refused logs, and a replay with its PGN move list in a real browser."""

from __future__ import annotations

import html
import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import chess
import pytest

import evaluation.benchmarks.chess_ladder as chess_ladder
from evaluation.benchmarks.chess_ladder.defaults import BENCHMARK_ID
from evaluation.benchmarks.chess_ladder.episode import (
    LiveSide,
    play_ladder_game,
    settings_of,
)
from evaluation.benchmarks.chess_ladder.grading import judgement, win_percent
from evaluation.benchmarks.chess_ladder.site import add_pages, rung_order, wdl
from evaluation.benchmarks.chess_ladder.site_frames import quick_judgement
from evaluation.core.registry import register
from evaluation.core.replay_export import export_replay
from evaluation.site.build import SiteBuild, SiteError
from evaluation.site.inputs import run_dirs
from policies.base import DecisionContext, PolicyIdentity
from policies.chess import BUILTINS
from tests.engines.stockfish import stockfish_or_skip
from tests.site.conftest import file_url

register(chess_ladder.BENCHMARK)
SHIPPED = Path(__file__).resolve().parents[2] / "docs" / "results" / "chess-ladder"
VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}


class MaterialJudge:
    """Measures a position by material (white's side), so games are adjudicated without an
    engine: a stand-in for Stockfish that makes evaluations move."""

    def analyse(self, board: chess.Board, limit: Any) -> list[dict[str, Any]]:
        from chess.engine import Cp, PovScore

        balance = sum(
            value * (len(board.pieces(kind, chess.WHITE)) - len(board.pieces(kind, chess.BLACK)))
            for kind, value in VALUES.items()
        )
        return [{"score": PovScore(Cp(100 * balance), chess.WHITE)}]


class Stumbling(PolicyIdentity):
    """The greedy rung, with one unreadable reply at its third question."""

    def __init__(self) -> None:
        super().__init__(slug="stumbling", name="stumbling", description="test", kind="baseline")
        self.inner = BUILTINS["greedy"]("model")
        self.asked = 0

    def act(self, question: Any, ctx: DecisionContext) -> Any:
        self.asked += 1
        if self.asked == 3:
            return "I would rather not say"
        return self.inner.act(question, ctx)


def build(output: Path, *inputs: Path) -> list[Path]:
    """Build a site from `inputs` with the chess ladder pages only; the inputs they used."""
    site = SiteBuild(output, inputs=[str(p) for p in inputs])
    used = add_pages(list(inputs), site)
    site.finish()
    return used


@pytest.fixture(scope="module")
def game_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One game of the greedy rung as black against random, measured by material."""
    log = tmp_path_factory.mktemp("chess") / "game.jsonl"
    settings = settings_of("standard", "random", 0.0, chess.STARTING_FEN, None, "black", None, "v1")
    # the rung is seeded by the game's seed, as a run seeds it (verify re-derives its moves)
    side = LiveSide(BUILTINS["random"]("test"), MaterialJudge(), "standard")
    play_ladder_game(Stumbling(), side, settings, log, seed="test")
    return log


def test_frames_follow_the_recorded_game(game_log: Path) -> None:
    events = [json.loads(line) for line in game_log.read_text().splitlines()]
    decisions, result = events[1:-1], events[-1]
    frames = export_replay(game_log).frames
    assert len(frames) == len(decisions) + 1
    opening = frames[0]["moves"]
    assert [m["uci"] for m in opening] == [decisions[0]["opening"]]
    assert opening[0]["by"] == "rung" and frames[0]["turn"] == "black"
    for k, decision in enumerate(decisions, 1):
        frame = frames[k]
        assert frame["verdict"] == decision["verdict"]
        if decision["verdict"] != "legal":
            assert frame["moves"] == [] and frame["fen"] == frames[k - 1]["fen"]
            assert frame["feedback"] == decision["feedback"]
            continue
        assert frame["fen"] == decision["fen"]
        model = frame["moves"][0]
        assert (model["uci"], model["san"], model["by"]) == (
            decision["move"],
            decision["san"],
            "model",
        )
        if decision["opponent"] is not None:
            assert frame["moves"][1]["uci"] == decision["opponent"]
            assert frame["moves"][1]["by"] == "rung" and frame["lastMove"] == decision["opponent"]
        assert frame["evals"] == decision["evals"]
    assert [d["verdict"] for d in decisions].count("unreadable") == 1
    played = [m["uci"] for f in frames for m in f["moves"]]
    assert played == result["moves"]
    board = chess.Board()
    for uci in played:
        board.push_uci(uci)
    end = frames[-1]
    assert end["fen"] == board.fen() and end["over"] and end["result"] == result["result"]
    assert end["endReason"] == result["endReason"] and end["rejected"] == 1
    assert all(not f["over"] for f in frames[:-1])


def test_the_quick_judgement_reads_the_measurements_from_the_movers_side() -> None:
    # black to move at -1.0 (black a pawn up), after its move +4.0: black lost winning chances
    judged = quick_judgement(-1.0, 4.0, mover_white=False)
    assert judged is not None
    loss = win_percent(100) - win_percent(-400)
    assert judged["loss"] == pytest.approx(loss, abs=0.01) and judged["judgement"] == "blunder"
    assert judgement(loss) == "blunder"
    assert quick_judgement(0.3, 0.3, mover_white=True) == {
        "winBefore": round(win_percent(30), 2),
        "winAfter": round(win_percent(30), 2),
        "loss": 0.0,
        "judgement": None,
    }
    assert quick_judgement(None, 1.0, mover_white=True) is None


def test_frames_judge_model_moves_from_the_previous_measurement(game_log: Path) -> None:
    events = [json.loads(line) for line in game_log.read_text().splitlines()][1:-1]
    frames = export_replay(game_log).frames
    before = events[0]["openingEval"]
    for k, decision in enumerate(events, 1):
        if decision["verdict"] != "legal":
            assert frames[k]["judgement"] is None
            continue
        assert frames[k]["judgement"] == quick_judgement(before, decision["evals"][0], False)
        before = decision["evals"][-1]


def test_shipped_pages_hold_the_reports_ratings_and_every_game(tmp_path: Path) -> None:
    run = SHIPPED / "material-2ply"
    assert run_dirs(SHIPPED, BENCHMARK_ID) == [run]
    assert build(tmp_path / "site", SHIPPED) == [SHIPPED]
    report = json.loads((run / "report.json").read_text())
    site = tmp_path / "site" / "chess-ladder"
    board = json.loads((site / "leaderboard.json").read_text())
    assert len(board["rows"]) == len(report["models"])
    for row, model in zip(board["rows"], report["models"], strict=True):
        assert row["rating"] == model["rating"] and row["record"] == model["record"]
    logs = sorted((run / "logs").rglob("*.jsonl"))
    replays = sorted((site / "replays").rglob("*.html"))
    assert len(replays) == len(logs) > 0
    every = (site / "pgn" / "material-2ply.pgn").read_text()  # a PGN file, not JSON
    assert every.count("[Event ") == len(logs)
    sample = next(iter(sorted((run / "pgn").rglob("*.pgn"))))
    assert sample.read_text() in every
    index = (site / "index.html").read_text()
    for rung in rung_order():
        assert f"rung {rung}" in index
    record = report["models"][0]["record"]["standard"]
    for cells in record.values():
        assert f"<td>{wdl(cells)}</td>" in index or f'<td class="num">{wdl(cells)}</td>' in index
    replay_path = site / "replays" / "material-2ply" / "standard" / "random" / "game-0.html"
    replay = replay_path.read_text()
    data = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', replay)
    assert data is not None
    grades = json.loads(data[1])
    result = run / "results" / "material-2ply" / "standard" / "random" / "game-0.json"
    saved = json.loads(result.read_text())
    assert grades["grades"] == saved["grades"] and grades["source"] == "run results"
    # the download link points to a .pgn file of the site holding the run's PGN text exactly
    # (these results predate `startedAt`, so the date stays unknown)
    found = re.search(r'<a href="([^"]*\.pgn)" type="application/x-chess-pgn"', replay)
    assert found is not None
    shipped = (replay_path.parent / html.unescape(found[1])).resolve()
    pgn_file = run / "pgn" / "material-2ply" / "standard" / "random" / "game-0.pgn"
    assert shipped.read_text() == pgn_file.read_text()
    policy = (site / "policies" / "material-2ply.html").read_text()
    assert policy.count('type="application/x-chess-pgn"') == len(logs) + 1


def test_a_run_cut_short_shows_its_games_without_a_rating(tmp_path: Path) -> None:
    run = tmp_path / "cut"
    shutil.copytree(SHIPPED / "material-2ply", run)
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["status"] = "interrupted"
    (run / "manifest.json").write_text(json.dumps(manifest))
    (run / "report.json").unlink()
    build(tmp_path / "site", run)
    site = tmp_path / "site" / "chess-ladder"
    assert json.loads((site / "leaderboard.json").read_text())["rows"] == []
    assert "cut short" in (site / "policies" / "material-2ply.html").read_text()
    assert len(list((site / "replays").rglob("*.html"))) == len(list(run.rglob("*.jsonl")))


def test_other_folders_are_not_claimed_and_a_bad_log_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "manifest.json").write_text(json.dumps({"benchmark": "sudoku"}))
    assert run_dirs(other, BENCHMARK_ID) == [] and build(tmp_path / "empty", other) == []
    run = tmp_path / "tampered"
    shutil.copytree(SHIPPED / "material-2ply", run)
    log = run / "logs" / "material-2ply" / "standard" / "greedy" / "game-0.jsonl"
    lines = log.read_text().splitlines()
    decision = json.loads(lines[2])
    decision["san"] = "Qh5"
    lines[2] = json.dumps(decision)
    log.write_text("\n".join(lines) + "\n")
    with pytest.raises(SiteError, match="game-0"):
        build(tmp_path / "site", run)


def test_a_replay_seeked_to_the_end_shows_the_final_position(
    tmp_path: Path, browser: Any, screenshot: Callable[[Any, str], Path]
) -> None:
    from selenium.webdriver.common.by import By

    build(tmp_path / "site", SHIPPED)
    parts = ("material-2ply", "chess960", "stockfish-1600", "game-1")
    saved = json.loads(
        (SHIPPED / "material-2ply" / "results").joinpath(*parts[:3], f"{parts[3]}.json").read_text()
    )
    board = chess.Board(saved["startFen"], chess960=True)
    for uci in saved["moves"]:
        board.push_uci(uci)
    page = tmp_path / "site" / "chess-ladder" / "replays" / Path(*parts).with_suffix(".html")
    browser.get(file_url(page))
    seek = browser.find_element(By.ID, "seek")
    last = int(seek.get_attribute("max"))
    browser.execute_script(
        "var s = arguments[0]; s.value = s.max; s.dispatchEvent(new Event('input'));", seek
    )
    assert browser.find_element(By.ID, "position").text == f"decision {last} / {last}"
    assert browser.find_element(By.CSS_SELECTOR, ".chess-fen").text == board.fen()
    shown = browser.find_element(By.CSS_SELECTOR, ".chess-result").text
    assert shown == f"{saved['result']} ({saved['endReason']})"
    squares = browser.find_elements(By.CSS_SELECTOR, "#board .chs-sq")
    assert len(squares) == 64
    pieces = sum(1 for s in squares if s.text.strip())
    assert pieces == len(board.piece_map())
    moves = browser.find_elements(By.CSS_SELECTOR, "#board .chs-move")
    assert [m.text.rstrip("?!") for m in moves] == _sans(saved)
    blunders = sum(g["judgement"] == "blunder" for g in saved["grades"])
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board .chs-move.blunder")) == blunders
    screenshot(browser, "chess-replay-end")
    moves[1].click()  # the model's first move (it plays black): the frame after decision 0
    assert browser.find_element(By.ID, "position").text == f"decision 1 / {last}"
    assert "current" in moves[1].get_attribute("class")
    facts = " ".join(browser.find_element(By.CSS_SELECTOR, "#board .chs-facts").text.split())
    first = saved["calls"][0]["latencyMs"]
    assert f"Answer time {first:.1f} ms" in facts or f"Answer time {first / 1000:.2f} s" in facts
    screenshot(browser, "chess-replay-first-move")


def test_the_ratings_page_shows_the_reports_rating_in_a_browser(
    tmp_path: Path, browser: Any, screenshot: Callable[[Any, str], Path]
) -> None:
    from selenium.webdriver.common.by import By

    build(tmp_path / "site", SHIPPED)
    model = json.loads((SHIPPED / "material-2ply" / "report.json").read_text())["models"][0]
    browser.get(file_url(tmp_path / "site" / "chess-ladder" / "index.html"))
    row = browser.find_element(By.CSS_SELECTOR, "#chess-ratings tbody tr")
    cells = [c.text for c in row.find_elements(By.TAG_NAME, "td")]
    fit = model["rating"]
    assert cells[1:4] == [
        model["model"],
        f"{fit['rating']:.0f}",
        f"{fit['low95']:.0f} to {fit['high95']:.0f}",
    ]
    assert browser.find_elements(By.CSS_SELECTOR, "svg.plot")
    screenshot(browser, "chess-ladder-ratings")


def _sans(saved: dict[str, Any]) -> list[str]:
    board = chess.Board(saved["startFen"], chess960=saved["variant"] == "chess960")
    sans = []
    for uci in saved["moves"]:
        move = chess.Move.from_uci(uci)
        sans.append(board.san(move))
        board.push(move)
    return sans


@pytest.mark.slow
def test_pages_of_a_ladder_run_made_here(tmp_path: Path) -> None:
    stockfish_or_skip()
    from evaluation.benchmarks.chess_ladder.runner import run_ladder
    from policies.specs import make_policy

    out = tmp_path / "run"
    run = run_ladder(
        ["random"],
        lambda spec: make_policy(spec, "chess"),
        out,
        variants=["standard"],
        games_per_rung=1,
        grade_nodes=1_000,
        say=lambda _: None,
    )
    assert not run.interrupted and not run.aborted
    assert build(tmp_path / "site", out) == [out]
    board = json.loads((tmp_path / "site" / "chess-ladder" / "leaderboard.json").read_text())
    report = json.loads((out / "report.json").read_text())
    assert board["rows"][0]["rating"] == report["models"][0]["rating"]
    replays = list((tmp_path / "site" / "chess-ladder" / "replays").rglob("*.html"))
    assert len(replays) == len(list((out / "logs").rglob("*.jsonl"))) >= 2
    for result in (out / "results").rglob("*.json"):  # each PGN is dated the day it started
        started = json.loads(result.read_text())["startedAt"]
        pgn = out / "pgn" / result.relative_to(out / "results").with_suffix(".pgn")
        day = started[:10].replace("-", ".")
        assert f'[Date "{day}"]' in pgn.read_text()


def test_a_rejected_try_and_quick_judgements_are_shown_without_grades(
    game_log: Path, tmp_path: Path, browser: Any, screenshot: Callable[[Any, str], Path]
) -> None:
    from selenium.webdriver.common.by import By

    site = SiteBuild(tmp_path / "site")
    site.section("chess-ladder", "Chess ladder", "<p>test</p>")
    page = site.replay("chess-ladder/game.html", "a game", game_log, "chess")
    site.finish()
    frames = export_replay(game_log).frames
    rejected = next(k for k, f in enumerate(frames) if f.get("verdict") == "unreadable")
    quick = [f["judgement"]["judgement"] for f in frames if f.get("judgement")]
    browser.get(file_url(tmp_path / "site" / page))
    browser.execute_script(
        "var s = arguments[0]; s.value = String(arguments[1]);s.dispatchEvent(new Event('input'));",
        browser.find_element(By.ID, "seek"),
        rejected,
    )
    facts = " ".join(browser.find_element(By.CSS_SELECTOR, "#board .chs-facts").text.split())
    assert "Answer unreadable (try 1)" in facts and "Rejected so far 1" in facts
    assert "not measured" not in facts  # the last measurement stands while a try is rejected
    assert browser.find_element(By.CSS_SELECTOR, ".chess-fen").text == frames[rejected]["fen"]
    model_moves = browser.find_elements(By.CSS_SELECTOR, "#board .chs-move.model")
    assert len(model_moves) == len(quick)
    for kind in ("inaccuracy", "mistake", "blunder"):
        shown = browser.find_elements(By.CSS_SELECTOR, f"#board .chs-move.model.{kind}")
        assert len(shown) == quick.count(kind)
    assert all("quick reading" in m.get_attribute("title") for m in model_moves)
    screenshot(browser, "chess-replay-rejected-try")

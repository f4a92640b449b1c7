"""Chess PGN downloads: each game's PGN is a real `.pgn` file of the site (plain PGN text, not
JSON) with a real `Date` from its result's start time, linked from its replay page and its
policy's page, and a policy's games are one `.pgn` file."""

from __future__ import annotations

import html
import json
import re
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import chess.pgn

from evaluation.benchmarks.chess_ladder.pgn import UNKNOWN_DATE, dated, game_pgn, pgn_date
from evaluation.benchmarks.chess_ladder.site import add_pages
from evaluation.site.build import SiteBuild

SHIPPED = Path(__file__).resolve().parents[2] / "docs" / "results" / "chess-ladder"
GAME = ("material-2ply", "standard", "random", "game-0")


def test_the_date_tag_is_the_day_the_game_started() -> None:
    assert pgn_date("2026-12-04T23:59:59Z") == "2026.12.04"
    assert pgn_date("2026-12-04T23:30:00-02:00") == "2026.12.04"  # the time as written
    assert pgn_date("yesterday") is None and pgn_date(None) is None
    text = game_pgn(
        start_fen=chess.STARTING_FEN,
        variant="standard",
        moves_uci=["e2e4", "e7e5"],
        white="a",
        black="b",
        result="*",
        termination="unterminated",
        adjudicated=False,
        date="2026.12.04",
    )
    assert '[Date "2026.12.04"]' in text
    undated = text.replace('[Date "2026.12.04"]', f'[Date "{UNKNOWN_DATE}"]')
    assert dated(undated, "2026-11-30T10:00:00Z") == text.replace("12.04", "11.30")
    assert dated(text, "2026-11-30T10:00:00Z") == text  # a known date is kept
    assert dated(undated, None) == undated


def test_site_pgn_files_are_pgn_text_dated_from_the_result(tmp_path: Path) -> None:
    root = tmp_path / "results"
    shutil.copytree(SHIPPED, root)
    run = root / "material-2ply"
    result = run / "results" / Path(*GAME).with_suffix(".json")
    saved = json.loads(result.read_text())
    result.write_text(json.dumps({**saved, "startedAt": "2026-11-30T22:01:02Z"}))
    site = SiteBuild(tmp_path / "site", inputs=[str(root)])
    assert add_pages([root], site) == [root]
    site.finish()
    ladder = tmp_path / "site" / "chess-ladder"

    replay = ladder / "replays" / Path(*GAME).with_suffix(".html")
    found = re.search(
        r'<a href="([^"]+)" type="application/x-chess-pgn" download="([^"]+)"', replay.read_text()
    )
    assert found is not None and found[2].endswith(".pgn")
    shipped = (replay.parent / html.unescape(found[1])).resolve()
    assert shipped.suffix == ".pgn" and shipped.is_file()
    text = shipped.read_text(encoding="utf-8")
    with open(shipped, encoding="utf-8") as handle:
        game = chess.pgn.read_game(handle)
    assert game is not None and game.headers["Date"] == "2026.11.30"
    assert game.headers["Result"] == saved["result"]
    assert [m.uci() for m in game.mainline_moves()] == saved["moves"]
    original = (run / "pgn" / Path(*GAME).with_suffix(".pgn")).read_text()
    assert text == original.replace(f'[Date "{UNKNOWN_DATE}"]', '[Date "2026.11.30"]')

    policy = ladder / "policies" / "material-2ply.html"
    links = re.findall(r'<a href="([^"]+)" type="application/x-chess-pgn"', policy.read_text())
    targets = {(policy.parent / html.unescape(h)).resolve() for h in links}
    assert shipped in targets and all(t.is_file() and t.suffix == ".pgn" for t in targets)
    every = ladder / "pgn" / "material-2ply.pgn"
    assert every.resolve() in targets
    games = []
    with open(every, encoding="utf-8") as handle:
        while (read := chess.pgn.read_game(handle)) is not None:
            games.append(read)
    assert len(games) == len(list((run / "logs").rglob("*.jsonl")))
    assert sum(g.headers["Date"] == "2026.11.30" for g in games) == 1
    assert not list(ladder.rglob("pgn/*.json"))  # no JSON called a PGN


class _MaterialJudge:
    """Measures a position by material (white's side): adjudication without an engine."""

    def analyse(self, board: chess.Board, limit: Any) -> list[dict[str, Any]]:
        from chess.engine import Cp, PovScore

        values = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
        balance = sum(
            value * (len(board.pieces(kind, chess.WHITE)) - len(board.pieces(kind, chess.BLACK)))
            for kind, value in values.items()
        )
        return [{"score": PovScore(Cp(100 * balance), chess.WHITE)}]


def test_a_game_played_now_records_when_it_started(tmp_path: Path) -> None:
    from evaluation.benchmarks.chess_ladder.episode import LiveSide, play_ladder_game, settings_of
    from policies.chess import BUILTINS

    settings = settings_of("standard", "random", 0.0, chess.STARTING_FEN, None, "white", None, "v1")
    side = LiveSide(BUILTINS["random"]("test"), _MaterialJudge(), "standard")
    before = datetime.now(UTC).replace(microsecond=0)
    saved = play_ladder_game(
        BUILTINS["greedy"]("model"), side, settings, tmp_path / "g.jsonl", seed="t"
    )
    started = datetime.fromisoformat(saved["startedAt"].replace("Z", "+00:00"))
    assert before <= started <= datetime.now(UTC)
    assert "startedAt" not in (tmp_path / "g.jsonl").read_text()  # the log holds no wall clock

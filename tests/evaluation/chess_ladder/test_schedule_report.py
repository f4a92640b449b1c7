"""The schedule, the shipped seeds, PGN output and the report table."""

from __future__ import annotations

import io

import chess
import chess.engine
import chess.pgn
import pytest

from evaluation.benchmarks.chess_ladder.grading import grade_from_scores
from evaluation.benchmarks.chess_ladder.ladder import chess960_starts, load_ladder
from evaluation.benchmarks.chess_ladder.pgn import game_pgn
from evaluation.benchmarks.chess_ladder.report import LadderGame, markdown_table, model_row
from evaluation.benchmarks.chess_ladder.schedule import (
    PlayedGame,
    full_schedule_if,
    next_game,
)

RUNGS = ["random", "greedy", "m2", "sf1", "sf2", "sf3"]


def test_climb_alternates_colours_and_stops_after_two_zero_rungs() -> None:
    games = full_schedule_if(RUNGS, ["standard"], 2, [1, 1, 1, 0.5, 0, 0, 0, 0], [])
    assert [(g.rung, g.colour) for g in games] == [
        ("random", "white"),
        ("random", "black"),
        ("greedy", "white"),
        ("greedy", "black"),
        ("m2", "white"),
        ("m2", "black"),
        ("sf1", "white"),
        ("sf1", "black"),
    ]


def test_a_point_resets_the_zero_count_and_the_top_ends_the_climb() -> None:
    games = full_schedule_if(RUNGS, ["standard"], 1, [0, 1, 0, 1, 0, 1], [])
    assert [g.rung for g in games] == RUNGS


def test_chess960_pairs_share_fixed_starts_in_order() -> None:
    games = full_schedule_if(RUNGS, ["standard", "chess960"], 2, [1] * 24, [11, 22, 33])
    starts = [g.start for g in games if g.variant == "chess960"]
    assert starts[:8] == [11, 11, 22, 22, 33, 33, 11, 11]
    assert all(g.start is None for g in games if g.variant == "standard")


@pytest.mark.parametrize("variant", ["standard", "chess960"])
@pytest.mark.parametrize("per_rung", [1, 2, 3])
def test_colours_alternate_over_the_whole_climb(variant: str, per_rung: int) -> None:
    games = full_schedule_if(RUNGS, [variant], per_rung, [1] * 99, [11, 22, 33, 44, 55, 66, 77])
    assert len(games) == len(RUNGS) * per_rung
    assert [g.colour for g in games] == ["white", "black"] * (len(games) // 2) + (
        ["white"] if len(games) % 2 else []
    )
    if per_rung == 1:  # rung by rung: white against one rung, black against the next
        assert [(g.rung, g.colour) for g in games[:3]] == [
            ("random", "white"),
            ("greedy", "black"),
            ("m2", "white"),
        ]


@pytest.mark.parametrize("per_rung", [1, 2, 3])
def test_each_chess960_start_is_played_once_with_each_colour(per_rung: int) -> None:
    starts = [11, 22, 33, 44, 55, 66, 77, 88, 99]
    games = full_schedule_if(RUNGS, ["chess960"], per_rung, [1] * 99, starts)
    by_start: dict[int | None, list[str]] = {}
    for g in games:
        by_start.setdefault(g.start, []).append(g.colour)
    assert [g.start for g in games][::2] == starts[: (len(games) + 1) // 2]  # in the fixed order
    complete = {s: c for s, c in by_start.items() if len(c) == 2}
    assert all(c == ["white", "black"] for c in complete.values())
    assert len(complete) == len(games) // 2


def test_a_climb_that_stops_mid_pair_leaves_that_start_white_only() -> None:
    # per rung 1: random won, greedy and m2 lost -> three games, the third opens a new pair
    games = full_schedule_if(RUNGS, ["chess960"], 1, [1, 0, 0], [11, 22])
    assert [(g.rung, g.colour, g.start) for g in games] == [
        ("random", "white", 11),
        ("greedy", "black", 11),
        ("m2", "white", 22),
    ]


def test_schedule_is_a_function_of_results() -> None:
    played = [PlayedGame("standard", "random", 1.0)]
    assert next_game(RUNGS, ["standard"], 2, played, []) == next_game(
        RUNGS, ["standard"], 2, list(played), []
    )
    with pytest.raises(ValueError):
        next_game(RUNGS, ["standard"], 0, [], [])


def test_shipped_ladder_is_ordered_and_engine_anchored() -> None:
    ladder = load_ladder()
    names = [r.name for r in ladder.rungs]
    assert names.index("random") < names.index("greedy") < names.index("material-2ply")
    sf = [r for r in ladder.rungs if r.kind == "stockfish"]
    assert sf and all(r.rating == r.uci_elo for r in sf)
    assert "engine-anchored" in ladder.scale and ladder.move_time_s == 0.5


def test_shipped_chess960_starts_are_distinct_valid_indices() -> None:
    starts = chess960_starts()
    assert len(starts) == len(set(starts)) >= 20 and all(0 <= s < 960 and s != 518 for s in starts)


def test_pgn_has_comments_and_flags_adjudication() -> None:
    grades = {0: grade_from_scores(0, "f2f3", chess.engine.Cp(20), chess.engine.Cp(-80), ("e2e4",))}
    text = game_pgn(
        start_fen=chess.Board.from_chess960_pos(5).fen(),
        variant="chess960",
        moves_uci=["f2f3"],
        white="model",
        black="stockfish-1350",
        result="0-1",
        termination="decisive",
        adjudicated=True,
        grades=grades,
    )
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and game.headers["Variant"] == "Chess960"
    assert game.headers["Adjudicated"] == "yes" and game.headers["Result"] == "0-1"
    node = game.next()
    assert node is not None and "inaccuracy" in node.comment and "best e2e4" in node.comment


def test_report_rows_and_table() -> None:
    games = [
        LadderGame(
            "m",
            "standard",
            "random",
            600.0,
            "white",
            1.0,
            requests=40,
            rejected=2,
            answer_ms=[100, 300],
            cost=None,
        ),
        LadderGame("m", "standard", "greedy", 800.0, "black", 0.5, requests=60, rejected=0),
        LadderGame("m", "chess960", "greedy", 800.0, "white", 0.0, adjudicated=True, requests=10),
        LadderGame("other", "standard", "random", 600.0, "white", 1.0),
    ]
    row = model_row("m", games)
    assert row.games == 3 and row.adjudicated == 1
    assert row.illegal_rate == pytest.approx(2 / 110)
    assert row.record == {
        "standard": {"random": [1, 0, 0], "greedy": [0, 1, 0]},
        "chess960": {"greedy": [0, 0, 1]},
    }
    assert row.cost is None and row.fit.rating is not None
    table = markdown_table([row, model_row("other", games)])
    assert "| m |" in table and "n/a" in table and "won every game" in table
    assert row.to_dict()["illegalRate"] == pytest.approx(2 / 110)


def test_saved_results_feed_the_report_with_tokens_cost_and_latency() -> None:
    from evaluation.benchmarks.chess_ladder.ladder import load_ladder
    from evaluation.benchmarks.chess_ladder.runner import _ladder_game

    def saved(costs: list[float | None]) -> dict[str, object]:
        return {
            "rungRating": 1350.0,
            "modelColour": "white",
            "score": 0.5,
            "adjudicated": True,
            "requests": len(costs),
            "rejected": 1,
            "grades": [],
            "calls": [
                {
                    "latencyMs": 10.0 * (i + 1),
                    "promptTokens": 100,
                    "completionTokens": 5,
                    "costUsd": c,
                }
                for i, c in enumerate(costs)
            ],
        }

    ladder = load_ladder()
    priced = _ladder_game(
        "m", ("m", "standard", "stockfish-1350", "game-0"), saved([0.01, 0.02]), ladder, 50_000
    )
    assert priced.cost == pytest.approx(0.03) and priced.input_tokens == 200
    assert priced.output_tokens == 10 and priced.answer_ms == [10.0, 20.0]
    local = _ladder_game(
        "m", ("m", "standard", "stockfish-1350", "game-1"), saved([0.01, None]), ladder, 50_000
    )
    assert local.cost is None  # a call without a price: n/a, never zero
    assert model_row("m", [priced, local]).cost is None
    # a result graded before results recorded the engine: the run's nodes, engine not recorded
    assert (priced.engine, priced.grade_nodes) == (None, 50_000)
    recorded = {**saved([0.0011]), "gradedBy": {"engine": "Stockfish 15.1", "nodes": 2_000}}
    cheap = _ladder_game("m", ("m", "standard", "random", "game-0"), recorded, ladder, 50_000)
    assert (cheap.engine, cheap.grade_nodes) == ("Stockfish 15.1", 2_000)
    table = markdown_table([model_row("m", [cheap])])
    assert "| $0.0011 |" in table  # under a cent, never $0.00
    assert "| 100/5 |" in table
    silent = {**recorded, "calls": [{"latencyMs": 3.0, "costUsd": None}]}  # a local search
    local_search = _ladder_game("m", ("m", "standard", "random", "game-1"), silent, ladder, 1)
    assert local_search.input_tokens is None and local_search.output_tokens is None
    assert "| n/a | n/a |" in markdown_table([model_row("m", [local_search])])  # never 0/0
    assert "- m: Stockfish 15.1 at 2,000 nodes a position (the spec grades at 1,000,000)" in table

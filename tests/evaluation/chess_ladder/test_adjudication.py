"""Adjudication rules: decisive runs, dead-level stretches, the ply cap."""

from __future__ import annotations

import chess.engine
import pytest

from evaluation.benchmarks.chess_ladder.adjudication import (
    LEVEL_FROM_PLY,
    PLY_CAP,
    Adjudicator,
    score_pawns,
)


def test_six_measured_positions_at_ten_pawns_decide() -> None:
    adj = Adjudicator()
    verdicts = [adj.add(ply, 10.0) for ply in range(20, 26)]
    assert verdicts[:5] == [None] * 5
    assert (
        verdicts[5] is not None and verdicts[5].result == "1-0" and verdicts[5].reason == "decisive"
    )


def test_a_break_in_the_run_starts_it_again() -> None:
    adj = Adjudicator()
    for ply, pawns in enumerate([-12, -12, -12, -12, -12, -9.9, -12, -12, -12, -12, -12]):
        assert adj.add(ply, pawns) is None
    verdict = adj.add(11, -15)
    assert verdict is not None and verdict.result == "0-1"


def test_unmeasured_positions_do_not_break_or_extend_a_run() -> None:
    adj = Adjudicator()
    for ply in range(5):
        adj.add(ply, 11)
    assert adj.add(5, None) is None
    assert adj.add(6, 11) is not None


def test_dead_level_only_after_ply_80_for_40_plies() -> None:
    adj = Adjudicator()
    for ply in range(0, LEVEL_FROM_PLY):
        assert adj.add(ply, 0.0) is None
    verdicts = [adj.add(ply, 0.1) for ply in range(LEVEL_FROM_PLY, LEVEL_FROM_PLY + 40)]
    assert verdicts[-1] is not None and verdicts[-1].reason == "dead_level"
    assert all(v is None for v in verdicts[:-1])


def test_ply_cap_is_a_draw() -> None:
    verdict = Adjudicator().add(PLY_CAP, 3.0)
    assert verdict is not None and verdict.result == "1/2-1/2" and verdict.reason == "ply_cap"


@pytest.mark.parametrize(
    ("score", "pawns"),
    [
        (chess.engine.PovScore(chess.engine.Cp(250), chess.WHITE), 2.5),
        (chess.engine.PovScore(chess.engine.Cp(250), chess.BLACK), -2.5),
        (chess.engine.PovScore(chess.engine.Mate(3), chess.BLACK), -100.0),
    ],
)
def test_scores_are_pawns_from_whites_side(score: chess.engine.PovScore, pawns: float) -> None:
    assert score_pawns(score) == pawns

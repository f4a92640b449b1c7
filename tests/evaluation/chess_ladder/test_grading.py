"""Lichess formulas on hand-computed values; a known blunder graded as one by real Stockfish."""

from __future__ import annotations

from collections.abc import Iterator

import chess
import chess.engine
import pytest

from evaluation.benchmarks.chess_ladder.grading import (
    Grader,
    grade_from_scores,
    is_open,
    judgement,
    move_accuracy,
    score_win_percent,
    summarise,
    win_percent,
)
from tests.engines.stockfish import stockfish_or_skip


@pytest.mark.parametrize(
    ("cp", "expected"),
    [
        (0, 50.0),
        # 50 + 50 * (2 / (1 + e^-0.368208) - 1) = 50 + 50 * (2 / 1.691980 - 1)
        (100, 59.10259),
        # 50 + 50 * (2 / (1 + e^1.104624) - 1) = 50 + 50 * (2 / 4.018058 - 1)
        (-300, 24.88745),
        (1000, win_percent(5000)),  # centipawns capped at 1000
    ],
)
def test_win_percent_matches_hand_computed_values(cp: int, expected: float) -> None:
    assert win_percent(cp) == pytest.approx(expected, abs=1e-4)


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [
        (50.0, 50.0, 99.9999),  # 103.1668 - 3.1669
        (60.0, 40.0, 40.02043),  # 103.1668 * e^(-0.04354 * 20) - 3.1669
        (40.0, 60.0, 99.9999),  # a gain costs nothing
        (100.0, 0.0, 0.0),  # clipped at 0
    ],
)
def test_accuracy_matches_hand_computed_values(
    before: float, after: float, expected: float
) -> None:
    assert move_accuracy(before, after) == pytest.approx(expected, abs=1e-4)


@pytest.mark.parametrize(
    ("loss", "kind"),
    [(4.99, None), (5.0, "inaccuracy"), (9.99, "inaccuracy"), (10.0, "mistake"), (15.0, "blunder")],
)
def test_judgement_thresholds_are_lichess(loss: float, kind: str | None) -> None:
    assert judgement(loss) == kind


def test_open_means_within_40_points_of_even() -> None:
    assert is_open(50) and is_open(89.9) and is_open(10.1)
    assert not is_open(90) and not is_open(10) and not is_open(100)


def test_mates_are_certain() -> None:
    assert score_win_percent(chess.engine.Mate(2)) == 100.0
    assert score_win_percent(chess.engine.Mate(-1)) == 0.0
    assert score_win_percent(chess.engine.MateGiven) == 100.0


def test_accuracy_only_while_open_and_summary_counts_per_100() -> None:
    # win% 96.49 -> 86.30: a mistake, in a game no longer open
    won = grade_from_scores(10, "a1a2", chess.engine.Cp(900), chess.engine.Cp(500), ("a1a8",))
    assert won.accuracy is None and won.judgement == "mistake"
    even = grade_from_scores(11, "e2e4", chess.engine.Cp(0), chess.engine.Cp(-300))
    assert even.accuracy is not None and even.judgement == "blunder"
    summary = summarise([won, even])
    assert summary.moves == 2 and summary.open_moves == 1
    assert summary.blunders_per_100 == 50.0 and summary.mistakes_per_100 == 50.0
    assert summarise([]).accuracy is None


def test_best_move_and_top_three_shares_count_moves_with_an_engine_line() -> None:
    cp = chess.engine.Cp(0)
    best = grade_from_scores(0, "e2e4", cp, cp, ("e2e4", "d2d4", "g1f3"))
    third = grade_from_scores(2, "g1f3", cp, cp, ("e2e4", "d2d4", "g1f3"))
    other = grade_from_scores(4, "a2a3", cp, cp, ("e2e4", "d2d4", "g1f3"))
    unranked = grade_from_scores(6, "h2h3", cp, cp)  # no engine line: left out of both shares
    summary = summarise([best, third, other, unranked])
    assert summary.best_move == pytest.approx(100 / 3)
    assert summary.top3 == pytest.approx(200 / 3)
    assert summary.to_dict()["bestMovePercent"] == summary.best_move
    assert summarise([unranked]).best_move is None and summarise([]).top3 is None


@pytest.fixture(scope="module")
def grader() -> Iterator[Grader]:
    stockfish_or_skip()
    g = Grader(nodes=20_000)
    yield g
    g.close()


def _scholars_setup() -> chess.Board:
    board = chess.Board()
    for san in ("e4", "e5", "Qh5", "Nc6", "Bc4"):
        board.push_san(san)
    return board


def test_a_known_blunder_is_graded_a_blunder(grader: Grader) -> None:
    board = _scholars_setup()
    grade = grader.grade_move(board, board.parse_san("Nf6"))  # allows Qxf7#
    assert grade.judgement == "blunder" and grade.win_after == 0.0
    assert grade.best in grade.top and len(grade.top) == 3 and "g8f6" not in grade.top
    assert board.fen() == _scholars_setup().fen()  # the board is left as it was


def test_a_sound_defence_is_not_judged(grader: Grader) -> None:
    board = _scholars_setup()
    grade = grader.grade_move(board, board.parse_san("g6"))
    assert grade.judgement is None and grade.accuracy is not None and grade.accuracy > 80


def test_grade_game_grades_one_colour_and_mate_given_is_perfect(grader: Grader) -> None:
    moves = [
        chess.Move.from_uci(u) for u in ("e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7")
    ]
    grades = grader.grade_game(chess.Board(), moves, chess.WHITE)
    assert [g.ply for g in grades] == [0, 2, 4, 6]
    assert grades[-1].win_after == 100.0 and grades[-1].judgement is None


def test_the_grader_names_its_engine_version_and_nodes(grader: Grader) -> None:
    identity = grader.identity()
    assert identity["nodes"] == 20_000
    assert str(identity["engine"]).startswith("Stockfish ")


def test_grade_nodes_must_be_positive() -> None:
    with pytest.raises(ValueError, match="grade-nodes"):
        Grader(nodes=0)

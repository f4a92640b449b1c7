"""The ladder's question and the check of answers: tags, SAN, UCI, feedback."""

from __future__ import annotations

import chess
import pytest
from hypothesis import given
from hypothesis import strategies as st

from arcade_gym.chess.contract import (
    ChessAnswer,
    ChessQuestion,
    check_answer,
    extract_move_text,
    make_question,
)


def _question(
    *sans: str, variant: str = "standard", board: chess.Board | None = None
) -> ChessQuestion:
    board = board or chess.Board()
    for san in sans:
        board.push_san(san)
    return make_question(board, variant)  # type: ignore[arg-type]


def test_question_holds_what_the_seed_lists_and_no_legal_moves() -> None:
    q = _question("e4", "e5", "Nf3")
    wire = q.to_dict()
    assert wire["colour"] == "black" and wire["variant"] == "standard"
    assert wire["movesSan"] == ["e4", "e5", "Nf3"] and wire["movesUci"] == ["e2e4", "e7e5", "g1f3"]
    assert wire["startFen"] == chess.STARTING_FEN
    assert wire["fen"] == "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    assert "a b c d e f g h" in wire["board"]
    assert not any("legal" in key.lower() for key in wire)
    assert ChessQuestion.model_validate_json(q.to_json()) == q


@pytest.mark.parametrize(
    "answer",
    [
        "<move>Nc6</move>",
        "<move>b8c6</move>",
        "I think... <move>Nf6</move> no: <move>Nc6</move>",
        "<MOVE> B8C6 </MOVE>",
        ChessAnswer(move="Nc6"),
        {"move": "b8c6"},
        "<move>Nc6!</move>",
    ],
)
def test_legal_answers_in_san_or_uci(answer: object) -> None:
    check = check_answer(_question("e4", "e5", "Nf3"), answer)
    assert check.legal and check.uci == "b8c6" and check.san == "Nc6"


@pytest.mark.parametrize(
    ("answer", "error"),
    [
        ("Nc6", "unreadable"),
        ("no tag here", "unreadable"),
        ("<move></move>", "unreadable"),
        (None, "unreadable"),
        (42, "unreadable"),
        ("<move>Ke2</move>", "illegal"),
        ("<move>e2e4</move>", "illegal"),
        ("<move>" + "x" * 500 + "</move>", "illegal"),
        (ChessAnswer(move="Qh5"), "illegal"),
    ],
)
def test_rejected_answers_get_one_line_of_feedback(answer: object, error: str) -> None:
    check = check_answer(_question("e4", "e5", "Nf3"), answer)
    assert not check.legal and check.error == error
    assert check.feedback and "\n" not in check.feedback and len(check.feedback) < 200


def test_chess960_castling_as_san_or_king_takes_rook() -> None:
    board = chess.Board("r3k2r/8/8/8/8/8/8/1R2K1R1 w GB - 0 1", chess960=True)
    q = make_question(board, "chess960")
    assert check_answer(q, "<move>O-O</move>").uci == "e1g1"
    assert check_answer(q, "<move>0-0-0</move>").uci == "e1b1"
    assert check_answer(q, "<move>e1b1</move>").san == "O-O-O"


def test_board_now_replays_the_game() -> None:
    q = _question("e4", "e5", "Ke2", "Ke7", "Ke1", "Ke8")
    assert q.board_now().fen() == chess.Board(q.fen).fen()
    assert len(q.board_now().move_stack) == 6


@given(st.text(max_size=200))
def test_extracting_a_move_never_raises(text: str) -> None:
    result = extract_move_text(text)
    assert result is None or isinstance(result, str)
    check_answer(_question(), text)

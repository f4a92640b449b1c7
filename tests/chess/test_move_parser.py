"""The one move parser: UCI or SAN, only ever a move of `board.legal_moves` (never a null move,
never a drop), in standard chess and Chess960 (issue 20, hole 2)."""

from __future__ import annotations

import random

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_gym.chess.contract import (
    ChessAnswer,
    check_answer,
    legal_move,
    legal_uci,
    make_question,
    parse_move,
)
from arcade_gym.chess.positions import start_board

NULLS_AND_DROPS = ["0000", "--", "Z0", "@@@@", "Q@e4", "P@e4", "N@f3", "q@e4", "Z0+", "--!"]


def _positions() -> list[tuple[str, chess.Board]]:
    """Standard and Chess960 positions, at the start and in the middle of a game."""
    boards = [("standard", chess.Board()), ("chess960", start_board("chess960", 0))]
    rng = random.Random(7)
    for variant, start in (("standard", None), ("chess960", 518), ("chess960", 311)):
        board = start_board(variant, start)
        for _ in range(12):
            board.push(rng.choice(list(board.legal_moves)))
        boards.append((variant, board))
    return boards


@pytest.mark.parametrize("text", NULLS_AND_DROPS)
@pytest.mark.parametrize(("variant", "board"), _positions())
def test_null_moves_and_drops_are_illegal_in_every_variant(
    text: str, variant: str, board: chess.Board
) -> None:
    assert parse_move(board, text) is None
    question = make_question(board, variant)  # type: ignore[arg-type]
    for answer in (f"<move>{text}</move>", ChessAnswer(move=text), {"move": text}):
        check = check_answer(question, answer, board)
        assert not check.legal and check.error == "illegal" and check.uci is None


def test_a_null_move_is_not_legal_even_as_a_move_object() -> None:
    board = chess.Board()
    assert legal_move(board, chess.Move.null()) is None
    assert legal_move(board, chess.Move.from_uci("Q@e4")) is None
    assert legal_move(board, chess.Move.from_uci("e2e4")) == chess.Move.from_uci("e2e4")


def test_castling_comes_back_in_the_generated_form() -> None:
    board = chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    for text in ("e1h1", "e1g1", "O-O", "0-0"):
        assert parse_move(board, text) == chess.Move.from_uci("e1g1")
    assert parse_move(board, "e1a1") == chess.Move.from_uci("e1c1")
    chess960 = chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", chess960=True)
    assert parse_move(chess960, "O-O") == chess.Move.from_uci("e1h1")
    assert parse_move(chess960, "e1g1") is None  # not castling in Chess960 UCI


@pytest.mark.parametrize("uci", ["0000", "Q@e4", "e1h1", "E2E4", "e2e5", "", "x" * 70, None, 3])
def test_recorded_uci_must_be_a_legal_move_as_written(uci: object) -> None:
    board = chess.Board("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1")
    with pytest.raises(ValueError, match="not a legal UCI move"):
        legal_uci(board, uci)
    assert legal_uci(board, "e1g1") == chess.Move.from_uci("e1g1")


def test_a_question_whose_moves_hold_a_null_move_does_not_rebuild() -> None:
    question = make_question(chess.Board(), "standard")
    forged = question.model_copy(update={"moves_uci": ("e2e4", "0000")})
    with pytest.raises(ValueError, match="0000"):
        forged.board_now()


def _board(variant: str, start: int, plies: list[int]) -> chess.Board:
    board = start_board(variant, start if variant == "chess960" else None)
    for pick in plies:
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(moves[pick % len(moves)])
    return board


SQUARES = st.sampled_from(chess.SQUARE_NAMES)
TEXTS = st.one_of(
    st.text(max_size=12),
    st.sampled_from([*NULLS_AND_DROPS, "O-O", "O-O-O", "0-0", "0-0-0", "O-O+", "Kxh1", "e8=Q"]),
    st.builds(lambda a, b, p: a + b + p, SQUARES, SQUARES, st.sampled_from(["", "q", "n", "k"])),
    st.builds(lambda p, s: p + "@" + s, st.sampled_from("PNBRQKpnbrqk"), SQUARES),
    st.builds(lambda p, s: p + s, st.sampled_from(["", "N", "B", "R", "Q", "K", "x"]), SQUARES),
)


@settings(max_examples=400, deadline=None)
@given(
    variant=st.sampled_from(["standard", "chess960"]),
    start=st.integers(0, 959),
    plies=st.lists(st.integers(0, 10_000), max_size=40),
    text=TEXTS,
)
def test_whatever_the_text_the_result_is_none_or_a_generated_legal_move(
    variant: str, start: int, plies: list[int], text: str
) -> None:
    board = _board(variant, start, plies)
    move = parse_move(board, text)
    assert move is None or (bool(move) and move.drop is None and move in list(board.legal_moves))
    check = check_answer(make_question(board, variant), ChessAnswer(move=text), board)  # type: ignore[arg-type]
    assert check.legal == (move is not None)
    if move is not None:
        assert check.uci == move.uci() and legal_uci(board, check.uci) == move

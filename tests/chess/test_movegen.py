"""The numba move generator against python-chess: same legal moves, same check status."""

from __future__ import annotations

import random

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_gym.chess.encoding import moves_to_actions
from arcade_gym.chess.game import ChessGame


def _assert_same(game: ChessGame) -> None:
    board = game.board
    reference = list(board.legal_moves)
    assert sorted(game.actions) == sorted(moves_to_actions(reference, board.turn)), board.fen()
    assert set(game.moves) == set(reference), board.fen()


def _walk(game: ChessGame, rng: random.Random, plies: int) -> int:
    checked = 0
    for _ in range(plies):
        if game.over:
            break
        _assert_same(game)
        checked += 1
        game.play(rng.choice(game.moves))
    return checked


def test_random_standard_games_match_python_chess() -> None:
    rng = random.Random(11)
    assert sum(_walk(ChessGame(), rng, 300) for _ in range(40)) > 2000


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 959), st.integers(0, 2**32))
def test_random_chess960_games_match_python_chess(index: int, seed: int) -> None:
    _walk(ChessGame("chess960", index), random.Random(seed), 200)


@pytest.mark.parametrize(
    ("variant", "fen"),
    [
        # en passant that would expose the king along the rank is illegal
        ("standard", "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1"),
        # en passant that answers a check by the double-pushed pawn
        ("standard", "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1"),
        # promotions with and without capture, all four pieces
        ("standard", "1r5k/P7/8/8/8/8/8/K7 w - - 0 1"),
        # castling through an attacked square is refused, the other side allowed
        ("standard", "r3k2r/8/8/8/8/8/5q2/R3K2R w KQkq - 0 1"),
        # pinned pieces, double check
        ("standard", "4k3/8/8/8/1b6/8/3N4/4K2r w - - 0 1"),
        # Chess960: king and rook next to each other, castling both ways
        ("chess960", "1rk3r1/8/8/8/8/8/8/1RK3R1 w GBgb - 0 1"),
        # Chess960: the castling rook shields the king's path
        ("chess960", "2r1k3/8/8/8/8/8/8/1RK2R2 w FB - 0 1"),
    ],
)
def test_tricky_positions_match_python_chess(variant: str, fen: str) -> None:
    _assert_same(ChessGame(variant, fen))


def test_checkmate_and_stalemate_come_from_the_kernel() -> None:
    mated = ChessGame(start="rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    assert mated.termination == "checkmate" and mated.result == "0-1" and mated.actions == []
    stalemate = ChessGame(start="7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert stalemate.termination == "stalemate" and not stalemate.mask().any()


def test_is_legal_checks_the_promotion_piece() -> None:
    game = ChessGame(start="1r5k/P7/8/8/8/8/8/K7 w - - 0 1")
    assert game.is_legal(chess.Move.from_uci("a7b8n"))
    assert not game.is_legal(chess.Move.from_uci("a7a8"))  # a pawn must promote
    assert not game.is_legal(chess.Move.from_uci("a1a3"))

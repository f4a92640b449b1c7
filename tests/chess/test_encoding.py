"""The move index space is exactly PettingZoo chess_v6's, in both directions."""

from __future__ import annotations

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.classic.chess import chess_utils

from arcade_gym.chess.encoding import action_to_move, move_to_action, moves_to_actions
from arcade_gym.chess.rules import ACTION_SIZE
from tests.chess.conftest import random_games


def test_legal_actions_equal_pettingzoo_along_random_games() -> None:
    for board in random_games(25, seed=1):
        ours = moves_to_actions(board.legal_moves, board.turn)
        assert sorted(ours) == sorted(chess_utils.legal_moves(board))


def test_decoding_inverts_encoding_and_matches_pettingzoo() -> None:
    for board in random_games(10, seed=2):
        player = 0 if board.turn else 1
        chess_utils.legal_moves(board)  # PettingZoo fills its decoding table lazily
        for move in board.legal_moves:
            action = move_to_action(move, board.turn)
            assert action_to_move(board, action) == move
            assert chess_utils.action_to_move(board, action, player) == move


def test_underpromotions_have_their_own_planes_and_queen_is_the_default() -> None:
    board = chess.Board("8/P6k/8/8/8/8/6pK/8 w - - 0 1")
    actions = {m.uci(): move_to_action(m, board.turn) for m in board.legal_moves}
    assert {a % 73 for u, a in actions.items() if u.startswith("a7a8") and u[-1] in "nbr"} == {
        67,
        68,
        69,
    }
    queen = actions["a7a8q"]
    assert queen % 73 < 56  # a queen-move plane
    assert action_to_move(board, queen) == chess.Move.from_uci("a7a8q")


def test_black_uses_mirrored_indices() -> None:
    white, black = chess.Board(), chess.Board()
    black.push_san("e4")
    assert move_to_action(chess.Move.from_uci("e2e4"), chess.WHITE) == move_to_action(
        chess.Move.from_uci("e7e5"), chess.BLACK
    )
    assert white.turn and not black.turn


def test_chess960_castling_is_king_takes_rook_and_unique() -> None:
    board = chess.Board("r3k2r/8/8/8/8/8/8/1R2K1R1 w GB - 0 1", chess960=True)
    moves = list(board.legal_moves)
    castles = [m for m in moves if board.is_castling(m)]
    assert {m.uci() for m in castles} == {"e1g1", "e1b1"}
    actions = moves_to_actions(moves, board.turn)
    assert len(set(actions)) == len(actions)
    for move, action in zip(moves, actions, strict=True):
        assert action_to_move(board, action) == move


@pytest.mark.parametrize("action", [-1, ACTION_SIZE])
def test_out_of_range_actions_raise(action: int) -> None:
    with pytest.raises(ValueError, match="out of range"):
        action_to_move(chess.Board(), action)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 959), st.integers(0, 2**32), st.integers(0, 40))
def test_chess960_actions_are_distinct_and_decode_back(index: int, seed: int, plies: int) -> None:
    import random

    rng = random.Random(seed)
    board = chess.Board.from_chess960_pos(index)
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    moves = list(board.legal_moves)
    actions = moves_to_actions(moves, board.turn)
    assert len(set(actions)) == len(actions)
    assert all(0 <= a < ACTION_SIZE for a in actions)
    for move, action in zip(moves, actions, strict=True):
        assert action_to_move(board, action) == move

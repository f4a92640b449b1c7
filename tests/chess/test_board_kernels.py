"""The batched env's numba chess against python-chess: the legal moves in python-chess's order,
push, check, legal en passant, insufficient material, captures' values, the observation's
castling bits, FEN strings, and numpy's PCG64 draws."""

from __future__ import annotations

import random

import chess
import numpy as np
import pytest

from arcade_gym.chess import board_kernels as K
from arcade_gym.chess import position_kernels as P
from arcade_gym.chess.fen_kernel import FEN_BYTES, uci_names, write_fens
from arcade_gym.chess.game import ChessGame
from arcade_gym.chess.opponents import captured_value, material
from arcade_gym.chess.rule_rng import integers, stream_words
from arcade_gym.chess.vector import _words
from arcade_gym.chess.vector_kernels import S_FULL, S_HALF, S_LEGAL_EP, ST

TRICKY = [
    ("standard", "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1"),  # en passant exposing the king
    ("standard", "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1"),  # en passant answering the check
    ("standard", "1r5k/P7/8/8/8/8/8/K7 w - - 0 1"),  # promotions, all four pieces
    ("standard", "r3k2r/8/8/8/8/8/5q2/R3K2R w KQkq - 0 1"),  # castling through attack
    ("standard", "4k3/8/8/8/1b6/8/3N4/4K2r w - - 0 1"),  # pin, check
    ("standard", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"),
    ("chess960", "1rk3r1/8/8/8/8/8/8/1RK3R1 w GBgb - 0 1"),
    ("chess960", "2r1k3/8/8/8/8/8/8/1RK2R2 w FB - 0 1"),
    ("chess960", "rk2r3/8/8/8/8/8/8/RK2R3 w EAea - 0 1"),
]


def _move(packed: int) -> chess.Move:
    return chess.Move(packed & 63, (packed >> 6) & 63, ((packed >> 12) & 7) or None)


def _fen_of(board: chess.Board) -> str:
    st = np.zeros((1, ST), np.int64)
    st[0, S_HALF], st[0, S_FULL] = board.halfmove_clock, board.fullmove_number
    st[0, S_LEGAL_EP] = board.has_legal_en_passant()
    out = np.zeros((1, FEN_BYTES), np.uint8)
    write_fens(_words(board)[None, :], st, out)
    return bytes(out[0]).rstrip(b"\0").decode()


def _check_position(board: chess.Board, out: np.ndarray) -> list[int]:
    pos = _words(board)
    n, check, en_passant = K.ordered_moves(pos, out)
    reference = list(board.generate_legal_moves())
    assert [_move(int(m)) for m in out[:n]] == reference, board.fen()
    assert [uci_names()[int(m) & 0x7FFF] for m in out[:n]] == [m.uci() for m in reference]
    assert check == board.is_check() == K.in_check(pos)
    assert en_passant == board.has_legal_en_passant()
    assert P.insufficient_material(pos) == board.is_insufficient_material()
    assert P.material(pos, True) == material(board, chess.WHITE)
    assert _fen_of(board) == board.fen(), board.fen()
    game = ChessGame("chess960" if board.chess960 else "standard", board.fen())
    for player in (0, 1):
        assert P.observation_castling(pos, player) == game._castling(player)
    for k, move in enumerate(reference):
        assert P.captured_value(pos, int(out[k])) == captured_value(board, move)
        after = pos.copy()
        assert K.push(after, int(out[k])) == board.is_zeroing(move)
        board.push(move)
        np.testing.assert_array_equal(after, _words(board), board.fen())
        board.pop()
    return [int(m) for m in out[:n]]


@pytest.mark.parametrize(("variant", "fen"), TRICKY)
def test_tricky_positions_list_push_and_name_moves_as_python_chess(variant: str, fen: str) -> None:
    _check_position(chess.Board(fen, chess960=variant == "chess960"), np.zeros(256, np.int32))


@pytest.mark.parametrize("chess960", [False, True])
def test_random_games_agree_with_python_chess_at_every_ply(chess960: bool) -> None:
    rng = random.Random(7 + chess960)
    out = np.zeros(256, np.int32)
    checked = 0
    for _ in range(12):
        board = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
        for _ in range(160):
            moves = _check_position(board, out)
            checked += 1
            if not moves or board.is_insufficient_material():
                break
            board.push(_move(rng.choice(moves)))
    assert checked > 1000


def test_kernel_draws_are_numpys_generator_integers() -> None:
    for seed in (0, 3, 2**64 - 1):
        words = stream_words(seed)
        generator = np.random.Generator(np.random.PCG64(seed))
        bounds = np.random.default_rng(seed % 97).integers(1, 300, 2000)
        drawn = [integers(words, int(b)) for b in bounds]
        assert drawn == [int(generator.integers(int(b))) for b in bounds]

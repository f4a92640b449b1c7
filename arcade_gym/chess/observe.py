"""The observation and action mask of `Chess-v0`, rebuilt from a ladder `ChessQuestion`.

The question names the start position and every move since, so the game is replayed move by
move: the observation's last 8 boards and its repetition planes need the history, not only the
current FEN. In the ladder the agent is the side to move, so the planes are that side's view
(`tests/policies/test_sb3_every_game.py` pins the equality with the env on played games).
"""

from __future__ import annotations

import chess
import numpy as np

from arcade_gym.chess.contract import ChessQuestion, legal_uci
from arcade_gym.chess.game import ChessGame


def game_from_question(question: ChessQuestion) -> ChessGame:
    """The game the question describes: its start position and every move played since (a
    ValueError when a move is not legal)."""
    game = ChessGame(question.variant, question.start_fen)
    for uci in question.moves_uci:
        game.play(legal_uci(game.board, uci))
    return game


def chess_observation(question: ChessQuestion) -> tuple[np.ndarray, np.ndarray]:
    """(the bool (8, 8, 111) planes of the side to move, the int8 (4672,) mask of its moves)."""
    game = game_from_question(question)
    return game.observation(0 if game.board.turn == chess.WHITE else 1), game.mask()

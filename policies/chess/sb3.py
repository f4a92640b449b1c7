"""SB3 models on chess (`Chess-v0`, the chess ladder), as a `GameAdapter`
(`policies/sb3/adapter.py`).

A model trained on `Chess-v0` (or on the `chess_v0` AEC env: the same planes and actions) sees the
position the ladder asks about as the side to move sees it, and its move index is answered in UCI.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
from gymnasium import spaces

from policies.sb3.adapter import GameAdapter, Observed


def _chess_observe(question: Any) -> Observed:
    from arcade_gym.chess.observe import chess_observation

    return chess_observation(question)


@lru_cache(maxsize=1)
def _chess_space() -> spaces.Space[Any]:
    from arcade_gym.chess.rules import OBS_PLANES

    return spaces.Box(0, 1, (8, 8, OBS_PLANES), np.bool_)


def _chess_answer(action: int, question: Any, scores: np.ndarray) -> Any:
    """The move with index `action` in UCI, as the position's board writes it (Chess960
    castling as king takes rook); an index of no legal move is answered as the move it
    encodes, for the ladder to judge."""
    from arcade_gym.chess.contract import ChessAnswer
    from arcade_gym.chess.encoding import action_to_move
    from arcade_gym.chess.observe import game_from_question

    game = game_from_question(question)
    board, move = game.board, game.move_of(action)
    return ChessAnswer(move=board.uci(move if move is not None else action_to_move(board, action)))


ADAPTER = GameAdapter(
    "chess",
    "arcade_gym/Chess-v0",
    _chess_observe,
    lambda q: _chess_space(),
    _chess_answer,
)
"""Chess ladder questions (standard and Chess960): one move for the side to move."""

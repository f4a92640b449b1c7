"""The observations of `Tetris-v3` and `TetrisPrimitive-v3`, rebuilt from a benchmark question.

A model trained on the env must see, when the benchmark asks it a question, exactly the arrays the
env would have shown in that state (`arcade_gym/tetris/env.py`): `tests/policies/test_sb3.py` pins
the equality on recorded games. The basic values are read off the question; the two extended
columns (landingHeight, erodedCells) come from the engine's `fill_landing_columns` on the position
the question describes, the same code the env runs.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from arcade_gym.core.args import check_choice
from arcade_gym.tetris.contract import AgentInput
from arcade_gym.tetris.primitive_contract import TetrisControlQuestion
from arcade_gym.tetris.rules import (
    BOARD_HEIGHT,
    BOARD_WIDTH,
    HOLD_ACTION,
    MIN_X,
    N_ACTIONS,
    PIECE_LETTERS,
    PLACEMENT_FEATURE_NAMES,
    PLACEMENT_FEATURE_SETS,
    PLACEMENT_XS,
)

EMPTY_HOLD = 7
"""The `hold` value of an empty hold slot."""


def placement_action(x: int, rotation: int) -> int:
    """The `Tetris-v3` action index of placement `(x, rotation)`."""
    return rotation * PLACEMENT_XS + x - MIN_X


def placement_mask(question: AgentInput) -> np.ndarray:
    """int8 (45,): the listed placements, and hold when the question allows it."""
    mask = np.zeros(N_ACTIONS, np.int8)
    for candidate in question.candidates:
        mask[placement_action(candidate.placement.x, candidate.placement.rotation)] = 1
    if question.can_hold:
        mask[HOLD_ACTION] = 1
    return mask


def placements_observation(
    question: AgentInput, placement_features: str = "basic"
) -> dict[str, Any]:
    """`Tetris-v3`'s dict observation of the state `question` describes, with the env's
    `placement_features` option."""
    check_choice("placement_features", placement_features, PLACEMENT_FEATURE_SETS)
    placements = np.zeros((N_ACTIONS, len(PLACEMENT_FEATURE_SETS[placement_features])), np.float32)
    for c in question.candidates:
        f = c.features
        placements[placement_action(c.placement.x, c.placement.rotation)] = (
            c.lines_cleared,
            c.score_delta,
            int(c.top_out),
            f.max_height,
            f.aggregate_height,
            f.holes,
            f.bumpiness,
            f.wells,
            f.row_transitions,
            f.col_transitions,
            *(0, 0)[: placements.shape[1] - len(PLACEMENT_FEATURE_NAMES)],
        )
    if placement_features == "extended" and question.candidates:
        _landing_columns(question, placements)
    return {
        "board": np.array([[cell is not None for cell in row] for row in question.grid], np.uint8),
        "active": PIECE_LETTERS.index(question.active.type),
        "hold": EMPTY_HOLD if question.hold is None else PIECE_LETTERS.index(question.hold),
        "next": np.array([PIECE_LETTERS.index(p) for p in question.next], np.int64),
        "state": np.array(
            [question.level, question.combo, int(question.back_to_back), int(question.can_hold)],
            np.float32,
        ),
        "placements": placements,
    }


def _landing_columns(question: AgentInput, placements: np.ndarray) -> None:
    """landingHeight and erodedCells of every listed candidate, as the env computes them."""
    from arcade_gym.tetris import candidates as C
    from arcade_gym.tetris.game import TetrisGame

    game = TetrisGame.from_question(question)
    C.fill_landing_columns(game.board, game.st, game.cinfo, placements)


def controls_observation(question: TetrisControlQuestion) -> dict[str, Any]:
    """`TetrisPrimitive-v3`'s dict observation: the stack as 1, the falling piece as 2."""
    board = np.array([[ch != "." for ch in row] for row in question.board], np.uint8)
    if board.shape != (BOARD_HEIGHT, BOARD_WIDTH):
        raise ValueError(f"a Tetris board is {BOARD_HEIGHT}x{BOARD_WIDTH}, got {board.shape}")
    for cell in question.piece.cells:
        if 0 <= cell.row < BOARD_HEIGHT and 0 <= cell.col < BOARD_WIDTH:
            board[cell.row, cell.col] = 2
    piece = question.piece
    return {
        "board": board,
        "piece": np.array(
            [PIECE_LETTERS.index(piece.type), piece.x, piece.y, piece.rotation], np.int64
        ),
        "next": np.array([PIECE_LETTERS.index(p) for p in question.next], np.int64),
    }

"""Start positions: the standard array, Chess960 by index (0..959), or any FEN."""

from __future__ import annotations

import chess

from arcade_gym.chess.rules import CHESS960_POSITIONS, VARIANTS
from arcade_gym.core.seeding import seed_to_u64, splitmix64_py

STANDARD_FEN = chess.STARTING_FEN
STANDARD_CHESS960_INDEX = 518


def check_variant(variant: str) -> str:
    """`variant` if it is one of `VARIANTS`, else a ValueError naming them."""
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {list(VARIANTS)}, got {variant!r}")
    return variant


def start_board(variant: str = "standard", start: int | str | None = None) -> chess.Board:
    """A fresh board: `start` is a Chess960 index (0..959), a FEN, or None (the standard array;
    for Chess960 index 518, which is the standard array with Chess960 castling notation)."""
    check_variant(variant)
    chess960 = variant == "chess960"
    if start is None:
        return chess.Board.from_chess960_pos(STANDARD_CHESS960_INDEX) if chess960 else chess.Board()
    if isinstance(start, bool):
        raise TypeError("start must be a Chess960 index or a FEN string, got a bool")
    if isinstance(start, int):
        if not chess960:
            raise ValueError("a numbered start position needs variant='chess960'")
        if not 0 <= start < CHESS960_POSITIONS:
            raise ValueError(f"Chess960 index must be in [0, {CHESS960_POSITIONS}), got {start}")
        return chess.Board.from_chess960_pos(start)
    if not isinstance(start, str):
        raise TypeError(f"start must be a Chess960 index or a FEN string, got {start!r}")
    try:
        board = chess.Board(start, chess960=chess960)
    except ValueError as exc:
        raise ValueError(f"start is not a valid FEN ({exc}): {start!r}") from None
    status = board.status()
    if status != chess.STATUS_VALID:
        raise ValueError(f"start FEN is not a legal position ({status!r}): {start!r}")
    return board


def chess960_indices(seed: str | int, count: int) -> list[int]:
    """`count` distinct Chess960 indices drawn from a named seed (splitmix64, rejection of
    repeats and of 518, the standard array): the fixed start positions of a benchmark set."""
    if not 0 < count < CHESS960_POSITIONS:
        raise ValueError(f"count must be in [1, {CHESS960_POSITIONS - 1}], got {count}")
    state = seed_to_u64(seed)
    chosen: list[int] = []
    while len(chosen) < count:
        state, draw = splitmix64_py(state)
        index = draw % CHESS960_POSITIONS
        if index != STANDARD_CHESS960_INDEX and index not in chosen:
            chosen.append(index)
    return chosen

"""Shared fixtures of the chess tests: random game positions and a PettingZoo chess_v6 import
that works without pygame (used only by its renderer). Stockfish: `tests/engines/stockfish.py`."""

from __future__ import annotations

import random
import sys
import types
from collections.abc import Iterator

import chess
import pytest


def random_games(n_games: int, seed: int, max_plies: int = 200) -> Iterator[chess.Board]:
    """Boards along `n_games` uniformly random games (each position yielded once)."""
    rng = random.Random(seed)
    for _ in range(n_games):
        board = chess.Board()
        for _ in range(max_plies):
            yield board
            moves = list(board.legal_moves)
            if not moves or board.is_insufficient_material():
                break
            board.push(rng.choice(moves))


@pytest.fixture(scope="session")
def pz_chess() -> types.ModuleType:
    """PettingZoo's `chess_v6` module (pygame stubbed when absent: rendering is not used)."""
    try:
        import pygame  # noqa: F401
    except ImportError:
        sys.modules["pygame"] = types.ModuleType("pygame")
        try:
            from pettingzoo.classic.chess import chess as pz
        finally:  # the stub must not look like pygame to later tests (importorskip)
            del sys.modules["pygame"]
        return pz
    from pettingzoo.classic.chess import chess as pz

    return pz

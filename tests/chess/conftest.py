"""Shared fixtures of the chess tests: random game positions and a PettingZoo chess_v6 import
that works without pygame (used only by its renderer)."""

from __future__ import annotations

import os
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
        sys.modules.setdefault("pygame", types.ModuleType("pygame"))
    from pettingzoo.classic.chess import chess as pz

    return pz


def stockfish_or_skip() -> str:
    """The Stockfish binary, or skip (CI installs Debian's `stockfish`)."""
    from policies.engines.uci import EngineMissingError, find_stockfish

    try:
        return find_stockfish()
    except EngineMissingError as exc:
        pytest.skip(str(exc))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: long test, run with ARCADE_SLOW=1")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """`@pytest.mark.slow` chess tests (a whole ladder run) run only with ARCADE_SLOW=1."""
    if os.environ.get("ARCADE_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow: set ARCADE_SLOW=1 to run")
    for item in items:
        if "slow" in item.keywords and "chess" in str(item.fspath):
            item.add_marker(skip)

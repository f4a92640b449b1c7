"""Stockfish for the tests that need a real engine (chess games, the chess ladder, its pages)."""

from __future__ import annotations

import pytest


def stockfish_or_skip() -> str:
    """The Stockfish binary, or skip (CI installs Debian's `stockfish`)."""
    from policies.engines.uci import EngineMissingError, find_stockfish

    try:
        return find_stockfish()
    except EngineMissingError as exc:
        pytest.skip(str(exc))

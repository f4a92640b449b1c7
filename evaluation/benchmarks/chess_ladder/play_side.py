"""The ladder's other side for a person's game: the rung's moves, and the measurements that
adjudicate (full-strength Stockfish, as in a ladder run). Without Stockfish a weak rung still
plays and positions go unmeasured (recorded as such: the game ends by the rules, or the ply cap);
a Stockfish rung is refused with the install hint `policies/engines/uci.py` gives."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import chess

from evaluation.benchmarks.chess_ladder.episode import LiveSide
from evaluation.benchmarks.chess_ladder.ladder import Rung


class UnjudgedSide(LiveSide):
    """The rung's moves with no judge: every measurement is None."""

    def __init__(self, rung_policy: Any, variant: str) -> None:
        super().__init__(rung_policy, None, variant)

    def measure(self, board: chess.Board, decision: int, which: int) -> float | None:
        return None


def other_side(rung_policy: Any, variant: str) -> tuple[LiveSide, Callable[[], None]]:
    """The side a game is played against, and how to release its judge."""
    from evaluation.benchmarks.chess_ladder.calibrate import stockfish_spec
    from policies.engines.uci import EngineMissingError, UciEngine, find_stockfish, parse_uci_spec

    try:
        find_stockfish()
    except EngineMissingError:
        return UnjudgedSide(rung_policy, variant), lambda: None
    judge = UciEngine(parse_uci_spec(stockfish_spec(None)))
    return LiveSide(rung_policy, judge, variant), judge.close


def needs_stockfish(rung: Rung) -> None:
    """Raise the engine's own EngineMissingError when a Stockfish rung cannot run here."""
    if rung.kind == "stockfish":
        from policies.engines.uci import find_stockfish

        find_stockfish()

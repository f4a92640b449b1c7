"""UCI engines as policies: the spec form, Stockfish lookup, one process per game, no leftovers."""

from __future__ import annotations

import os
import time

import chess
import pytest

from arcade_gym.chess.contract import make_question
from policies.base import DecisionContext
from policies.engines.uci import (
    STOCKFISH_ENV,
    EngineMissingError,
    UciEngine,
    find_stockfish,
    make_uci_policy,
    parse_uci_spec,
)
from tests.engines.stockfish import stockfish_or_skip


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split(") ")[1][0] != "Z"
    except OSError:
        return False


def _gone(pid: int) -> bool:
    for _ in range(50):
        if not _alive(pid):
            return True
        time.sleep(0.05)
    return False


def test_spec_options_and_limits() -> None:
    spec = parse_uci_spec("/bin/engine --flag?UCI_Elo=1500&UCI_LimitStrength=true&nodes=100")
    assert spec.argv == ["/bin/engine", "--flag"]
    assert spec.options == {"UCI_Elo": "1500", "UCI_LimitStrength": "true"}
    assert spec.nodes == 100 and spec.movetime is None
    assert parse_uci_spec("/bin/engine", movetime=0.25).limit().time == 0.25
    assert parse_uci_spec("/bin/engine").limit().time == 0.5


@pytest.mark.parametrize(
    "body", ["", "?UCI_Elo=1", "/bin/e?nodes=-1", "/bin/e?movetime=x", "/bin/e?a"]
)
def test_bad_specs_are_refused(body: str) -> None:
    with pytest.raises(ValueError):
        parse_uci_spec(body)


def test_missing_stockfish_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(STOCKFISH_ENV, "/nonexistent/stockfish")
    with pytest.raises(EngineMissingError, match="apt-get install stockfish"):
        find_stockfish()
    monkeypatch.delenv(STOCKFISH_ENV)
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.setattr("policies.engines.uci.DEBIAN_STOCKFISH", "/nonexistent/stockfish")
    with pytest.raises(EngineMissingError, match="apt-get install stockfish"):
        find_stockfish()


def test_missing_engine_binary_is_a_clear_error() -> None:
    with pytest.raises(EngineMissingError, match="not found"):
        UciEngine(parse_uci_spec("/nonexistent/engine")).start()


def test_stockfish_plays_legal_moves_and_leaves_no_process_behind() -> None:
    stockfish_or_skip()
    policy = make_uci_policy("stockfish?Threads=1&UCI_LimitStrength=true&UCI_Elo=1350", nodes=500)
    assert policy.slug == "uci-stockfish-1350" and policy.kind == "engine"
    board = chess.Board()
    pids = set()
    for _ in range(6):
        answer = policy.act(make_question(board, "standard"), DecisionContext())
        board.push(chess.Move.from_uci(answer.move))
        assert policy.engine.pid is not None
        pids.add(policy.engine.pid)
    assert len(pids) == 1  # one process for the whole game
    first = policy.engine.pid
    assert first is not None and os.getpgid(first) == first  # its own process group
    policy.act(make_question(chess.Board(), "standard"), DecisionContext())  # a new game
    assert policy.engine.pid != first and _gone(first)
    second = policy.engine.pid
    policy.end_game()
    assert second is not None and _gone(second)


def test_engine_options_range_is_read_from_the_binary() -> None:
    stockfish_or_skip()
    with UciEngine(parse_uci_spec("stockfish?Threads=1")) as engine:
        low, high = engine.option_range("UCI_Elo")
        pid = engine.pid
    assert 0 < low < high
    assert pid is not None and _gone(pid)

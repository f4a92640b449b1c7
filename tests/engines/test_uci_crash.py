"""A UCI engine that crashes raises `EngineFailedError` and leaves no process of its tree alive,
not even a helper that started a session of its own (issue 20, hole 2)."""

from __future__ import annotations

import os
from pathlib import Path

import chess
import chess.engine
import pytest

from arcade_gym.chess.contract import make_question
from policies.base import DecisionContext
from policies.engines.uci import EngineFailedError, UciEngine, UciPolicy, parse_uci_spec
from tests.engines.fake_uci import wrapper
from tests.engines.test_process_engine import wait_dead

pytestmark = pytest.mark.skipif(os.name != "posix", reason="process groups and /proc are POSIX")


def _pids(path: Path) -> list[int]:
    return [int(pid) for pid in path.read_text().split()] if path.exists() else []


@pytest.fixture
def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The fake engine's executable; its pids (engine, helper) go to `tmp_path / "pids"`."""
    monkeypatch.setenv("FAKE_UCI_PIDS", str(tmp_path / "pids"))
    return wrapper(tmp_path)


def test_a_crash_mid_analysis_kills_the_whole_tree(
    fake: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_UCI_CRASH_AT", "2")
    engine = UciEngine(parse_uci_spec(f"{fake}?Threads=1&Hash=16"))
    limit = chess.engine.Limit(nodes=100)
    try:
        assert engine.analyse(chess.Board(), limit)[0]["score"].white() == chess.engine.Cp(0)
        with pytest.raises(EngineFailedError, match="fake-engine failed analysing"):
            engine.analyse(chess.Board(), limit)
        assert engine.engine is None  # closed: the next request starts a fresh process
        pids = _pids(tmp_path / "pids")
        assert len(pids) == 2 and wait_dead(pids) == []
    finally:
        engine.close()


def test_closing_a_live_engine_kills_its_detached_helper(
    fake: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_UCI_CRASH_AT", "0")
    with UciEngine(parse_uci_spec(str(fake))) as engine:
        engine.play(chess.Board(), chess.engine.Limit(nodes=10))
        pids = _pids(tmp_path / "pids")
        assert len(pids) == 2 and wait_dead(pids, 0.2) == pids  # both running
    assert wait_dead(pids) == []


def test_an_engine_policy_that_crashes_fails_its_try_and_restarts(
    fake: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_UCI_CRASH_AT", "1")
    policy = UciPolicy(parse_uci_spec(str(fake)), slug="fake")
    question = make_question(chess.Board(), "standard")
    try:
        for _ in range(2):
            with pytest.raises(EngineFailedError, match="choosing a move"):
                policy.act(question, DecisionContext())
    finally:
        policy.close()
    pids = _pids(tmp_path / "pids")
    assert len(pids) == 4 and len(set(pids)) == 4  # a fresh process (and helper) per try
    assert wait_dead(pids) == []


def test_an_engine_answering_a_null_move_answers_0000(
    fake: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The engine's text reaches the game as it came: the ladder's parser rejects it."""
    monkeypatch.setenv("FAKE_UCI_CRASH_AT", "0")
    monkeypatch.setenv("FAKE_UCI_BESTMOVE", "0000")
    policy = UciPolicy(parse_uci_spec(str(fake)), slug="fake")
    try:
        answer = policy.act(make_question(chess.Board(), "standard"), DecisionContext())
    finally:
        policy.close()
    assert answer.move == "0000"


def test_an_engine_that_hangs_in_a_search_without_a_time_limit_is_killed(
    fake: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_UCI_CRASH_AT", "0")
    monkeypatch.setenv("FAKE_UCI_HANG", "1")
    engine = UciEngine(parse_uci_spec(str(fake)), stall_base_s=0.5)
    try:
        with pytest.raises(EngineFailedError, match="no answer within"):
            engine.analyse(chess.Board(), chess.engine.Limit(nodes=2_000))
    finally:
        engine.close()
    pids = _pids(tmp_path / "pids")
    assert len(pids) == 2 and wait_dead(pids) == []

"""Chess ladder games against hostile answers and failing engines (issue 20, hole 2): a policy that
answers null moves forfeits after three rejected tries; a rung or judge engine that crashes ends
only its game (aborted: set aside, not counted, played again on resume) and leaves no process of
its tree alive."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from arcade_gym.chess.contract import ChessAnswer, ChessQuestion
from evaluation.benchmarks.chess_ladder.episode import LiveSide, play_ladder_game
from evaluation.core.episode import GameAbortedError
from evaluation.core.verify import verify_log
from policies.base import DecisionContext, PolicyIdentity
from policies.engines.uci import UciPolicy, parse_uci_spec
from tests.engines.fake_uci import wrapper
from tests.engines.stockfish import stockfish_or_skip
from tests.engines.test_process_engine import wait_dead
from tests.evaluation.chess_ladder.test_protocol import (
    FlatJudge,
    Scripted,
    _events,
    _play,
    _settings,
)

pytestmark = pytest.mark.skipif(os.name != "posix", reason="process groups and /proc are POSIX")

NULLS = ["0000", "--", "Z0", "@@@@", "Q@e4"]


class NullMover(PolicyIdentity):
    """Passes every turn: answers a null move (in turn every spelling of one)."""

    def __init__(self) -> None:
        super().__init__(slug="null-mover", name="null-mover", description="test", kind="baseline")
        self.calls = 0

    def act(self, question: ChessQuestion, ctx: DecisionContext) -> ChessAnswer:
        self.calls += 1
        return ChessAnswer(move=NULLS[(self.calls - 1) % len(NULLS)])


def make_null_mover(game: str, seed: int) -> NullMover:
    """The `py:tests.evaluation.chess_ladder.test_engine_crash:make_null_mover` policy."""
    return NullMover()


def _children() -> set[int]:
    """Live processes whose parent is this process."""
    me, found = os.getpid(), set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()
        if fields[0] != b"Z" and int(fields[1]) == me:
            found.add(int(entry))
    return found


def _pids(path: Path) -> list[int]:
    return [int(pid) for pid in path.read_text().split()] if path.exists() else []


@pytest.mark.parametrize("spelling", ["text", "answer"])
def test_null_move_answers_are_three_rejected_tries_and_a_forfeit(
    tmp_path: Path, spelling: str
) -> None:
    answers: list[Any] = (
        ["<move>0000</move>", "<move>--</move>", "<move>@@@@</move>"]
        if spelling == "text"
        else [ChessAnswer(move="Z0"), {"move": "0000"}, ChessAnswer(move="Q@e4")]
    )
    saved = _play(Scripted(answers), tmp_path / "g.jsonl")
    assert saved["endReason"] == "forfeit" and saved["score"] == 0.0
    assert saved["requests"] == 3 and saved["rejected"] == 3 and saved["moves"] == []
    decisions = [e for e in _events(tmp_path / "g.jsonl") if e["type"] == "decision"]
    assert [d["verdict"] for d in decisions] == ["illegal"] * 3
    assert all(d["move"] is None for d in decisions)
    assert verify_log(tmp_path / "g.jsonl").ok


def test_a_ladder_run_against_a_null_mover_forfeits_every_game_and_leaves_nothing_running(
    tmp_path: Path,
) -> None:
    from evaluation.benchmarks.chess_ladder.runner import run_ladder
    from policies.specs import make_policy

    before = _children()
    spec = "py:tests.evaluation.chess_ladder.test_engine_crash:make_null_mover"
    run = run_ladder(
        [spec],
        lambda s: make_policy(s, "chess"),
        tmp_path / "run",
        variants=["standard"],
        games_per_rung=1,
        grade_nodes=1_000,
        say=lambda _: None,
    )
    assert not run.aborted and not run.interrupted
    results = sorted((tmp_path / "run" / "results").rglob("*.json"))
    assert len(results) == 2  # two rungs scored zero: the climb stops
    for path in results:
        saved = json.loads(path.read_text())
        assert saved["endReason"] == "forfeit" and saved["rejected"] == 3
        assert saved["moves"] == [] or saved["modelColour"] == "black"
    logs = sorted((tmp_path / "run" / "logs").rglob("*.jsonl"))
    assert len(logs) == 2 and all(verify_log(p).ok for p in logs)
    assert wait_dead(sorted(_children() - before)) == []


def test_a_rung_engine_that_crashes_aborts_the_game_and_leaves_no_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_UCI_PIDS", str(tmp_path / "pids"))
    monkeypatch.setenv("FAKE_UCI_CRASH_AT", "1")
    rung = UciPolicy(parse_uci_spec(str(wrapper(tmp_path))), slug="fake-rung")
    side = LiveSide(rung, FlatJudge(), "standard")
    log = tmp_path / "g.jsonl"
    policy = Scripted(["<move>e4</move>"])
    try:
        with pytest.raises(GameAbortedError, match="the rung failed") as aborted:
            play_ladder_game(policy, side, _settings(), log, seed="test")
    finally:
        rung.close()
    assert aborted.value.decisions == 0
    last = _events(log)[-1]
    assert last["type"] == "result" and last["endReason"] == "aborted"
    assert "SIGSEGV" in last["reason"] or "died" in last["reason"]
    pids = _pids(tmp_path / "pids")
    assert len(pids) == 2 and wait_dead(pids) == []


@pytest.mark.parametrize("colour", ["white", "black"])
def test_a_rung_answering_a_null_move_aborts_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, colour: str
) -> None:
    """A rung's move goes through the same parser: a null move from our side is our failure."""
    monkeypatch.setenv("FAKE_UCI_CRASH_AT", "0")
    monkeypatch.setenv("FAKE_UCI_BESTMOVE", "0000")
    rung = UciPolicy(parse_uci_spec(str(wrapper(tmp_path))), slug="fake-rung")
    try:
        with pytest.raises(GameAbortedError, match="not a legal move"):
            play_ladder_game(
                Scripted([]),
                LiveSide(rung, FlatJudge(), "standard"),
                _settings(colour),
                tmp_path / "g.jsonl",
                seed="test",
            )
    finally:
        rung.close()
    assert _events(tmp_path / "g.jsonl")[-1]["endReason"] == "aborted"


@pytest.mark.slow
def test_a_judge_that_crashes_aborts_only_that_game_which_resume_plays_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from evaluation.benchmarks.chess_ladder.runner import run_ladder
    from policies.specs import make_policy

    def climb() -> Any:
        return run_ladder(
            ["random"],
            lambda spec: make_policy(spec, "chess"),
            tmp_path / "run",
            variants=["standard"],
            games_per_rung=1,
            grade_nodes=1_000,
            say=lambda _: None,
        )

    monkeypatch.setenv("ARCADE_STOCKFISH", str(wrapper(tmp_path)))
    monkeypatch.setenv("FAKE_UCI_PIDS", str(tmp_path / "pids"))
    monkeypatch.setenv("FAKE_UCI_CRASH_AT", "1")
    first = climb()
    assert len(first.aborted) == 1 and "the judge failed" in first.aborted[0]
    assert first.aborted[0].startswith("random/standard/random/game-0:")
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["status"] == "aborted" and not first.rows
    assert not list((tmp_path / "run" / "results").rglob("*.json"))  # nothing counted
    assert not list((tmp_path / "run" / "logs").rglob("*.jsonl"))  # the log is set aside
    assert list((tmp_path / "run" / "logs").rglob("*aborted*"))
    pids = _pids(tmp_path / "pids")
    assert len(pids) == 2 and wait_dead(pids) == []
    # resume with a working Stockfish: the aborted game is played again and the run completes
    monkeypatch.delenv("ARCADE_STOCKFISH")
    stockfish_or_skip()
    again = climb()
    assert not again.aborted and again.rows and again.rows[0].games >= 2
    played = tmp_path / "run" / "results" / "random" / "standard" / "random" / "game-0.json"
    assert json.loads(played.read_text())["endReason"] != "aborted"


def test_calibrate_with_a_crashing_stockfish_says_so_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from evaluation.cli import main

    monkeypatch.setenv("ARCADE_STOCKFISH", str(wrapper(tmp_path)))
    monkeypatch.setenv("FAKE_UCI_PIDS", str(tmp_path / "pids"))
    monkeypatch.setenv("FAKE_UCI_CRASH_AT", "1")
    output = tmp_path / "ladder.json"
    argv = ["chess-ladder", "calibrate", "--output", str(output), "--games-vs-engine", "1,0,0"]
    assert main([*argv, "--games-between-weak", "0"]) == 1
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "failed" in lines[0] and not output.exists()
    pids = _pids(tmp_path / "pids")
    assert pids and wait_dead(pids) == []

"""Who owns a timeout in the chess ladder (seed 002: "a request that fails on our side (a timeout,
an outage, a usage limit) aborts the game, and an aborted game never counts against the model"):
a policy that does not answer within `--timeout-s` aborts its game, which is set aside, never
scored, and played on resume. Logs of the older protocol (a timeout was a rejected try) still
replay under their own rule."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import chess
import pytest

from arcade_gym.chess.contract import ChessAnswer, ChessQuestion
from evaluation.benchmarks.chess_ladder.episode import (
    LEGACY_PROTOCOL,
    PROTOCOL_VERSION,
    LadderEpisode,
    LiveSide,
    play_ladder_game,
    settings_of,
)
from evaluation.core.episode import Call, GameAbortedError, play_episode
from evaluation.core.policy_call import CallOutcome
from evaluation.core.verify import verify_log
from policies.base import DecisionContext, PolicyIdentity
from policies.chess import BUILTINS
from tests.engines.stockfish import stockfish_or_skip
from tests.evaluation.chess_ladder.test_protocol import FlatJudge

SHIPPED = Path(__file__).resolve().parents[3] / "docs/results/chess-ladder/material-2ply"


class Hangs(PolicyIdentity):
    """Plays the first legal move, but while `hang` is set (after `answers` answers) it does not
    answer until the harness gives up on it (its cancel event)."""

    def __init__(self, hang: threading.Event, answers: int = 0) -> None:
        super().__init__(slug="hangs", name="hangs", description="test", kind="baseline")
        self.hang = hang
        self.answers = answers

    def act(self, question: ChessQuestion, ctx: DecisionContext) -> Any:
        if self.hang.is_set() and self.answers <= 0:
            ctx.cancelled.wait(5.0)
        self.answers -= 1
        return ChessAnswer(move=next(iter(question.board_now().legal_moves)).uci())


def _events(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_timeout_aborts_the_game_instead_of_costing_a_try(tmp_path: Path) -> None:
    hang = threading.Event()
    hang.set()
    side = LiveSide(BUILTINS["random"]("test"), FlatJudge(), "standard")
    settings = settings_of("standard", "random", 0.0, chess.STARTING_FEN, None, "white", 200, "v1")
    log = tmp_path / "g.jsonl"
    with pytest.raises(GameAbortedError, match="timeout: no answer within 200 ms") as aborted:
        play_ladder_game(Hangs(hang, answers=2), side, settings, log, seed="test")
    assert aborted.value.decisions == 2
    events = _events(log)
    assert events[0]["versions"]["protocol"] == PROTOCOL_VERSION
    decisions = [e for e in events if e["type"] == "decision"]
    assert [d["verdict"] for d in decisions] == ["legal", "legal"]  # the timeout is no try
    assert events[-1]["endReason"] == "aborted" and events[-1]["decisions"] == 2
    assert events[-1]["reason"].startswith("timeout: ")


class _Timeouts:
    """A caller whose every call times out."""

    def call(self, question: Any, limit_ms: float | None, realtime: bool) -> Call:
        return Call(CallOutcome(None, "timeout", "no answer within 5 ms", 5.0))


class _Sink:
    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []

    def decision(self, event: dict[str, Any]) -> None:
        self.events.append(event)

    def result(self, event: dict[str, Any]) -> None:
        self.events.append(event)


def test_the_older_protocol_kept_its_rule_a_timeout_was_a_rejected_try() -> None:
    side = LiveSide(BUILTINS["random"]("test"), FlatJudge(), "standard")
    legacy = LadderEpisode("standard", chess.STARTING_FEN, "white", side, timeout_aborts=False)
    sink = _Sink()
    played = play_episode(legacy, _Timeouts(), sink)
    assert played.result["endReason"] == "forfeit" and played.result["rejected"] == 3
    assert [e.get("verdict") for e in sink.events[:3]] == ["timeout"] * 3
    current = LadderEpisode("standard", chess.STARTING_FEN, "white", side)
    with pytest.raises(GameAbortedError):
        play_episode(current, _Timeouts(), _Sink())


def test_shipped_logs_of_the_older_protocol_still_verify() -> None:
    logs = sorted((SHIPPED / "logs").rglob("*.jsonl"))[:3]
    assert logs
    for log in logs:
        assert _events(log)[0]["versions"]["protocol"] == LEGACY_PROTOCOL
        assert verify_log(log).ok, log


def _climb(out: Path, hang: threading.Event) -> Any:
    from evaluation.benchmarks.chess_ladder.runner import run_ladder

    return run_ladder(
        ["hangs"],
        lambda spec: Hangs(hang),
        out,
        variants=["standard", "chess960"],
        games_per_rung=1,
        grade_nodes=2_000,
        timeout_ms=1_000.0,
        say=lambda _: None,
    )


@pytest.mark.slow
def test_a_game_whose_policy_times_out_is_aborted_not_scored_and_played_on_resume(
    tmp_path: Path,
) -> None:
    stockfish_or_skip()
    out = tmp_path / "run"
    hang = threading.Event()
    hang.set()
    first = _climb(out, hang)
    assert sorted(first.aborted) == [
        "hangs/chess960/random/game-0: timeout: no answer within 1000 ms",
        "hangs/standard/random/game-0: timeout: no answer within 1000 ms",
    ]
    assert not first.rows and not (out / "report.json").exists()
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "aborted" and manifest["finished"] == 0
    assert not list((out / "results").rglob("*.json"))  # nothing scored
    aside = [p.name for p in (out / "logs").rglob("*") if p.is_file()]
    assert aside and all(".aborted" in name for name in aside)
    hang.clear()
    again = _climb(out, hang)
    assert not again.aborted and not again.interrupted
    (row,) = again.rows
    assert row.games >= 4 and row.illegal_rate == 0.0
    logs = sorted((out / "logs").rglob("*.jsonl"))
    assert logs and all(verify_log(p).ok for p in logs)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "complete"
    for variant in ("standard", "chess960"):  # one game a rung: colours alternate anyway
        climb = [g for g in manifest["schedule"] if g["variant"] == variant]
        assert [g["colour"] for g in climb] == ["white", "black"] * (len(climb) // 2) + (
            ["white"] if len(climb) % 2 else []
        )
        for g in climb:
            saved = json.loads(
                (out / "results" / "hangs" / variant / g["rung"] / f"{g['game']}.json").read_text()
            )
            assert (saved["modelColour"], saved["startIndex"]) == (g["colour"], g["start"])
            assert saved["gradedBy"]["nodes"] == 2_000
            assert str(saved["gradedBy"]["engine"]).startswith("Stockfish")
    pairs = [g for g in manifest["schedule"] if g["variant"] == "chess960"]
    assert pairs[0]["start"] == pairs[1]["start"]  # one start, once as white, once as black
    assert {pairs[0]["colour"], pairs[1]["colour"]} == {"white", "black"}
    report = (out / "report.md").read_text()
    assert "best move | top 3" in report and "at 2,000 nodes a position" in report
    # a kept result that does not record what graded it (made before it was recorded) is graded
    # again on resume, the game itself kept
    result = next((out / "results").rglob("*.json"))
    older = json.loads(result.read_text())
    del older["gradedBy"]
    result.write_text(json.dumps(older))
    said: list[str] = []
    from evaluation.benchmarks.chess_ladder.runner import run_ladder

    run_ladder(
        ["hangs"], lambda spec: Hangs(hang), out, variants=["standard", "chess960"],
        games_per_rung=1, grade_nodes=2_000, timeout_ms=1_000.0, say=said.append,
    )  # fmt: skip
    regraded = json.loads(result.read_text())
    assert regraded["gradedBy"]["nodes"] == 2_000 and "Stockfish" in regraded["gradedBy"]["engine"]
    assert len(regraded["grades"]) == len(older["grades"]) and regraded["moves"] == older["moves"]
    assert not said  # nothing was set aside or played again


def test_a_kept_game_off_the_schedule_is_named() -> None:
    from evaluation.benchmarks.chess_ladder.climb import off_schedule
    from evaluation.benchmarks.chess_ladder.schedule import ScheduledGame

    game = ScheduledGame("chess960", "greedy", 0, "black", 11)
    assert off_schedule({"modelColour": "black", "startIndex": 11}, game) is None
    why = off_schedule({"modelColour": "white", "startIndex": 22}, game)
    assert why == "it was played as white from start 22, the schedule asks for black from start 11"

"""The ladder protocol on the one loop: retries and forfeits, replay and verify, a run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import chess
import pytest

import evaluation.benchmarks.chess_ladder as chess_ladder
from arcade_gym.chess.contract import ChessAnswer, ChessQuestion
from evaluation.benchmarks.chess_ladder.episode import (
    LadderEpisode,
    LiveSide,
    RecordedSide,
    play_ladder_game,
    settings_of,
    wire_answer,
)
from evaluation.core.registry import register
from evaluation.core.verify import verify_log
from policies.base import DecisionContext, PolicyIdentity
from policies.chess import BUILTINS
from tests.engines.stockfish import stockfish_or_skip

register(chess_ladder.BENCHMARK)


class FlatJudge:
    """A judge that always measures a level position (no adjudication, no engine)."""

    def analyse(self, board: chess.Board, limit: Any) -> list[dict[str, Any]]:
        from chess.engine import Cp, PovScore

        return [{"score": PovScore(Cp(0), chess.WHITE)}]


class Scripted(PolicyIdentity):
    """Answers from a list, then the first legal move."""

    def __init__(self, answers: list[Any]) -> None:
        super().__init__(slug="scripted", name="scripted", description="test", kind="baseline")
        self.answers = list(answers)
        self.questions: list[ChessQuestion] = []

    def act(self, question: ChessQuestion, ctx: DecisionContext) -> Any:
        self.questions.append(question)
        if self.answers:
            return self.answers.pop(0)
        return ChessAnswer(move=next(iter(question.board_now().legal_moves)).uci())


def _settings(colour: str = "white") -> dict[str, Any]:
    return settings_of("standard", "random", 0.0, chess.STARTING_FEN, None, colour, 60_000, "v1")


def _play(policy: Any, path: Path, colour: str = "white") -> dict[str, Any]:
    # the rung is seeded by the game's seed, as a run seeds it (verify re-derives its moves)
    side = LiveSide(BUILTINS["random"]("test"), FlatJudge(), "standard")
    return play_ladder_game(policy, side, _settings(colour), path, seed="test")


def _events(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_three_rejected_tries_forfeit_with_every_try_logged(tmp_path: Path) -> None:
    policy = Scripted(["<move>Ke2</move>", "no tag at all", ChessAnswer(move="e2e5")])
    saved = _play(policy, tmp_path / "g.jsonl")
    assert saved["endReason"] == "forfeit" and saved["score"] == 0.0
    assert saved["requests"] == 3 and saved["rejected"] == 3
    decisions = [e for e in _events(tmp_path / "g.jsonl") if e["type"] == "decision"]
    assert [d["verdict"] for d in decisions] == ["illegal", "unreadable", "illegal"]
    assert [d["attempt"] for d in decisions] == [1, 2, 3]
    assert policy.questions[1].feedback and "Ke2" in policy.questions[1].feedback
    assert policy.questions[2].attempt == 3
    assert verify_log(tmp_path / "g.jsonl").ok


def test_a_legal_answer_resets_the_tries(tmp_path: Path) -> None:
    policy = Scripted(["<move>Ke2</move>", "<move>e4</move>", "junk", "junk"])
    saved = _play(policy, tmp_path / "g.jsonl")
    assert saved["endReason"] != "forfeit" or saved["requests"] > 4
    assert saved["rejected"] == 3


def test_policy_errors_count_as_rejected_tries(tmp_path: Path) -> None:
    class Crashing(Scripted):
        def act(self, question: ChessQuestion, ctx: DecisionContext) -> Any:
            raise RuntimeError("boom")

    saved = _play(Crashing([]), tmp_path / "g.jsonl")
    assert saved["endReason"] == "forfeit" and saved["rejected"] == 3


def test_verify_replays_a_game_and_a_changed_move_fails(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    _play(BUILTINS["greedy"]("v"), log, colour="black")
    assert verify_log(log).ok
    lines = log.read_text().splitlines()
    events = [json.loads(line) for line in lines]
    first = next(i for i, e in enumerate(events) if e["type"] == "decision")
    board = chess.Board()
    board.push_uci(events[first]["opening"])
    other = next(m.uci() for m in board.legal_moves if m.uci() != events[first]["move"])
    events[first]["call"]["answer"] = {"move": other}
    tampered = tmp_path / "t.jsonl"
    tampered.write_text("\n".join(json.dumps(e) for e in events) + "\n")
    report = verify_log(tampered)
    assert not report.ok and report.decision == 0


def test_verify_re_derives_a_weak_rungs_moves(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    _play(BUILTINS["greedy"]("v"), log, colour="black")
    events = _events(log)
    # the rung's opening move replaced by another legal one: the model's answers still replay
    # move for move only if nothing checks the rung, so the rung itself must be asked
    first = next(i for i, e in enumerate(events) if e["type"] == "decision")
    board = chess.Board()
    other = next(m.uci() for m in board.legal_moves if m.uci() != events[first]["opening"])
    events[first]["opening"] = other
    tampered = tmp_path / "t.jsonl"
    tampered.write_text("\n".join(json.dumps(e) for e in events) + "\n")
    report = verify_log(tampered)
    assert not report.ok and "rung random plays" in report.message
    assert f"the log says {other}" in report.message
    # a game whose header names another seed is not the game its rung would play
    events = _events(log)
    events[0]["seed"] = "another"
    reseeded = tmp_path / "s.jsonl"
    reseeded.write_text("\n".join(json.dumps(e) for e in events) + "\n")
    assert not verify_log(reseeded).ok


def test_recorded_side_replays_opening_and_evals() -> None:
    events = [{"opening": "e2e4", "openingEval": 0.3, "opponent": "g1f3", "evals": [0.1, 0.2]}]
    side = RecordedSide(events)
    assert side.reply(chess.Board(), -1).uci() == "e2e4"
    assert side.measure(chess.Board(), -1, 0) == 0.3
    assert side.measure(chess.Board(), 0, 1) == 0.2
    episode = LadderEpisode("standard", chess.STARTING_FEN, "black", side)
    assert episode.question().moves_uci == ("e2e4",)


def test_wire_answers() -> None:
    assert wire_answer(ChessAnswer(move="e4")) == {"move": "e4"}
    assert wire_answer("<move>e4</move>") == "<move>e4</move>"
    assert "unreadable" in wire_answer(3.5)


@pytest.mark.slow
def test_a_run_climbs_rates_and_verifies(tmp_path: Path) -> None:
    stockfish_or_skip()
    from evaluation.benchmarks.chess_ladder.runner import run_ladder
    from policies.specs import make_policy

    out = tmp_path / "run"

    def climb() -> Any:
        return run_ladder(
            ["material-2ply"],
            lambda spec: make_policy(spec, "chess"),
            out,
            variants=["standard"],
            games_per_rung=1,
            grade_nodes=2_000,
        )

    run = climb()
    assert not run.interrupted and not run.aborted
    row = run.rows[0]
    assert row.games >= 4 and row.fit.rating is not None and row.fit.low is not None
    logs = sorted((out / "logs").rglob("*.jsonl"))
    assert logs and all(verify_log(p).ok for p in logs)
    assert (out / "report.md").read_text().count("material-2ply") >= 1
    assert sorted((out / "pgn").rglob("*.pgn"))
    # the same command again resumes: every game is kept, the rating is the same
    again = climb()
    assert again.rows[0].fit == row.fit and again.rows[0].games == row.games
    assert sorted((out / "logs").rglob("*.jsonl")) == logs


def test_a_directory_holding_something_else_is_refused(tmp_path: Path) -> None:
    from evaluation.benchmarks.chess_ladder.runner import run_ladder
    from evaluation.core.errors import RunError

    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(RunError, match="output-dir"):
        run_ladder(["random"], lambda spec: BUILTINS[spec](), tmp_path)
    with pytest.raises(RunError, match="games-per-rung"):
        run_ladder(["random"], lambda spec: BUILTINS[spec](), tmp_path / "new", games_per_rung=0)

"""The tic-tac-toe arena: the suite (determinism, exact counts), grading, engines and reports."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from arcade_gym.tictactoe.contract import EngineReply, TicTacToeQuestion
from arcade_gym.tictactoe.game import board_from_rows, position_error
from arcade_gym.tictactoe.rules import mark_value
from evaluation import cli
from evaluation.benchmarks.ttt_arena.grading import WEIGHTS, grade_for, match_points, weighted_score
from evaluation.benchmarks.ttt_arena.report import ArenaReport
from evaluation.benchmarks.ttt_arena.runner import run_arena
from evaluation.benchmarks.ttt_arena.suite import (
    COUNTS,
    DEFAULT_SEED,
    TOTAL_MATCHES,
    TOTAL_POSITIONS,
    build_suite,
    classify,
    match_schedule,
)
from evaluation.core.grid import PolicyPool
from evaluation.core.verify import verify_paths
from policies.base import DecisionContext
from policies.specs import SpecError, SpecOptions, make_policy
from policies.tictactoe import make_player
from tests.evaluation.ttt_arena.conftest import SharedRun


def grade(engine: Any, out: Path, **options: Any) -> ArenaReport:
    """One engine's report from a fresh run into `out`."""
    run = run_arena(["engine"], PolicyPool(lambda _: engine), out, say=lambda _: None, **options)
    assert not run.missing
    return run.reports[0]


# --- suite --------------------------------------------------------------------------------------


def test_suite_has_exactly_188_positions_and_24_matches() -> None:
    suite = build_suite()
    assert suite.seed == DEFAULT_SEED and suite.version == "v1"
    assert len(suite.positions) == TOTAL_POSITIONS == 188
    assert len(suite.matches) == TOTAL_MATCHES == 24
    assert sum(sum(c.values()) for c in COUNTS.values()) == 188
    assert suite.counts() == {c: dict(sizes) for c, sizes in COUNTS.items()}
    assert len({(p.rows, p.to_move) for p in suite.positions}) == 188  # no duplicates
    assert len({p.id for p in suite.positions}) == 188


def test_suite_positions_are_reachable_and_expected_moves_are_empty_squares() -> None:
    for item in build_suite().positions:
        board = board_from_rows(item.rows)
        side = mark_value(item.to_move)
        assert position_error(board, side) is None, item.id
        empty = {tuple(int(v) for v in rc) for rc in np.argwhere(board == 0)}
        assert set(item.expected) <= empty and item.expected, item.id
        if item.category == "legality":
            assert set(item.expected) == empty and len(empty) <= item.size**2 // 4
        else:
            assert len(item.expected) < len(empty), item.id  # some legal move fails
            verdict = classify(board, side)
            assert verdict is not None and verdict[0] == item.category, item.id
            assert sorted(divmod(c, item.size) for c in verdict[1]) == list(item.expected)


def test_suite_is_deterministic_per_seed() -> None:
    first = build_suite().to_dict()
    build_suite.cache_clear()
    assert build_suite().to_dict() == first
    assert match_schedule(1) != match_schedule(2)
    assert build_suite(7).to_dict()["positions"] != first["positions"]


def test_match_schedule_plays_both_colours_against_every_partner() -> None:
    matches = match_schedule()
    by_size: dict[int, list[tuple[str, bool, str]]] = {}
    for m in matches:
        by_size.setdefault(m.size, []).append((m.opponent, m.opening, m.engine_mark))
    assert {s: len(v) for s, v in by_size.items()} == {3: 8, 5: 8, 10: 8}
    assert {o for o, _, _ in by_size[3]} == {"random", "greedy", "tactician", "perfect"}
    for size in (5, 10):
        assert "perfect" not in {o for o, _, _ in by_size[size]}
        assert sorted(by_size[size]).count(("tactician", True, "X")) == 1
    for games in by_size.values():
        assert sum(mark == "X" for _, _, mark in games) == 4


# --- grading ------------------------------------------------------------------------------------


def test_weights_and_grade_thresholds() -> None:
    assert sum(WEIGHTS.values()) == 100
    table = [(100, "S+"), (98, "S+"), (97.9, "S"), (93, "S"), (92.9, "A"), (85, "A"),
             (84.9, "B"), (75, "B"), (74.9, "C"), (65, "C"), (64.9, "D"), (50, "D"),
             (49.9, "F"), (0, "F")]  # fmt: skip
    for score, grade in table:
        assert grade_for(score) == grade, score


def test_any_illegal_move_caps_the_grade_at_c() -> None:
    assert grade_for(99.0, illegal_moves=1) == "C"
    assert grade_for(80.0, illegal_moves=3) == "C"
    assert grade_for(70.0, illegal_moves=1) == "C"
    assert grade_for(60.0, illegal_moves=1) == "D"  # the cap never raises a grade
    assert grade_for(10.0, illegal_moves=1) == "F"


def test_weighted_score_and_match_points() -> None:
    perfect = dict.fromkeys(WEIGHTS, 1.0)
    assert weighted_score(perfect) == 100.0
    assert weighted_score({**perfect, "match_play": 0.0}) == 75.0
    assert weighted_score({**perfect, "legality": 0.5}) == 97.5
    with pytest.raises(ValueError, match="missing"):
        weighted_score({"fork": 1.0})
    assert match_points("win", "random") == 1.0
    assert match_points("draw", "greedy") == 0.5
    assert match_points("draw", "perfect") == 1.0
    assert match_points("loss", "perfect") == 0.0


# --- running engines ------------------------------------------------------------------------------


@pytest.fixture
def reports(arena_run: SharedRun) -> dict[str, ArenaReport]:
    return arena_run.reports


def test_tactician_and_perfect_grade_at_least_a(reports: dict[str, ArenaReport]) -> None:
    for name in ("tactician", "perfect"):
        report = reports[name]
        assert report.grade in ("S+", "S", "A"), (name, report.score)
        assert not report.illegal_moves
        for category in ("win_in_1", "block", "fork", "fork_defense", "legality"):
            assert report.accuracy[category] == 1.0, (name, category)
    assert reports["perfect"].accuracy["perfect_play"] == 1.0
    assert reports["perfect"].accuracy["forced_win_5"] == 1.0
    summary = reports["perfect"].match_summary()
    assert summary["perfect"]["loss"] == 0 and summary["random"]["win"] == 6


def test_random_grades_f(reports: dict[str, ArenaReport]) -> None:
    assert reports["random"].grade == "F"
    assert reports["random"].accuracy["legality"] == 1.0


def test_the_same_engine_and_seed_give_the_same_report(
    reports: dict[str, ArenaReport], tmp_path: Path
) -> None:
    again = grade(make_player("tactician"), tmp_path / "again")
    assert again.to_dict(timings=False) == reports["tactician"].to_dict(timings=False)
    text = reports["text"].to_dict(timings=False)  # text answers are judged like moves
    assert {k: v for k, v in text.items() if k != "engine"} == {
        k: v for k, v in again.to_dict(timings=False).items() if k != "engine"
    }
    data = json.loads(reports["tactician"].to_json())
    assert data["seed"] == DEFAULT_SEED and data["grade"] == reports["tactician"].grade
    assert sum(v["total"] for v in (c["all"] for c in data["table"].values())) == 188
    assert data["matches"]["all"]["games"] == 24
    text = reports["tactician"].to_text()
    assert "Forced win in 5" in text and "matches W/D/L" in text


class Garbage:
    """Answers with junk of every kind, and raises now and then."""

    slug = name = description = "garbage"
    kind = "engine"
    adapter_version = "1"

    def __init__(self) -> None:
        self.calls = 0

    def act(self, question: TicTacToeQuestion, ctx: DecisionContext) -> Any:
        self.calls += 1
        kind = self.calls % 6
        if kind == 0:
            raise RuntimeError("engine exploded")
        if kind == 1:
            return EngineReply(output="", error="tape overflow", instructions=1234)
        if kind == 2:
            return "hello"
        if kind == 3:
            return f"{question.size} 0"  # off the board
        if kind == 4:
            return None
        return EngineReply(output="0 0\n", instructions=99)  # often occupied


def test_a_garbage_engine_gets_illegal_moves_not_a_crash(tmp_path: Path) -> None:
    report = grade(Garbage(), tmp_path / "run")
    assert report.grade in ("C", "D", "F")
    assert len(report.illegal_moves) >= 150
    reasons = " ".join(i.reason for i in report.illegal_moves)
    for needle in ("engine exploded", "tape overflow", "unparseable", "off-board", "not a move"):
        assert needle in reasons
    assert all(m.result == "loss" for m in report.matches if m.forfeit)
    assert report.move_stats.instructions_max == 1234


class SlowOnce:
    """A good player that hangs on its first question only."""

    slug = name = description = "slow-once"
    kind = "engine"
    adapter_version = "1"

    def __init__(self) -> None:
        self.player = make_player("tactician")
        self.first = True

    def act(self, question: TicTacToeQuestion, ctx: DecisionContext) -> Any:
        if self.first:
            self.first = False
            ctx.cancelled.wait(2.0)
        return self.player.act(question, ctx)


def test_a_timeout_is_an_illegal_move_and_caps_the_grade(tmp_path: Path) -> None:
    report = grade(SlowOnce(), tmp_path / "run", timeout_ms=200.0)
    assert len(report.illegal_moves) == 1
    assert report.illegal_moves[0].reason.startswith("timeout")
    assert report.score >= 85 and report.grade == "C"
    assert report.to_dict()["capped"] is True
    assert all(r.ok for r in verify_paths([tmp_path / "run" / "logs"]))  # a timeout replays too


def test_policy_specs_name_the_arena_engines() -> None:
    assert make_policy("policy:greedy", "tictactoe").slug == "greedy"
    assert make_policy("perfect", "tictactoe").slug == "perfect"
    for bad in ("policy:", "policy:stockfish", "wasm:x.bf", "uci:stockfish"):
        with pytest.raises(SpecError):
            make_policy(bad, "tictactoe")
    with pytest.raises(SpecError, match="bf:"):
        make_policy("bf:/no/such/engine.bf", "tictactoe")


def test_bf_and_cmd_specs_build_the_arena_engines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[tuple[str, Any, dict[str, Any]]] = []

    class Fake:
        def __init__(self, kind: str, arg: Any, **kw: Any) -> None:
            made.append((kind, arg, kw))

    fake = types.ModuleType("policies.engines.arena")
    fake.BrainfuckEngine = lambda path: Fake("bf", path)  # type: ignore[attr-defined]
    fake.CommandEngine = lambda cmd, **kw: Fake("cmd", cmd, **kw)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "policies.engines.arena", fake)
    program = tmp_path / "engine.bf"
    program.write_text("+.")
    make_policy(f"bf:{program}", "tictactoe")
    make_policy("cmd:./engine --fast", "tictactoe", SpecOptions(timeout_ms=1500.0))
    assert made == [
        ("bf", program, {}),
        ("cmd", "./engine --fast", {"timeout_ms": 1500.0}),
    ]


def test_cli_arena_and_its_ttt_alias_print_and_write_reports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "report.json"
    run_dir = tmp_path / "run"
    argv = ["ttt", "--engine", "policy:random", "--json", str(out), "--output-dir", str(run_dir)]
    assert cli.main(argv) == 0
    assert "grade F" in capsys.readouterr().out
    document = json.loads(out.read_text())
    assert document["reportVersion"] == 2
    assert document["reports"][0]["engine"]["slug"] == "random"
    assert json.loads((run_dir / "report.json").read_text())["reports"][0]["grade"] == "F"
    assert "grade F" in (run_dir / "report.txt").read_text()
    # the same command again finds the run finished; another one is refused, naming the change
    assert cli.main(["ttt-arena", "--policy", "policy:random", "--output-dir", str(run_dir)]) == 0
    assert "grade F" in capsys.readouterr().out
    assert cli.main(["ttt-arena", "--policy", "greedy", "--output-dir", str(run_dir)]) == 2
    assert "holds another run" in capsys.readouterr().err
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    assert (
        cli.main(["ttt-arena", "--policy", "random", "--output-dir", str(tmp_path / "other")]) == 2
    )
    assert "holds no ttt-arena run" in capsys.readouterr().err
    assert cli.main(["ttt-arena", "--engine", "nope", "--output-dir", str(tmp_path / "x")]) == 2
    assert "bf:PATH" in capsys.readouterr().err

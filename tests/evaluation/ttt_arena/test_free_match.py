"""Free matches: a full game against an opponent policy (an entry's engine, a `bf:` file, a
sparring name), recorded so `verify` rebuilds the opponent and re-derives its moves; and the
suite's matches, whose logs must stay exactly as they were."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from evaluation.benchmarks.ttt_arena.entries import engine_sha256
from evaluation.benchmarks.ttt_arena.episode import (
    FreeOpponent,
    free_opponent,
    play_arena_game,
    play_free_match,
)
from evaluation.benchmarks.ttt_arena.suite import build_suite
from evaluation.core.verify import verify_log
from policies.base import DecisionContext

REPO = Path(__file__).resolve().parents[3]
ENTRIES = REPO / "seeds" / "arena" / "entries"
FIRST_EMPTY = ENTRIES / "first-empty" / "engine.bf"
TACTICIAN = ENTRIES / "tactician" / "engine.bf"

WINNING_LINE = [(1, 1), (0, 2), (2, 0)]
"""The anti-diagonal: it beats first-empty (which takes (0, 0), then (0, 1), ...) as X at ply 5
and as O at ply 6."""


class Scripted:
    """The engine side: fixed moves, in order."""

    slug = "scripted"
    name = "scripted"
    kind = "baseline"

    def __init__(self, moves: list[Any]) -> None:
        self.moves = list(moves)

    def act(self, question: Any, ctx: DecisionContext) -> Any:
        return self.moves.pop(0)


@pytest.fixture
def engine(tmp_path: Path) -> Path:
    """A copy of the first-empty entry's engine that a test may change."""
    path = tmp_path / "engine.bf"
    shutil.copyfile(FIRST_EMPTY, path)
    return path


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def rewrite(path: Path, events: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")


def play(engine: Path, log: Path, moves: list[Any], *, mark: str = "X", size: int = 3) -> Any:
    opponent = free_opponent(f"bf:{engine}")
    return play_free_match(Scripted(moves), opponent, log, size=size, engine_mark=mark, seed=0)


def test_a_free_match_against_a_file_engine_verifies_and_records_the_engine(engine, tmp_path):
    log = tmp_path / "match.jsonl"
    result = play(engine, log, WINNING_LINE)
    assert result["result"] == "win" and result["endReason"] == "line"
    assert result["moves"] == ["1 1", "0 0", "0 2", "0 1", "2 0"]
    report = verify_log(log)
    assert report.ok, report.message
    header, *decisions, last = lines(log)
    settings = header["settings"]
    assert settings["game"] == "free-match"
    assert settings["opponentSpec"] == f"bf:{engine.resolve()}"
    assert settings["opponentSha256"] == FreeOpponent.from_settings(settings).sha256
    assert len(settings["opponentSha256"]) == 64 and settings["opponentEntry"] is None
    assert header["versions"] == {"ruleset": "k-in-a-row@1"}
    first = decisions[0]["opponentCalls"]
    assert [c["move"] for c in first] == [[0, 0]] and first[0]["ply"] == 2
    assert first[0]["answer"]["output"].strip() == "0 0" and first[0]["instructions"] > 0
    assert decisions[-1]["opponentCalls"] == []  # the winning move left nothing to answer
    assert last["forfeitBy"] is None and last["opponent"] == f"bf:{engine.resolve()}"


def test_an_entry_id_names_the_shipped_entry(tmp_path):
    opponent = free_opponent("entry:first-empty")
    assert opponent.entry == "first-empty" and opponent.label == "entry:first-empty"
    assert opponent.file == FIRST_EMPTY.resolve()
    log = tmp_path / "match.jsonl"
    result = play_free_match(Scripted(WINNING_LINE), opponent, log, size=3, engine_mark="O", seed=0)
    assert result["opponent"] == "entry:first-empty" and result["result"] == "win"
    report = verify_log(log)
    assert report.ok, report.message
    header, first, *_ = lines(log)
    assert header["settings"]["opponentEntry"] == "first-empty"
    # as O the opponent moved first: its opening call is recorded with decision 0
    assert [c["ply"] for c in first["opponentCalls"]] == [1, 3]


def test_a_changed_or_missing_engine_file_fails_verify_naming_it(engine, tmp_path):
    log = tmp_path / "match.jsonl"
    play(engine, log, WINNING_LINE)
    engine.write_text(engine.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    report = verify_log(log)
    assert report.status == "fail"
    assert str(engine.resolve()) in report.message and "has changed" in report.message
    engine.unlink()
    report = verify_log(log)
    assert report.status == "fail"
    assert str(engine.resolve()) in report.message and "missing" in report.message


def test_the_opponents_moves_are_rederived_at_the_move_that_differs(engine, tmp_path):
    log = tmp_path / "match.jsonl"
    play(engine, log, WINNING_LINE)
    # another engine in its place, its hash written into the header: the replay plays it and
    # fails at the first decision its answer differs
    shutil.copyfile(TACTICIAN, engine)
    events = lines(log)
    events[0]["settings"]["opponentSha256"] = engine_sha256(TACTICIAN)
    rewrite(log, events)
    report = verify_log(log)
    assert report.status == "fail" and report.decision == 0, report.line()
    # a recorded reply edited by hand fails the same way
    shutil.copyfile(FIRST_EMPTY, engine)
    events = lines(log)
    events[0]["settings"]["opponentSha256"] = engine_sha256(FIRST_EMPTY)
    events[2]["replies"] = [[2, 2]]
    rewrite(log, events)
    report = verify_log(log)
    assert report.status == "fail" and report.decision == 1 and "replies" in report.message


def test_an_opponent_that_answers_badly_forfeits(tmp_path):
    log = tmp_path / "match.jsonl"
    opponent = free_opponent("entry:broken")
    result = play_free_match(Scripted([(1, 1)]), opponent, log, size=5, engine_mark="X", seed=0)
    assert result["result"] == "win" and result["score"] == 1.0
    assert result["endReason"] == "opponent illegal move" and result["forfeitBy"] == "opponent"
    assert result["forfeitPly"] == 2 and result["forfeit"]
    report = verify_log(log)
    assert report.ok, report.message
    call = lines(log)[1]["opponentCalls"][0]
    assert call["move"] is None and call["illegal"]


def test_the_engine_sides_illegal_move_forfeits_as_in_a_suite_match(engine, tmp_path):
    log = tmp_path / "match.jsonl"
    result = play(engine, log, [(1, 1), (0, 0)])  # (0, 0) is the opponent's
    assert result["result"] == "loss" and result["endReason"] == "illegal move"
    assert result["forfeitBy"] == "engine" and result["forfeitPly"] == 3
    assert verify_log(log).ok


def test_a_sparring_opponent_plays_a_free_match_seeded_by_the_header(tmp_path):
    log = tmp_path / "match.jsonl"
    opponent = free_opponent("random")
    assert opponent == FreeOpponent("random")
    result = play_free_match(_FirstEmpty(), opponent, log, size=5, engine_mark="X", seed=7)
    assert result["endReason"] in ("line", "full board")
    assert verify_log(log).ok
    events = lines(log)
    events[0]["seed"] = 8  # another seed: the random partner answers otherwise
    rewrite(log, events)
    assert verify_log(log).status == "fail"


class _FirstEmpty:
    """The engine side: the first empty square, row by row."""

    slug = "first"
    name = "first"
    kind = "baseline"

    def act(self, question: Any, ctx: DecisionContext) -> Any:
        for r, row in enumerate(question.rows):
            if "." in row:
                return (r, row.index("."))
        return None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("entry:nobody", "entries: broken, first-empty, tactician"),
        ("bf:no/such.bf", "no such Brainfuck file"),
        ("cmd:python engine.py", "entry:ID"),
        ("llm:gpt", "sparring partner"),
        ("entry:", "entry:ID"),
    ],
)
def test_opponents_that_cannot_play_a_free_match_are_refused(text, message):
    with pytest.raises(ValueError, match=message):
        free_opponent(text)


def test_a_free_match_needs_an_arena_board_and_mark(engine, tmp_path):
    with pytest.raises(ValueError, match="3, 5, 10"):
        play(engine, tmp_path / "a.jsonl", [], size=4)
    with pytest.raises(ValueError, match="X or O"):
        play(engine, tmp_path / "b.jsonl", [], mark="Z")


def test_malformed_free_match_headers_fail_verify(engine, tmp_path):
    log = tmp_path / "match.jsonl"
    play(engine, log, WINNING_LINE)
    original = lines(log)
    planted = tmp_path / "planted"
    changes = [
        ("opponentSha256", None),
        ("opponentSpec", 5),
        ("size", 4),
        ("opponentSpec", f"cmd:touch {planted}"),  # verify never runs a header's command
        ("opponentSpec", "py:os:getcwd"),
    ]
    for key, value in changes:
        events = json.loads(json.dumps(original))
        events[0]["settings"][key] = value
        if key == "opponentSpec":
            events[0]["settings"]["opponentSha256"] = None
        rewrite(log, events)
        report = verify_log(log)
        assert report.status == "fail" and "header cannot start a game" in report.message
    assert not planted.exists()


@pytest.mark.parametrize("match_id", ["match-3-01", "match-3-02", "match-5-09"])
def test_suite_matches_still_write_the_shipped_logs_byte_for_byte(match_id, tmp_path):
    from evaluation.benchmarks.ttt_arena.defaults import DEFAULT_SEED
    from policies.engines.arena import BrainfuckEngine

    shipped = sorted((ENTRIES / "first-empty" / "results").glob(f"*/matches/{match_id}.jsonl"))
    assert shipped, "the first-empty entry ships its match logs"
    match = next(m for m in build_suite(DEFAULT_SEED).matches if m.id == match_id)
    timeout = lines(shipped[-1])[0]["settings"]["timeoutMs"]
    log = tmp_path / f"{match_id}.jsonl"
    engine = BrainfuckEngine(FIRST_EMPTY, name="entry-first-empty")
    play_arena_game(engine, match, log, suite_seed=DEFAULT_SEED, timeout_ms=timeout)
    assert log.read_bytes() == shipped[-1].read_bytes()
    assert verify_log(shipped[-1]).ok


def test_an_entry_match_from_another_checkout_finds_the_shipped_entry(tmp_path):
    log = tmp_path / "match.jsonl"
    play_free_match(
        Scripted(WINNING_LINE),
        free_opponent("entry:first-empty"),
        log,
        size=3,
        engine_mark="X",
        seed=0,
    )
    events = lines(log)
    elsewhere = "/elsewhere/seeds/arena/entries/first-empty/engine.bf"
    events[0]["settings"]["opponentSpec"] = f"bf:{elsewhere}"
    rewrite(log, events)
    report = verify_log(log)
    assert report.ok, report.message  # the same entry, the same hash
    events[0]["settings"]["opponentEntry"] = None
    rewrite(log, events)
    report = verify_log(log)
    assert report.status == "fail" and f"{elsewhere} is missing" in report.message

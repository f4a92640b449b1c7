"""Event logs (JSON-safe answers, writing, reading cut-off files) and replay verification."""

from __future__ import annotations

import json
import math
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_gym.core.clock import SimulatedClock
from arcade_gym.tetris.contract import AgentAnswer, AgentInput, validate
from arcade_gym.tetris.game import TetrisGame
from evaluation.benchmarks.tetris_bench.episode import apply_decision, play_tetris
from evaluation.cli import main
from evaluation.core.eventlog import (
    GameLog,
    LogFormatError,
    Unserialisable,
    dumps,
    from_jsonable,
    read_log,
    to_jsonable,
)
from evaluation.core.verify import verify_log, verify_paths
from policies.base import DecisionContext, PolicyIdentity

# --------------------------------------------------------------------------------------------
# Policies and recorded games shared by the tests
# --------------------------------------------------------------------------------------------


class Scripted(PolicyIdentity):
    """Answers from a per-tick script of `f(question) -> answer` (the last one repeats)."""

    def __init__(self, script: list[Callable[[AgentInput], Any]]) -> None:
        super().__init__(slug="scripted", name="Scripted", description="test", kind="baseline")
        self.script = script

    def act(self, q: AgentInput, ctx: DecisionContext) -> Any:
        return self.script[min(q.tick, len(self.script) - 1)](q)


def valid(q: AgentInput) -> Any:
    return AgentAnswer.single(q.state_hash, q.legal[0], risk=0.2)


def lowest(q: AgentInput) -> Any:
    best = min(q.candidates, key=lambda c: (c.features.holes, c.features.max_height))
    return {"stateHash": q.state_hash, "choice": [best.placement.to_dict() | {"p": 1}]}


def junk(q: AgentInput) -> Any:
    return (q.state_hash, float("nan"))


def raising(q: AgentInput) -> Any:
    raise RuntimeError("nope")


MIXED = [valid, junk, lowest, raising, lowest, valid, lowest, lowest]


@pytest.fixture
def iq_log(tmp_path: Path) -> Path:
    path = tmp_path / "games" / "iq.jsonl"
    play_tetris(Scripted(MIXED), "seed-01", "IQ", path, piece_cap=25)
    return path


@pytest.fixture
def blitz_log(tmp_path: Path) -> Path:
    path = tmp_path / "games" / "blitz.jsonl"
    clock = SimulatedClock([0.0, 1500.0, 2500.0, 0.0, 30000.0, 700.0])
    play_tetris(Scripted(MIXED), "seed-02", "Blitz", path, clock=clock, piece_cap=25)
    return path


def _edit(path: Path, tick: int, change: Callable[[dict[str, Any]], None]) -> None:
    lines = path.read_text().splitlines()
    for i, line in enumerate(lines):
        record = json.loads(line)
        if record.get("type") == "decision" and record["tick"] == tick:
            change(record)
            lines[i] = dumps(record)
    path.write_text("\n".join(lines) + "\n")


# --------------------------------------------------------------------------------------------
# JSON-safe answers
# --------------------------------------------------------------------------------------------


def test_non_finite_floats_are_tagged_and_come_back() -> None:
    encoded = to_jsonable({"p": [float("nan"), float("inf"), -float("inf"), 0.5]})
    assert encoded == {
        "p": [
            {"$type": "float", "value": "NaN"},
            {"$type": "float", "value": "Infinity"},
            {"$type": "float", "value": "-Infinity"},
            0.5,
        ]
    }
    decoded = from_jsonable(json.loads(dumps(encoded)))
    assert math.isnan(decoded["p"][0]) and decoded["p"][1:] == [math.inf, -math.inf, 0.5]


def test_what_json_cannot_say_round_trips_through_tags() -> None:
    value = {
        "tuple": (1, "a"),
        "bytes": b"\x00\xff",
        "keys": {1: "one", None: "none"},
        "$type": "user data that looks like a tag",
        "big": 10**5000,
        "np": [np.int64(3), np.float32(0.5), np.bool_(True), np.str_("s")],
    }
    back = from_jsonable(json.loads(dumps(to_jsonable(value))))
    assert back["tuple"] == (1, "a") and back["bytes"] == b"\x00\xff"
    assert back["keys"] == {1: "one", None: "none"}
    assert back["$type"] == "user data that looks like a tag"
    assert back["big"] == 10**5000
    assert back["np"] == [3, 0.5, True, "s"] and type(back["np"][2]) is bool


_PLAIN = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()


@settings(max_examples=200, deadline=None)
@given(
    st.recursive(
        _PLAIN | st.integers(min_value=-(10**2000), max_value=10**2000),
        lambda inner: (
            st.lists(inner, max_size=4)
            | st.tuples(inner, inner)
            | st.dictionaries(st.text(max_size=4) | st.integers(), inner, max_size=4)
        ),
        max_leaves=30,
    )
)
def test_any_plain_value_round_trips(value: Any) -> None:
    """The fast paths for exact built-in types (ints near the 2**62 edge included) give back
    what the general path gives: the value itself after a trip through JSON text."""
    back = from_jsonable(json.loads(dumps(to_jsonable(value))))
    assert back == value and repr(back) == repr(value)


def test_objects_cycles_and_deep_nesting_become_reprs_without_addresses() -> None:
    cyclic: list[Any] = [1]
    cyclic.append(cyclic)
    deep: Any = []
    for _ in range(200):
        deep = [deep]
    encoded = to_jsonable({"o": object(), "cycle": cyclic, "deep": deep})
    assert encoded["o"] == {"$type": "repr", "value": "<object object>", "class": "object"}
    assert encoded["cycle"][1]["why"] == "refers to itself"
    dumps(encoded)  # plain JSON
    back = from_jsonable(encoded)
    assert isinstance(back["o"], Unserialisable) and back["o"].type_name == "object"


def test_a_hostile_object_is_still_recorded() -> None:
    class Hostile:
        def __repr__(self) -> str:
            raise RuntimeError("no repr")

    encoded = to_jsonable(Hostile())
    assert encoded["$type"] == "repr" and "Hostile" in encoded["value"]


_json_like = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=5)
    | st.binary(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=3) | st.integers(), inner, max_size=3)
    ),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(_json_like)
def test_any_json_like_value_survives_the_log(value: Any) -> None:
    back = from_jsonable(json.loads(dumps(to_jsonable(value))))
    assert dumps(to_jsonable(back)) == dumps(to_jsonable(value))


_QUESTION = TetrisGame("seed-09").question("IQ")


@settings(max_examples=200, deadline=None)
@given(
    st.fixed_dictionaries(
        {},
        optional={
            "stateHash": st.sampled_from([_QUESTION.state_hash, "00000000"]) | _json_like,
            "choice": st.lists(
                st.fixed_dictionaries(
                    {
                        "x": st.sampled_from([p.x for p in _QUESTION.legal]) | _json_like,
                        "rotation": st.integers(0, 3) | _json_like,
                        "p": st.floats(allow_nan=True) | _json_like,
                    }
                ),
                max_size=3,
            )
            | _json_like,
            "noul": _json_like,
            "score": _json_like,
            "costUsd": _json_like,
            "meta": _json_like,
        },
    )
    | _json_like
)
def test_a_recorded_answer_is_judged_as_the_original_was(answer: Any) -> None:
    replayed = from_jsonable(json.loads(dumps(to_jsonable(answer))))
    original, again = validate(answer, _QUESTION), validate(replayed, _QUESTION)
    assert (again.status, again.placement, again.hold) == (
        original.status,
        original.placement,
        original.hold,
    )
    assert (again.risk, again.cost_usd) == (original.risk, original.cost_usd)


def test_an_agent_answer_is_recorded_in_its_wire_form() -> None:
    answer = AgentAnswer.single("abcd1234", (3, 0), risk=0.1, cost_usd=0.002)
    assert to_jsonable(answer) == answer.to_dict()
    broken = AgentAnswer.model_construct(
        state_hash=_QUESTION.state_hash, choice=[{"x": 3, "p": math.nan}]
    )
    with warnings.catch_warnings():  # pydantic warns when dumping a model built unchecked
        warnings.simplefilter("ignore")
        original = validate(broken, _QUESTION)
        replayed = validate(from_jsonable(to_jsonable(broken)), _QUESTION)
    assert original.status == replayed.status == "invalid"


# --------------------------------------------------------------------------------------------
# Writing and reading
# --------------------------------------------------------------------------------------------


def test_game_log_refuses_an_existing_file_and_writes_whole_lines(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "g.jsonl"
    with GameLog(path) as log:
        log.write({"type": "header", "logVersion": 1})
        assert path.read_text() == '{"type":"header","logVersion":1}\n'  # flushed already
        log.write({"type": "result"})
    assert log.closed and log.lines == 2
    with pytest.raises(FileExistsError, match="never overwritten"):
        GameLog(path)
    with pytest.raises(ValueError, match="closed"):
        log.write({"type": "tick"})


def test_read_log_splits_header_events_and_result(iq_log: Path) -> None:
    header, events, result = read_log(iq_log)
    contents = read_log(iq_log)
    assert header["type"] == "header" and header["seed"] == "seed-01"
    assert [e["tick"] for e in events] == list(range(len(events)))
    assert result is not None and result["ticks"] == len(events)
    assert not contents.truncated and contents.note is None


def test_a_cut_off_last_line_is_tolerated_and_reported(iq_log: Path) -> None:
    text = iq_log.read_text()
    complete = read_log(iq_log)
    iq_log.write_text(text[:-25])  # a crash in the middle of writing the result line
    contents = read_log(iq_log)
    assert contents.truncated and "cut off" in (contents.note or "")
    assert contents.result is None and contents.events == complete.events
    report = verify_log(iq_log)
    assert not report.ok and report.decision is None
    assert "no result line" in report.message and "cut off" in report.message


def test_a_last_line_missing_only_its_newline_is_complete(iq_log: Path) -> None:
    iq_log.write_text(iq_log.read_text().rstrip("\n"))
    contents = read_log(iq_log)
    assert not contents.truncated and contents.result is not None
    assert verify_log(iq_log).ok


def test_a_broken_line_in_the_middle_is_an_error(iq_log: Path) -> None:
    lines = iq_log.read_text().splitlines()
    lines[3] = lines[3][:10]
    iq_log.write_text("\n".join(lines) + "\n")
    with pytest.raises(LogFormatError, match=":4:"):
        read_log(iq_log)
    report = verify_log(iq_log)
    assert not report.ok and "not a JSON line" in report.message


def test_a_file_without_a_header_is_not_a_log(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text('{"type": "tick"}\n')
    with pytest.raises(LogFormatError, match="header"):
        read_log(path)


# --------------------------------------------------------------------------------------------
# Verification
# --------------------------------------------------------------------------------------------


def test_untouched_iq_and_blitz_logs_verify(iq_log: Path, blitz_log: Path) -> None:
    for path in (iq_log, blitz_log):
        report = verify_log(path)
        assert report.ok, report.message
        assert report.decision is None and "decisions replay" in report.message
    outcomes = {e["blitz"]["outcome"] for e in read_log(blitz_log).events}
    assert {"in-time", "late", "locked-by-gravity", "unusable"} <= outcomes


def _first_valid_tick(path: Path, after: int = 3) -> int:
    return next(
        e["tick"]
        for e in read_log(path).events
        if e["tick"] >= after and e["verdict"]["status"] == "valid"
    )


@pytest.mark.parametrize("which", ["iq", "blitz"])
def test_an_edited_answer_fails_at_its_tick(which: str, iq_log: Path, blitz_log: Path) -> None:
    path = iq_log if which == "iq" else blitz_log
    tick = _first_valid_tick(path)

    def move(record: dict[str, Any]) -> None:
        record["call"]["answer"]["choice"][0]["x"] += 1

    _edit(path, tick, move)
    report = verify_log(path)
    assert not report.ok and report.decision == tick
    assert "verdict" in report.message


def test_an_answer_edited_consistently_fails_at_the_next_tick(iq_log: Path) -> None:
    """Change answer, verdict and played together: the tick is self-consistent, but the game
    it leads to is not the recorded one."""
    events = read_log(iq_log).events
    tick = _first_valid_tick(iq_log)
    game = TetrisGame("seed-01", piece_cap=25)
    for event in events[:tick]:  # reach the question of `tick` by replaying the log
        asked = game.question("IQ")
        ok = event["call"]["status"] == "ok"
        verdict = validate(from_jsonable(event["call"]["answer"]), asked) if ok else None
        apply_decision(game, "IQ", verdict)
    q = game.question("IQ")
    recorded = events[tick]["played"]
    other = next(p for p in q.legal if p.to_dict() != recorded)

    def swap(record: dict[str, Any]) -> None:
        record["call"]["answer"] = {
            "stateHash": q.state_hash,
            "choice": [other.to_dict() | {"p": 1}],
        }
        record["verdict"]["placement"] = other.to_dict()
        record["played"] = other.to_dict()
        record["risk"] = None

    _edit(iq_log, tick, swap)
    report = verify_log(iq_log)
    assert not report.ok and report.decision in (tick, tick + 1)


@pytest.mark.parametrize("which", ["iq", "blitz"])
def test_an_edited_hash_fails_at_its_tick(which: str, iq_log: Path, blitz_log: Path) -> None:
    path = iq_log if which == "iq" else blitz_log

    def rehash(record: dict[str, Any]) -> None:
        record["stateHash"] = "deadbeef"

    _edit(path, 5, rehash)
    report = verify_log(path)
    assert (report.ok, report.decision) == (False, 5)
    assert "stateHash" in report.message


def test_an_edited_score_fails(iq_log: Path) -> None:
    def inflate(record: dict[str, Any]) -> None:
        record["scoreAfter"] += 100

    _edit(iq_log, 4, inflate)
    report = verify_log(iq_log)
    assert (report.ok, report.decision) == (False, 4)


def test_an_edited_result_fails_outside_the_ticks(iq_log: Path) -> None:
    iq_log.write_text(
        iq_log.read_text().replace(
            '"type":"result","endReason"', '"type":"result","x":0,"endReason"'
        )
    )
    assert verify_log(iq_log).ok  # unknown extra keys are not a divergence
    text = iq_log.read_text()
    result = json.loads(text.splitlines()[-1])
    result["score"] += 1
    iq_log.write_text("\n".join([*text.splitlines()[:-1], dumps(result)]) + "\n")
    report = verify_log(iq_log)
    assert not report.ok and report.decision is None
    assert "result score" in report.message


def test_an_edited_blitz_elapsed_time_fails_at_its_tick(blitz_log: Path) -> None:
    def slower(record: dict[str, Any]) -> None:
        record["call"]["elapsedMs"] = 100000.0

    _edit(blitz_log, 0, slower)
    report = verify_log(blitz_log)
    assert (report.ok, report.decision) == (False, 0)


def test_verify_paths_takes_files_and_directories(iq_log: Path, blitz_log: Path) -> None:
    reports = verify_paths([iq_log.parent])
    assert [Path(r.path).name for r in reports] == ["blitz.jsonl", "iq.jsonl"]
    assert all(r.ok for r in reports)
    assert [r.ok for r in verify_paths([iq_log])] == [True]
    with pytest.raises(FileNotFoundError):
        verify_paths([iq_log.parent / "missing"])


def test_cli_verify_exit_codes(
    iq_log: Path, blitz_log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", str(iq_log.parent)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 2 and all(line.startswith("OK") for line in out)

    def rehash(record: dict[str, Any]) -> None:
        record["stateHash"] = "deadbeef"

    _edit(blitz_log, 2, rehash)
    assert main(["verify", str(iq_log), str(blitz_log)]) == 1
    out = capsys.readouterr().out
    assert f"FAIL  {blitz_log} at decision 2: stateHash" in out
    assert "1 of 2 logs failed" in out

    assert main(["verify", str(iq_log.parent / "nope.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "nope.jsonl does not exist" in err and err.count("\n") == 1

    empty = iq_log.parent / "empty"
    empty.mkdir()
    assert main(["verify", str(empty)]) == 2
    assert "no *.jsonl or *.jsonl.xz logs" in capsys.readouterr().err


def _as_version_1(path: Path) -> None:
    """Rewrite a current log in the layout of logVersion 1 (tick lines, answer at the top)."""
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    header = lines[0]
    settings = header["settings"]
    old = [
        {
            "type": "header",
            "ruleset": header["versions"]["ruleset"],
            "seed": header["seed"],
            "mode": settings["mode"],
            "brain": header["policy"],
            "packageVersion": header["packageVersion"],
            "startedAt": "2026-11-01T00:00:00.000Z",
            "budgetMs": settings["budgetMs"],
            "pieceCap": settings["pieceCap"],
            "tickCap": settings["tickCap"],
            "clock": settings["clock"],
            "logVersion": 1,
        }
    ]
    for event in lines[1:-1]:
        call = event["call"]
        tick = {
            "type": "tick",
            "tick": event["tick"],
            "stateHash": event["stateHash"],
            "answer": call["answer"],
            "verdict": event["verdict"],
            "call": {"status": call["status"], "error": call["error"]},
            "played": event["played"],
            "hold": event["hold"],
            "risk": event["risk"],
            "latencyMs": 1.5,
            "costUsd": event["costUsd"],
        }
        if "blitz" in event:
            tick["blitz"] = {**event["blitz"], "elapsedMs": call["elapsedMs"]}
        tick["scoreAfter"] = event["scoreAfter"]
        old.append(tick)
    old.append(lines[-1])
    path.write_text("".join(dumps(record) + "\n" for record in old))


def test_logs_of_version_1_still_verify_and_an_edit_still_fails(
    iq_log: Path, blitz_log: Path
) -> None:
    for path in (iq_log, blitz_log):
        _as_version_1(path)
        assert read_log(path).header["logVersion"] == 1
        report = verify_log(path)
        assert report.ok, report.message
    lines = iq_log.read_text().splitlines()
    tick = json.loads(lines[4])
    tick["stateHash"] = "deadbeef"
    lines[4] = dumps(tick)
    iq_log.write_text("\n".join(lines) + "\n")
    report = verify_log(iq_log)
    assert (report.ok, report.decision) == (False, 3)

"""play_tetris: IQ and Blitz games, bad answers classified, adapter failure, caps, the record."""

from __future__ import annotations

import asyncio
import json
import signal
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from arcade_gym.core.clock import SimulatedClock
from arcade_gym.tetris.contract import AgentAnswer, AgentInput, ChoiceEntry
from arcade_gym.tetris.game import TetrisGame
from arcade_gym.tetris.rules import RULESET_ID
from evaluation.benchmarks.tetris_bench.episode import play_tetris, time_to_lock_ms
from evaluation.core.eventlog import read_log
from evaluation.core.verify import verify_log
from policies.base import DecisionContext, PolicyIdentity


class _Base(PolicyIdentity):
    def __init__(self, slug: str = "test") -> None:
        super().__init__(slug=slug, name=slug.title(), description="a test brain", kind="baseline")


class First(_Base):
    """The first listed candidate (the list is shuffled, so this is a seeded random brain)."""

    def act(self, q: AgentInput, ctx: DecisionContext) -> Any:
        return AgentAnswer.single(q.state_hash, q.legal[0])


class Flat(_Base):
    """Keeps the stack low: a brain that survives long enough to reach the caps."""

    def act(self, q: AgentInput, ctx: DecisionContext) -> Any:
        best = min(
            q.candidates,
            key=lambda c: (c.features.holes, c.features.max_height, c.features.bumpiness),
        )
        return AgentAnswer.single(q.state_hash, best.placement)


class Scripted(_Base):
    """Answers from a per-tick script of `f(question) -> answer` (the last one repeats)."""

    def __init__(self, script: list[Callable[[AgentInput], Any]]) -> None:
        super().__init__("scripted")
        self.script = script

    def act(self, q: AgentInput, ctx: DecisionContext) -> Any:
        return self.script[min(q.tick, len(self.script) - 1)](q)


def valid(q: AgentInput) -> Any:
    return AgentAnswer.single(q.state_hash, q.legal[0])


def raise_(q: AgentInput) -> Any:
    raise RuntimeError("adapter bug")


def nan_p(q: AgentInput) -> Any:
    return {"stateHash": q.state_hash, "choice": [{"x": 3, "rotation": 0, "p": float("nan")}]}


def stale(q: AgentInput) -> Any:
    return AgentAnswer.single("00000000", q.legal[0])


def garbage(q: AgentInput) -> Any:
    return object()


def _ticks(path: Path) -> list[dict[str, Any]]:
    return read_log(path).events


def _classes(path: Path) -> list[str]:
    return [e["verdict"]["status"] for e in _ticks(path)]


def test_a_first_candidate_brain_plays_an_iq_game_to_the_end(tmp_path: Path) -> None:
    log = tmp_path / "iq.jsonl"
    result = play_tetris(First(), "seed-01", "IQ", log)
    header, events, end = read_log(log)
    assert end is not None
    assert result.end_reason == end["endReason"] == "top-out"
    assert (result.score, result.lines, result.pieces, result.ticks, result.level) == (
        end["score"],
        end["lines"],
        end["pieces"],
        end["ticks"],
        end["level"],
    )
    assert result.decisions == result.ticks == len(events) == len(result.latencies_ms)
    assert result.invalid == result.stale == result.errors == result.timeouts == 0
    assert result.cost_usd is None and result.priced_calls == 0
    assert result.unpriced_calls == 0  # a local brain has no price to miss
    assert result.log_path == str(log)
    assert header["policy"] == First().identity()
    settings = header["settings"]
    assert settings["mode"] == "IQ" and settings["budgetMs"] == 20000
    assert settings["pieceCap"] == 500 and settings["tickCap"] == 10000
    assert "startedAt" not in header and header["logVersion"] == 2
    assert (header["benchmark"], header["versions"]) == ("tetris-bench", {"ruleset": RULESET_ID})
    assert all("blitz" not in e for e in events)
    assert events[-1]["scoreAfter"] == result.score
    assert verify_log(log).ok


@pytest.mark.parametrize(
    ("bad", "klass", "counter"),
    [(raise_, "error", "errors"), (nan_p, "invalid", "invalid"), (stale, "stale", "stale")],
)
def test_three_unusable_answers_in_a_row_end_the_game_as_adapter_failure(
    tmp_path: Path, bad: Callable[[AgentInput], Any], klass: str, counter: str
) -> None:
    log = tmp_path / "g.jsonl"
    result = play_tetris(Scripted([valid, valid, bad]), "seed-02", "IQ", log)
    assert result.end_reason == "adapter failure"
    assert result.ticks == 5 and result.pieces == 2
    assert getattr(result, counter) == 3
    assert _classes(log) == ["valid", "valid", klass, klass, klass]
    assert verify_log(log).ok


def test_every_kind_of_bad_answer_is_recorded_and_a_valid_one_resets_the_count(
    tmp_path: Path,
) -> None:
    script = [garbage, nan_p, valid, stale, raise_, valid, lambda q: "{not json", valid]
    script += [lambda q: None, garbage]  # then junk until the third in a row
    log = tmp_path / "mixed.jsonl"
    result = play_tetris(Scripted(script), "seed-03", "IQ", log)
    assert _classes(log) == [
        "invalid",
        "invalid",
        "valid",
        "stale",
        "error",
        "valid",
        "invalid",
        "valid",
        "invalid",
        "invalid",
        "invalid",
    ]
    assert result.end_reason == "adapter failure"
    assert (result.invalid, result.stale, result.errors, result.timeouts) == (6, 1, 1, 0)
    # Latencies are kept for calls that came back (the exception's is not).
    assert len(result.latencies_ms) == result.decisions - 1
    events = _ticks(log)
    assert events[0]["call"]["answer"] == {
        "$type": "repr",
        "value": events[0]["call"]["answer"]["value"],
        "class": "object",
    }
    assert events[1]["call"]["answer"]["choice"][0]["p"] == {"$type": "float", "value": "NaN"}
    call = events[4]["call"]
    assert (call["status"], call["error"]) == ("error", "RuntimeError: adapter bug")
    assert call["answer"] is None and events[4]["played"] is None
    assert events[2]["played"] is not None and events[3]["played"] is None
    assert verify_log(log).ok


def test_a_policy_sleeping_past_a_short_budget_times_out_three_times(tmp_path: Path) -> None:
    seen_cancel = threading.Event()

    class Sleepy(_Base):
        def act(self, q: AgentInput, ctx: DecisionContext) -> Any:
            assert ctx.budget_ms == 40 and ctx.deadline is not None
            if ctx.cancelled.wait(2.0):
                seen_cancel.set()
            return valid(q)

    log = tmp_path / "sleepy.jsonl"
    result = play_tetris(Sleepy(), "seed-04", "IQ", log, budget_ms=40)
    assert result.end_reason == "adapter failure"
    assert result.timeouts == 3 and result.ticks == 3 and result.latencies_ms == []
    events = _ticks(log)
    assert [e["call"]["status"] for e in events] == ["timeout"] * 3
    assert events[0]["verdict"]["reason"] == "no answer within 40 ms"
    assert seen_cancel.wait(2.0)
    assert verify_log(log).ok


def test_async_policies_play_and_a_slow_one_is_cancelled(tmp_path: Path) -> None:
    cancelled: list[int] = []

    class AsyncBrain(_Base):
        async def act_async(self, q: AgentInput, ctx: DecisionContext) -> Any:
            if q.tick >= 4:
                try:
                    await asyncio.sleep(5)
                except asyncio.CancelledError:
                    cancelled.append(q.tick)
                    raise
            await asyncio.sleep(0)
            return valid(q)

    log = tmp_path / "async.jsonl"
    result = play_tetris(AsyncBrain(), "seed-05", "IQ", log, budget_ms=50)
    assert result.end_reason == "adapter failure"
    assert _classes(log) == ["valid"] * 4 + ["timeout"] * 3
    assert cancelled == [4, 5, 6]
    assert verify_log(log).ok


def test_both_caps_end_the_game_as_piece_cap_and_the_detail_names_the_cap(
    tmp_path: Path,
) -> None:
    capped = play_tetris(Flat(), "seed-06", "IQ", tmp_path / "p.jsonl", piece_cap=8)
    assert (capped.end_reason, capped.pieces, capped.ticks) == ("piece cap", 8, 8)
    assert capped.cap_detail == "piece cap"
    ticked = play_tetris(
        Scripted([valid, garbage, valid]), "seed-06", "IQ", tmp_path / "t.jsonl", tick_cap=5
    )
    # The protocol's table: a game stopped at the tick cap ends "piece cap".
    assert (ticked.end_reason, ticked.ticks, ticked.pieces) == ("piece cap", 5, 4)
    assert ticked.cap_detail == "tick cap"
    result = read_log(tmp_path / "t.jsonl").result
    assert result is not None and result["endReason"] == "piece cap"
    assert result["capDetail"] == "tick cap"
    assert read_log(tmp_path / "p.jsonl").header["settings"]["pieceCap"] == 8
    assert verify_log(tmp_path / "p.jsonl").ok and verify_log(tmp_path / "t.jsonl").ok


def test_cost_and_risk_are_collected_and_risks_paired_with_the_top_out(tmp_path: Path) -> None:
    class Reporting(_Base):
        def act(self, q: AgentInput, ctx: DecisionContext) -> Any:
            cost = 0.001 if q.tick % 2 == 0 else None
            return AgentAnswer.single(q.state_hash, q.legal[0], risk=0.25, cost_usd=cost)

    log = tmp_path / "r.jsonl"
    result = play_tetris(Reporting(), "seed-01", "IQ", log)
    assert result.end_reason == "top-out"
    assert result.priced_calls == (result.decisions + 1) // 2
    assert result.unpriced_calls == 0  # not an LLM: nothing priced is missing
    assert result.cost_usd == pytest.approx(0.001 * result.priced_calls)
    assert len(result.risks) == result.decisions
    outcomes = [o for _, o in result.risks]
    # Questions asked with at most ten pieces to go before the top-out are the positives.
    events = _ticks(log)
    pieces_at = [0] + [1 + i for i in range(len(events) - 1)]  # one piece per tick here
    assert outcomes == [result.pieces - p <= 10 for p in pieces_at]
    assert outcomes[0] is False and outcomes[-1] is True
    assert events[0]["risk"] == 0.25 and events[0]["costUsd"] == 0.001
    assert events[1]["costUsd"] is None


def test_a_hold_is_applied_and_logged(tmp_path: Path) -> None:
    def hold(q: AgentInput) -> Any:
        return AgentAnswer.single(q.state_hash, q.legal[0], hold=True)

    log = tmp_path / "h.jsonl"
    play_tetris(Scripted([hold, valid]), "seed-01", "IQ", log, piece_cap=3)
    first, second = _ticks(log)[:2]
    assert first["hold"] is True and first["played"] is None
    assert first["verdict"]["status"] == "valid"
    assert second["hold"] is False and second["played"] is not None
    assert verify_log(log).ok


def test_blitz_with_no_latency_answers_everything_in_time(tmp_path: Path) -> None:
    log = tmp_path / "b0.jsonl"
    result = play_tetris(First(), "seed-01", "Blitz", log, clock=SimulatedClock(0.0))
    assert result.blitz_in_time == result.ticks == result.pieces
    assert result.blitz_late == result.blitz_unreachable == result.blitz_locked == 0
    events = _ticks(log)
    assert all(e["blitz"] == {"outcome": "in-time", "rowsFallen": 0} for e in events)
    assert all(e["call"]["elapsedMs"] == 0.0 for e in events)
    settings = read_log(log).header["settings"]
    assert settings["mode"] == "Blitz" and settings["budgetMs"] is None
    assert settings["clock"] == "SimulatedClock"
    assert verify_log(log).ok


def test_blitz_gives_the_policy_no_budget(tmp_path: Path) -> None:
    budgets: list[float | None] = []

    class Recording(_Base):
        def act(self, q: AgentInput, ctx: DecisionContext) -> Any:
            budgets.append(ctx.budget_ms)
            assert q.mode == "Blitz"
            return valid(q)

    play_tetris(Recording(), "seed-01", "Blitz", tmp_path / "b.jsonl", piece_cap=3)
    assert budgets == [None, None, None]


def test_blitz_with_a_huge_latency_locks_every_piece_by_gravity(tmp_path: Path) -> None:
    log = tmp_path / "slow.jsonl"
    result = play_tetris(First(), "seed-01", "Blitz", log, clock=SimulatedClock(1e6))
    # Never an adapter failure: the brain answered validly, gravity was just faster.
    assert result.end_reason == "top-out"
    assert result.blitz_locked == result.ticks == result.pieces > 0
    assert result.blitz_in_time == result.blitz_late == 0
    assert all(e["played"] is None for e in _ticks(log))
    assert verify_log(log).ok


def test_blitz_with_a_moderate_latency_plays_late(tmp_path: Path) -> None:
    log = tmp_path / "late.jsonl"
    result = play_tetris(Flat(), "seed-01", "Blitz", log, clock=SimulatedClock(1500), piece_cap=12)
    assert result.blitz_late == result.ticks == 12
    assert all(e["blitz"]["rowsFallen"] == 1 for e in _ticks(log))
    assert verify_log(log).ok


def test_blitz_scripted_latency_makes_a_placement_unreachable(tmp_path: Path) -> None:
    """Six pieces build a tower at columns 6-7 in time; then the brain wants the far right, but
    the answer arrives after the piece has fallen below the tower's top."""

    class Tower(_Base):
        def act(self, q: AgentInput, ctx: DecisionContext) -> Any:
            if q.tick < 6:
                best = max(
                    q.candidates,
                    key=lambda c: (
                        c.features.heights[6] + c.features.heights[7],
                        -c.placement.x,
                        -c.placement.rotation,
                    ),
                )
                return AgentAnswer.single(q.state_hash, best.placement)
            right = max(q.legal, key=lambda p: (p.x, -p.rotation))
            return AgentAnswer.single(q.state_hash, right)

    log = tmp_path / "unreachable.jsonl"
    clock = SimulatedClock([0.0] * 6 + [9000.0])
    result = play_tetris(Tower(), "seed-01", "Blitz", log, clock=clock, piece_cap=40)
    assert result.blitz_in_time == 6
    assert result.blitz_unreachable >= 1 and result.blitz_locked >= 1
    events = _ticks(log)
    assert events[6]["blitz"]["outcome"] == "unreachable"
    assert events[6]["verdict"]["status"] == "valid" and events[6]["played"] is None
    assert events[7]["tick"] == 7 and events[7]["blitz"]["outcome"] == "locked-by-gravity"
    assert result.end_reason == "top-out"
    assert verify_log(log).ok


def test_time_to_lock_counts_rows_to_the_stack_and_accumulated_gravity() -> None:
    game = TetrisGame("seed-01")
    limit = time_to_lock_ms(game)
    # From y = -1 the piece falls 19 rows to the floor; the 20th gravity step locks it.
    assert limit == game.board.shape[0] * game.gravity_ms()
    before = game.copy()
    assert before.blitz_answer(None, False, limit - 1).outcome.value == "unusable"
    assert game.copy().blitz_answer(None, False, limit).outcome.value == "locked-by-gravity"
    game.fall(500.0)
    assert time_to_lock_ms(game) == limit - 500.0


def test_blitz_with_the_wall_clock_and_a_fast_brain_is_in_time(tmp_path: Path) -> None:
    result = play_tetris(Flat(), "seed-01", "Blitz", tmp_path / "w.jsonl", piece_cap=10)
    assert result.blitz_in_time == 10
    assert verify_log(tmp_path / "w.jsonl").ok


def test_logs_are_flushed_line_by_line(tmp_path: Path) -> None:
    log = tmp_path / "live.jsonl"
    seen: list[int] = []

    class Reader(_Base):
        def act(self, q: AgentInput, ctx: DecisionContext) -> Any:
            lines = log.read_text().splitlines()
            assert all(json.loads(line) for line in lines)
            seen.append(len(lines))
            return valid(q)

    play_tetris(Reader(), "seed-01", "IQ", log, piece_cap=6)
    assert seen == [1, 2, 3, 4, 5, 6]  # header + every earlier tick, while the game runs


@pytest.mark.usefixtures("ctrl_c_raises")
def test_ctrl_c_leaves_a_valid_log_and_propagates(tmp_path: Path) -> None:
    log = tmp_path / "int.jsonl"

    class Interrupting(_Base):
        def act(self, q: AgentInput, ctx: DecisionContext) -> Any:
            if q.tick == 3:
                # Ctrl-C reaches the main thread, as a terminal's does (a process-wide kill may land
                # on this thread, and the main thread then sees it only after this answer)
                signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)
                ctx.cancelled.wait(2.0)
            return valid(q)

    with pytest.raises(KeyboardInterrupt):
        play_tetris(Interrupting(), "seed-01", "IQ", log)
    contents = read_log(log)
    assert not contents.truncated
    assert contents.result == {"type": "result", "endReason": "interrupted", "decisions": 3}
    assert [e["tick"] for e in contents.events] == [0, 1, 2]
    report = verify_log(log)
    assert report.status == "incomplete" and "interrupted at decision 3" in report.message


def test_an_existing_log_is_never_overwritten(tmp_path: Path) -> None:
    log = tmp_path / "old.jsonl"
    log.write_text("precious\n")
    with pytest.raises(FileExistsError, match="never overwritten"):
        play_tetris(First(), "seed-01", "IQ", log)
    assert log.read_text() == "precious\n"


def test_a_bad_mode_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="mode"):
        play_tetris(First(), "seed-01", "Sprint", tmp_path / "x.jsonl")
    assert not (tmp_path / "x.jsonl").exists()


@pytest.mark.parametrize(
    ("mode", "clock"), [("IQ", None), ("Blitz", SimulatedClock([0.0, 1500.0, 3000.0, 700.0]))]
)
def test_the_same_seed_and_policy_give_byte_identical_logs(
    tmp_path: Path, mode: str, clock: SimulatedClock | None
) -> None:
    def clock_copy() -> SimulatedClock | None:
        return None if clock is None else SimulatedClock([0.0, 1500.0, 3000.0, 700.0])

    script = [valid, garbage, valid, nan_p, valid, stale, valid]
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first = play_tetris(Scripted(script), "seed-07", mode, a, clock=clock_copy(), piece_cap=30)
    play_tetris(Scripted(script), "seed-07", mode, b, clock=clock_copy(), piece_cap=30)
    assert a.read_bytes() == b.read_bytes()
    assert "latencyMs" not in a.read_text() and first.latencies_ms  # timings go to results


def test_a_policy_with_choice_entries_built_by_hand_is_judged_like_any_other(
    tmp_path: Path,
) -> None:
    def spread(q: AgentInput) -> Any:
        entries = [ChoiceEntry(x=p.x, rotation=p.rotation, p=0.5) for p in q.legal[:2]]
        return AgentAnswer(state_hash=q.state_hash, choice=entries)

    log = tmp_path / "s.jsonl"
    result = play_tetris(Scripted([spread]), "seed-08", "IQ", log, piece_cap=5)
    assert result.end_reason == "piece cap" and result.invalid == 0
    assert verify_log(log).ok


def test_a_policy_mutating_its_question_is_judged_against_what_was_asked(tmp_path: Path) -> None:
    class Vandal(_Base):
        def act(self, q: AgentInput, ctx: DecisionContext) -> Any:
            answer = valid(q)
            q.state_hash = "00000000"
            q.legal.clear()
            q.can_hold = not q.can_hold
            return answer

    log = tmp_path / "v.jsonl"
    result = play_tetris(Vandal(), "seed-01", "IQ", log, piece_cap=5)
    assert result.end_reason == "piece cap" and result.invalid == result.stale == 0
    assert verify_log(log).ok

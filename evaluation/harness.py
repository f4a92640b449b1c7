"""Play one Tetris Bench game (`tetris-bench@3`) with any policy, under the IQ or Blitz protocol.

Each tick: build the question, call the policy (`evaluation.policy_call`), validate the answer
against the question, classify the tick (valid, invalid, stale, error, timeout), play / hold /
skip, and append the tick to the event log. The rules of the protocol are the seed's
(`shared/seeds/000_*.txt`) and `shared/RULES.md` ("Blitz, precisely"); where they are silent:

- Blitz: a call is cut off when the piece would lock (the only clock is the falling piece). Such a
  tick is recorded as a `timeout` call and a `locked-by-gravity` outcome, and it does *not* count
  towards adapter failure: a brain too slow for the level is slow, not broken, and its game ends
  the way slow Blitz games end, by topping out. It does not reset the count either. Unreachable
  and late answers were valid answers, so they reset it.
- A hold accepted in Blitz counts as answered in time when gravity had not moved the piece, else
  as late (the answer was accepted either way).
- Risks are scored from valid answers only (a stale answer's risk is about another position); a
  risk's outcome is "the game ended by top-out at most ten locked pieces after the question".
- Latencies are those of calls that returned (`ok`); exceptions and timeouts are excluded. Calls
  that report no `costUsd` are counted as unpriced, whatever happened to them.

`apply_decision` and `unusable_streak_step` are shared with `evaluation.verify`, so a replay applies
exactly what the game applied.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from arcade_gym.core.clock import Clock, WallClock
from arcade_gym.tetris import engine as E
from arcade_gym.tetris.contract import Verdict, validate
from arcade_gym.tetris.game import BlitzOutcome, BlitzResult, TetrisGame
from arcade_gym.tetris.rules import END_ADAPTER_FAILURE, PIECE_CAP, RULESET_ID, TICK_CAP
from evaluation.logs import GameLog, header_event, result_event, to_jsonable
from evaluation.policy_call import CallOutcome, call_policy
from evaluation.records import GameResult
from policies.base import AsyncPolicy, DecisionContext, Policy

Mode = Literal["IQ", "Blitz"]
TickClass = Literal["valid", "invalid", "stale", "error", "timeout"]

UNUSABLE_LIMIT = 3
"""Unusable answers in a row that end a game as `adapter failure`."""

RISK_HORIZON = 10
"""A risk is P(top-out within the next this-many pieces)."""

DEFAULT_BUDGET_MS = 20_000.0


def normalise_mode(mode: str) -> Mode:
    """`"IQ"` or `"Blitz"` (case-insensitive input); anything else is a caller's mistake."""
    lowered = str(mode).lower()
    if lowered == "iq":
        return "IQ"
    if lowered == "blitz":
        return "Blitz"
    raise ValueError(f"mode must be 'IQ' or 'Blitz', got {mode!r}")


def time_to_lock_ms(game: TetrisGame) -> float:
    """Milliseconds until gravity locks the piece in play where it would land.

    It falls `rows` rows, one per gravity interval, and the next step locks it; the time already
    accumulated towards the next row counts.
    """
    t, x, y, r = game.active
    rows = int(E.drop_distance(game.board, t, x, y, r))
    return float((rows + 1) * game.gravity_ms() - int(game.st[E.S_GRAVITY_MS]))


def classify(call: CallOutcome, verdict: Verdict | None) -> TickClass:
    """The tick's class: the verdict when the call answered, else the call's failure."""
    if call.status == "ok" and verdict is not None:
        return verdict.status
    return "timeout" if call.status == "timeout" else "error"


def unusable_streak_step(streak: int, tick_class: str, mode: Mode) -> int:
    """The unusable-answer count after one tick (see the module docstring for Blitz timeouts)."""
    if tick_class == "valid":
        return 0
    if tick_class == "timeout" and mode == "Blitz":
        return streak
    return streak + 1


@dataclass(frozen=True)
class Applied:
    """What one tick did to the game."""

    played: tuple[int, int] | None
    hold: bool
    blitz: BlitzResult | None = None


def apply_decision(
    game: TetrisGame, mode: Mode, verdict: Verdict | None, elapsed_ms: float | None = None
) -> Applied:
    """Apply a judged answer (None: the call gave none) as the protocol says; one tick."""
    usable = verdict is not None and verdict.usable and verdict.placement is not None
    placement = None
    hold = False
    if usable:
        assert verdict is not None and verdict.placement is not None
        placement = (verdict.placement.x, verdict.placement.rotation)
        hold = verdict.hold
    if mode == "IQ":
        if placement is None:
            game.skip()
            return Applied(None, False)
        if hold:
            game.hold()
            return Applied(None, True)
        game.play(*placement)
        return Applied(placement, False)
    if elapsed_ms is None:
        raise ValueError("a Blitz decision needs the elapsed time")
    result = game.blitz_answer(placement, hold, elapsed_ms)
    played = placement if result.outcome in (BlitzOutcome.IN_TIME, BlitzOutcome.LATE) else None
    return Applied(played, result.outcome == BlitzOutcome.HELD, result)


def policy_identity(policy: object) -> dict[str, Any]:
    """The brain block of the log: `identity()` when the policy has one, else its attributes."""
    identity = getattr(policy, "identity", None)
    if callable(identity):
        try:
            out = identity()
        except Exception:
            out = None
        if isinstance(out, Mapping):
            return dict(out)
    fallback = type(policy).__name__
    brain: dict[str, Any] = {
        "slug": str(getattr(policy, "slug", fallback.lower())),
        "name": str(getattr(policy, "name", fallback)),
        "description": str(getattr(policy, "description", "")),
        "kind": str(getattr(policy, "kind", "baseline")),
        "adapterVersion": str(getattr(policy, "adapter_version", "1")),
    }
    for key in ("provider", "model"):
        value = getattr(policy, key, None)
        if value is not None:
            brain[key] = str(value)
    return brain


def _tick_event(
    *,
    tick: int,
    state_hash: str,
    call: CallOutcome,
    verdict: Verdict | None,
    tick_class: TickClass,
    applied: Applied,
    elapsed_ms: float | None,
    score_after: int,
) -> dict[str, Any]:
    if verdict is not None:
        verdict_block: dict[str, Any] = {
            "status": verdict.status,
            "reason": verdict.reason,
            "notes": list(verdict.notes),
            "placement": None if verdict.placement is None else verdict.placement.to_dict(),
        }
    else:
        verdict_block = {"status": tick_class, "reason": call.error, "notes": [], "placement": None}
    event: dict[str, Any] = {
        "type": "tick",
        "tick": tick,
        "stateHash": state_hash,
        "answer": to_jsonable(call.answer) if call.status == "ok" else None,
        "verdict": verdict_block,
        "call": {"status": call.status, "error": call.error},
        "played": None
        if applied.played is None
        else {"x": applied.played[0], "rotation": applied.played[1]},
        "hold": applied.hold,
        "risk": None if verdict is None else verdict.risk,
        "latencyMs": round(call.latency_ms, 3) if math.isfinite(call.latency_ms) else None,
        "costUsd": None if verdict is None else verdict.cost_usd,
    }
    if applied.blitz is not None:
        event["blitz"] = {
            "outcome": applied.blitz.outcome.value,
            "rowsFallen": applied.blitz.rows_fallen,
            "elapsedMs": elapsed_ms,
        }
    event["scoreAfter"] = score_after
    return event


def _count_blitz(result: GameResult, blitz: BlitzResult) -> None:
    outcome = blitz.outcome
    if outcome == BlitzOutcome.HELD:
        outcome = BlitzOutcome.IN_TIME if blitz.rows_fallen == 0 else BlitzOutcome.LATE
    if outcome == BlitzOutcome.IN_TIME:
        result.blitz_in_time += 1
    elif outcome == BlitzOutcome.LATE:
        result.blitz_late += 1
    elif outcome == BlitzOutcome.UNREACHABLE:
        result.blitz_unreachable += 1
    elif outcome == BlitzOutcome.LOCKED_BY_GRAVITY:
        result.blitz_locked += 1


def play_tetris(
    policy: Policy | AsyncPolicy,
    seed: str,
    mode: str,
    log_path: str | Path,
    *,
    budget_ms: float = DEFAULT_BUDGET_MS,
    clock: Clock | None = None,
    piece_cap: int = PIECE_CAP,
    tick_cap: int = TICK_CAP,
) -> GameResult:
    """Play one game of `seed` in `mode` ("IQ" or "Blitz"), recording it at `log_path`.

    IQ: gravity waits; each call may take `budget_ms`. Blitz: gravity acts for the time `clock`
    measures (default: the wall clock; a `SimulatedClock` makes a run reproducible) and a call is
    cut off when the piece would lock. The log is written line by line; on Ctrl-C it is left valid
    up to its last full line and the interrupt propagates. The log path must not exist yet.
    """
    mode_ = normalise_mode(mode)
    if not budget_ms > 0:
        raise ValueError(f"budget_ms must be > 0, got {budget_ms!r}")
    game = TetrisGame(seed, piece_cap=piece_cap, tick_cap=tick_cap)
    the_clock: Clock = clock if clock is not None else WallClock()
    brain = policy_identity(policy)
    result = GameResult(
        ruleset=RULESET_ID,
        seed=seed,
        mode=mode_,
        brain=brain,
        end_reason="",
        score=0,
        lines=0,
        pieces=0,
        ticks=0,
        level=game.level,
        log_path=str(log_path),
    )
    risks: list[tuple[int, float]] = []
    cost = 0.0
    streak = 0
    with GameLog(log_path) as log:
        log.write(
            header_event(
                ruleset=RULESET_ID,
                seed=seed,
                mode=mode_,
                brain=brain,
                budget_ms=budget_ms if mode_ == "IQ" else None,
                piece_cap=piece_cap,
                tick_cap=tick_cap,
                clock=type(the_clock).__name__ if mode_ == "Blitz" else None,
            )
        )
        while not game.over:
            question = game.question(mode_)
            # The policy may mutate what it is given; judge against what was asked.
            asked = question.model_copy(update={"legal": list(question.legal)})
            pieces_before = game.pieces
            elapsed: float | None = None
            if mode_ == "IQ":
                ctx = DecisionContext.with_budget(budget_ms)
                call = call_policy(policy, question, ctx, budget_ms)
            else:
                limit = time_to_lock_ms(game)
                ctx = DecisionContext(budget_ms=None)
                the_clock.start()
                call = call_policy(policy, question, ctx, limit)
                elapsed = float(the_clock.elapsed_ms())
                if call.status == "timeout":
                    elapsed = max(elapsed, limit)
            result.decisions += 1
            verdict = validate(call.answer, asked) if call.status == "ok" else None
            tick_class = classify(call, verdict)
            applied = apply_decision(game, mode_, verdict, elapsed)
            streak = unusable_streak_step(streak, tick_class, mode_)
            if streak >= UNUSABLE_LIMIT and not game.over:
                game.end(END_ADAPTER_FAILURE)

            if call.status == "ok":
                result.latencies_ms.append(call.latency_ms)
            if tick_class == "invalid":
                result.invalid += 1
            elif tick_class == "stale":
                result.stale += 1
            elif tick_class == "error":
                result.errors += 1
            elif tick_class == "timeout":
                result.timeouts += 1
            if verdict is not None and verdict.cost_usd is not None:
                cost += verdict.cost_usd
                result.priced_calls += 1
            else:
                result.unpriced_calls += 1
            if verdict is not None and verdict.usable and verdict.risk is not None:
                risks.append((pieces_before, verdict.risk))
            if applied.blitz is not None:
                _count_blitz(result, applied.blitz)

            log.write(
                _tick_event(
                    tick=asked.tick,
                    state_hash=asked.state_hash,
                    call=call,
                    verdict=verdict,
                    tick_class=tick_class,
                    applied=applied,
                    elapsed_ms=elapsed,
                    score_after=game.score,
                )
            )
        log.write(
            result_event(
                end_reason=game.end_reason,
                score=game.score,
                lines=game.lines,
                pieces=game.pieces,
                ticks=game.tick,
                level=game.level,
            )
        )
    topped_out = game.end_reason == "top-out"
    result.end_reason = str(game.end_reason)
    result.score = game.score
    result.lines = game.lines
    result.pieces = game.pieces
    result.ticks = game.tick
    result.level = game.level
    result.cost_usd = cost if result.priced_calls else None
    result.risks = [
        (risk, topped_out and game.pieces - before <= RISK_HORIZON) for before, risk in risks
    ]
    return result

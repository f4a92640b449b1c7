"""One Tetris Bench game (`tetris-bench@3`) under the IQ or Blitz protocol, as an episode of the
one loop (`evaluation/core/episode.py`).

Each tick: the question, the policy's call, the answer validated against the question and
classified (valid, invalid, stale, error, timeout), then play / hold / skip. The rules are those
of `docs/rules/tetris.md` ("Blitz, precisely"); where they are silent:

- Blitz: a call is cut off when the piece would lock (the only clock is the falling piece). Such a
  tick is recorded as a `timeout` call and a `locked-by-gravity` outcome. Three unusable answers
  in a row (invalid, stale, error or timeout) end the game as `adapter failure`, in both modes, as
  the protocol says. Logs of `logVersion` 1 were played when a Blitz timeout neither counted nor
  reset the count; they replay under that rule. Unreachable and late answers were valid answers,
  so they reset it.
- A hold accepted in Blitz counts as answered in time when gravity had not moved the piece, else
  as late (the answer was accepted either way).
- Risks are scored from valid answers only (a stale answer's risk is about another position); a
  risk's outcome is "the game ended by top-out at most ten locked pieces after the question".
- Latencies are those of calls that returned (`ok`); exceptions and timeouts are excluded. Calls
  of an `llm` brain that report no `costUsd` are counted as unpriced, whatever happened to them;
  local brains have no price at all.
- Ends: a game stopped by either cap ends `piece cap`, as the protocol's table says, and
  `capDetail` names the cap (`piece cap` or `tick cap`). Logs written before `capDetail` existed
  (every `logVersion` 1 log) replay under the old names, where the tick cap ended `tick cap`.
- The brain record carries `via` (the protocol's field: the endpoint a model is reached through)
  when the policy names one or reports the host it calls.

The same `TetrisEpisode` replays a log (`replay.py`), so a replay applies exactly what the game
applied.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from arcade_gym.core.clock import Clock
from arcade_gym.tetris import engine as E
from arcade_gym.tetris.contract import Verdict, validate
from arcade_gym.tetris.game import BlitzOutcome, BlitzResult, TetrisGame
from arcade_gym.tetris.rules import (
    END_ADAPTER_FAILURE,
    END_REASONS,
    END_TICK_CAP,
    PIECE_CAP,
    RULESET_ID,
    TICK_CAP,
)
from evaluation.benchmarks.tetris_bench.defaults import BENCHMARK_ID
from evaluation.benchmarks.tetris_bench.records import GameResult
from evaluation.core.episode import Call, Judged, LiveCaller, Rules, play_episode
from evaluation.core.eventlog import GameLog, header_event
from evaluation.core.policy_call import CallOutcome
from evaluation.core.policy_identity import policy_identity
from policies.base import AsyncPolicy, Policy

Mode = Literal["IQ", "Blitz"]

UNUSABLE_LIMIT = 3
"""Unusable answers in a row that end a game as `adapter failure`."""

RISK_HORIZON = 10
"""A risk is P(top-out within the next this-many pieces)."""

DEFAULT_BUDGET_MS = 20_000.0

PIECE_CAP_END = "piece cap"
ADAPTER_FAILURE_END = str(END_REASONS[END_ADAPTER_FAILURE])
_END_CODES = {reason: code for code, reason in END_REASONS.items() if reason is not None}
TICK_CAP_END = END_REASONS[END_TICK_CAP]
CAP_ENDS = (PIECE_CAP_END, TICK_CAP_END)


def brain_identity(policy: object) -> dict[str, Any]:
    """The brain record of logs and results: the policy's identity plus `via` when known (its
    own `via`, else the host or command its `run_identity()` reports), and the seed of the
    seeded random baseline (so `verify` can re-derive its answers)."""
    brain = policy_identity(policy)
    seed = getattr(policy, "seed", None)
    if brain.get("slug") == "random" and isinstance(seed, int) and "seed" not in brain:
        brain["seed"] = seed
    if brain.get("via"):
        return brain
    via = getattr(policy, "via", None)
    run_identity = getattr(policy, "run_identity", None)
    if not via and callable(run_identity):
        try:
            settings = run_identity()
        except Exception:
            settings = None
        if isinstance(settings, dict):
            via = settings.get("baseUrlHost") or settings.get("command")
    if via:
        brain["via"] = str(via)
    return brain


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


def rules_for(mode: Mode, log_version: int = 2) -> Rules:
    """The protocol's failure rule: three unusable answers in a row end the game (in logs of
    version 1, a Blitz timeout neither counted nor reset the count)."""
    legacy_blitz = log_version == 1 and mode == "Blitz"
    timeout = frozenset() if legacy_blitz else frozenset({"timeout"})
    return Rules(
        unusable=frozenset({"invalid", "stale", "error"}) | timeout,
        unusable_limit=UNUSABLE_LIMIT,
        failure_end=ADAPTER_FAILURE_END,
        neutral=frozenset({"timeout"}) if legacy_blitz else frozenset(),
    )


@dataclass(frozen=True)
class Applied:
    """What one tick did to the game."""

    played: tuple[int, int] | None
    hold: bool
    blitz: BlitzResult | None = None


class TetrisEpisode:
    """One game of `seed` in `mode`: IQ waits `budget_ms` per call; Blitz lets gravity act for
    the time that passed and cuts a call off when the piece would lock."""

    def __init__(
        self,
        seed: str,
        mode: str,
        *,
        budget_ms: float = DEFAULT_BUDGET_MS,
        piece_cap: int = PIECE_CAP,
        tick_cap: int = TICK_CAP,
        log_version: int = 2,
        legacy_ends: bool = False,
    ) -> None:
        self.mode: Mode = normalise_mode(mode)
        self.legacy_ends = legacy_ends or log_version == 1
        if not budget_ms > 0:
            raise ValueError(f"budget_ms must be > 0, got {budget_ms!r}")
        self.budget_ms = float(budget_ms)
        self.game = TetrisGame(seed, piece_cap=piece_cap, tick_cap=tick_cap)
        self.rules = rules_for(self.mode, log_version)
        self.realtime = self.mode == "Blitz"
        self.piece_cap, self.tick_cap = piece_cap, tick_cap
        self.pieces_before = 0
        self.asked: Any = None
        self.applied = Applied(None, False)

    @property
    def over(self) -> bool:
        return bool(self.game.over)

    def question(self) -> Any:
        self.pieces_before = self.game.pieces
        question = self.game.question(self.mode)
        # The policy may mutate what it is given; answers are judged against what was asked.
        self.asked = question.model_copy(update={"legal": list(question.legal)})
        return question

    def call_limit_ms(self) -> float | None:
        return self.budget_ms if self.mode == "IQ" else time_to_lock_ms(self.game)

    def judge(self, call: CallOutcome, question: Any) -> Judged:
        if call.status != "ok":
            return Judged("timeout" if call.status == "timeout" else "error", None, call.error)
        verdict = validate(call.answer, self.asked)
        return Judged(verdict.status, verdict, verdict.reason)

    def apply(self, judged: Judged, elapsed_ms: float | None) -> dict[str, Any]:
        verdict: Verdict | None = judged.verdict
        tick, state_hash = self.asked.tick, self.asked.state_hash
        applied = apply_decision(self.game, self.mode, verdict, elapsed_ms)
        self.applied = applied
        if verdict is not None:
            verdict_block: dict[str, Any] = {
                "status": verdict.status,
                "reason": verdict.reason,
                "notes": list(verdict.notes),
                "placement": None if verdict.placement is None else verdict.placement.to_dict(),
            }
        else:
            verdict_block = {
                "status": judged.status,
                "reason": judged.reason,
                "notes": [],
                "placement": None,
            }
        fields: dict[str, Any] = {
            "tick": tick,
            "stateHash": state_hash,
            "verdict": verdict_block,
            "played": None
            if applied.played is None
            else {"x": applied.played[0], "rotation": applied.played[1]},
            "hold": applied.hold,
            "risk": None if verdict is None else verdict.risk,
            "costUsd": None if verdict is None else verdict.cost_usd,
        }
        if applied.blitz is not None:
            fields["blitz"] = {
                "outcome": applied.blitz.outcome.value,
                "rowsFallen": applied.blitz.rows_fallen,
            }
        fields["scoreAfter"] = self.game.score
        return fields

    def force_end(self, reason: str) -> None:
        if not self.game.over:
            self.game.end(_END_CODES.get(reason, END_ADAPTER_FAILURE))

    def result(self) -> dict[str, Any]:
        g = self.game
        out: dict[str, Any] = {"endReason": g.end_reason}
        if g.end_reason in CAP_ENDS and not self.legacy_ends:
            out = {"endReason": PIECE_CAP_END, "capDetail": g.end_reason}
        out.update(score=g.score, lines=g.lines, pieces=g.pieces, ticks=g.tick, level=g.level)
        return out


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


def settings_of(episode: TetrisEpisode, clock: Clock | None) -> dict[str, Any]:
    """The header settings a game is rebuilt from."""
    return {
        "mode": episode.mode,
        "budgetMs": episode.budget_ms if episode.mode == "IQ" else None,
        "pieceCap": episode.piece_cap,
        "tickCap": episode.tick_cap,
        "clock": type(clock).__name__ if episode.mode == "Blitz" and clock else None,
    }


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
    cut off when the piece would lock. The log is written line by line; on Ctrl-C it ends with an
    `interrupted` result line and the interrupt propagates; a failure on our side raises
    `evaluation.core.episode.GameAbortedError`. The log path must not exist yet.
    """
    episode = TetrisEpisode(seed, mode, budget_ms=budget_ms, piece_cap=piece_cap, tick_cap=tick_cap)
    caller = LiveCaller(policy, clock)
    brain = brain_identity(policy)
    result = GameResult(
        ruleset=RULESET_ID,
        seed=seed,
        mode=episode.mode,
        brain=brain,
        end_reason="",
        score=0,
        lines=0,
        pieces=0,
        ticks=0,
        level=episode.game.level,
        log_path=str(log_path),
    )
    risks: list[tuple[int, float]] = []
    cost = 0.0

    def count(call: Call, judged: Judged, event: dict[str, Any]) -> None:
        nonlocal cost
        result.decisions += 1
        if call.latency_ms is not None:  # completed, and not served from the cache
            result.latencies_ms.append(call.latency_ms)
        result.prompt_tokens += _tokens(call, "promptTokens")
        result.completion_tokens += _tokens(call, "completionTokens")
        if judged.status == "invalid":
            result.invalid += 1
        elif judged.status == "stale":
            result.stale += 1
        elif judged.status == "error":
            result.errors += 1
        elif judged.status == "timeout":
            result.timeouts += 1
        verdict: Verdict | None = judged.verdict
        if verdict is not None and verdict.cost_usd is not None:
            cost += verdict.cost_usd
            result.priced_calls += 1
        elif result.brain.get("kind") == "llm":
            result.unpriced_calls += 1
        if verdict is not None and verdict.usable and verdict.risk is not None:
            risks.append((episode.pieces_before, verdict.risk))
        if episode.applied.blitz is not None:
            _count_blitz(result, episode.applied.blitz)

    with GameLog(log_path) as log:
        log.write(
            header_event(
                benchmark=BENCHMARK_ID,
                versions={"ruleset": RULESET_ID},
                seed=seed,
                policy=brain,
                settings=settings_of(episode, caller.clock),
            )
        )
        played = play_episode(episode, caller, log, on_decision=count)
    game = episode.game
    topped_out = game.end_reason == "top-out"
    result.end_reason = str(played.result["endReason"])
    result.cap_detail = played.result.get("capDetail")
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


def _tokens(call: Call, key: str) -> int:
    """A token count the call's telemetry reported (0 when none, or not a count)."""
    value = (call.telemetry or {}).get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0

"""One arena game as an episode of the one loop (`evaluation/core/episode.py`): a suite position
(one decision) or a match (a full game against a sparring partner).

Answers are recorded and judged in one JSON form (`answers.py`).

An engine error, unparseable output, an occupied or off-board square, an exception or a timeout is
an *illegal move*: the position fails, or the match is forfeited (one unusable answer ends it, a
loss). In a match only the engine's moves are decisions; the sparring side's replies are derived
from the match spec (`suite.MatchSpec`) after each of them, so a replay re-derives them and a
changed engine answer fails at its decision. A failure on our side (`service`, `stop`) aborts
the game: never counted, played again on resume.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from arcade_gym.tictactoe.contract import AnswerCheck, TicTacToeQuestion
from arcade_gym.tictactoe.game import TicTacToeGame
from arcade_gym.tictactoe.rules import RULESET_ID, O, X
from arcade_gym.tictactoe.sparring import opening_move, sparring_move
from evaluation.benchmarks.arena.answers import judge_call, move_fields, wire_answer
from evaluation.benchmarks.arena.defaults import BENCHMARK_ID, DEFAULT_TIMEOUT_MS
from evaluation.benchmarks.arena.grading import match_points
from evaluation.benchmarks.arena.suite import SUITE_VERSION, MatchSpec, SuitePosition
from evaluation.core.episode import Call, Judged, LiveCaller, Rules, play_episode
from evaluation.core.eventlog import GameLog, header_event
from evaluation.core.policy_call import CallOutcome
from evaluation.core.policy_identity import policy_identity

Item = SuitePosition | MatchSpec


# --- episodes -----------------------------------------------------------------------------------


class PositionEpisode:
    """One suite position: one question, passed when the move is one of the expected ones."""

    rules = Rules()
    realtime = False

    def __init__(self, item: SuitePosition, timeout_ms: float | None = DEFAULT_TIMEOUT_MS) -> None:
        self.item = item
        self.timeout_ms = timeout_ms
        self.check: AnswerCheck | None = None
        self.end_reason: str | None = None

    @property
    def over(self) -> bool:
        return self.end_reason is not None

    def question(self) -> TicTacToeQuestion:
        return self.item.question

    def call_limit_ms(self) -> float | None:
        return self.timeout_ms

    def judge(self, call: CallOutcome, question: Any) -> Judged:
        return judge_call(call, question)

    def apply(self, judged: Judged, elapsed_ms: float | None) -> dict[str, Any]:
        self.check = judged.verdict
        self.end_reason = "answered"
        return {"position": self.item.id, **move_fields(judged.verdict), "passed": self.passed}

    @property
    def passed(self) -> bool:
        return self.check is not None and self.check.legal and self.item.passes(self.check.move)

    def force_end(self, reason: str) -> None:
        if self.end_reason is None:
            self.end_reason = reason

    def result(self) -> dict[str, Any]:
        check = self.check if self.check is not None else AnswerCheck(reason=self.end_reason)
        return {
            "endReason": self.end_reason,
            "score": int(self.passed),
            "category": self.item.category,
            "size": self.item.size,
            **move_fields(check),
            "passed": self.passed,
        }


class MatchEpisode:
    """One match from the empty board; the engine's moves are the decisions, the sparring side's
    replies (its rule, or the seeded opening) are played after each of them."""

    rules = Rules(unusable_limit=1, failure_end="illegal move")
    realtime = False

    def __init__(self, spec: MatchSpec, timeout_ms: float | None = DEFAULT_TIMEOUT_MS) -> None:
        self.spec = spec
        self.timeout_ms = timeout_ms
        self.game = TicTacToeGame(spec.size)
        self.engine_side = X if spec.engine_mark == "X" else O
        self.forfeit: str | None = None
        self.forfeit_ply: int | None = None
        self.last: AnswerCheck | None = None
        self.replies()

    def replies(self) -> list[int]:
        """The sparring side's moves until the engine is to move (or the game is over)."""
        game, spec = self.game, self.spec
        cells: list[int] = []
        while not game.over and game.to_move != self.engine_side:
            if spec.opening and game.placed < 2:
                cell = opening_move(game.flat, game.to_move, spec.opponent_seed)
            else:
                cell = sparring_move(spec.opponent, game.flat, game.to_move, spec.opponent_seed)
            game.play(cell)
            cells.append(cell)
        return cells

    @property
    def over(self) -> bool:
        return bool(self.game.over) or self.forfeit is not None

    def question(self) -> TicTacToeQuestion:
        return self.game.question()

    def call_limit_ms(self) -> float | None:
        return self.timeout_ms

    def judge(self, call: CallOutcome, question: Any) -> Judged:
        return judge_call(call, question)

    def apply(self, judged: Judged, elapsed_ms: float | None) -> dict[str, Any]:
        check: AnswerCheck = judged.verdict
        self.last = check
        fields: dict[str, Any] = {"ply": self.game.placed + 1, **move_fields(check)}
        replies: list[int] = []
        if check.legal and check.move is not None:
            self.game.play(self.game.cell(*check.move))
            replies = self.replies()
        fields["replies"] = [list(divmod(c, self.spec.size)) for c in replies]
        fields["board"] = list(self.game.rows())
        return fields

    def force_end(self, reason: str) -> None:
        if self.forfeit is None and not self.game.over:
            self.forfeit = (self.last.reason if self.last else None) or reason
            self.forfeit_ply = self.game.placed + 1

    @property
    def outcome(self) -> str:
        """`win`, `draw` or `loss`, from the engine's side."""
        if self.forfeit is not None:
            return "loss"
        if self.game.draw:
            return "draw"
        return "win" if self.game.winner == self.engine_side else "loss"

    def result(self) -> dict[str, Any]:
        outcome = self.outcome
        if self.forfeit is not None:
            end = "illegal move"
        else:
            end = "full board" if self.game.draw else "line"
        return {
            "endReason": end,
            "score": match_points(outcome, self.spec.opponent),
            "result": outcome,
            "size": self.spec.size,
            "opponent": self.spec.opponent,
            "opening": self.spec.opening,
            "engineMark": self.spec.engine_mark,
            "moves": [f"{r} {c}" for r, c in (divmod(m, self.spec.size) for m in self.game.moves)],
            "forfeit": self.forfeit,
            "forfeitPly": self.forfeit_ply,
        }


def make_episode(item: Item, timeout_ms: float | None) -> PositionEpisode | MatchEpisode:
    """The episode of a suite position or a match."""
    if isinstance(item, SuitePosition):
        return PositionEpisode(item, timeout_ms)
    return MatchEpisode(item, timeout_ms)


def settings_of(item: Item, timeout_ms: float | None) -> dict[str, Any]:
    """The header settings a game is rebuilt from (the item is checked against the suite)."""
    return {
        "game": "position" if isinstance(item, SuitePosition) else "match",
        "item": item.to_dict(),
        "timeoutMs": timeout_ms,
    }


def play_arena_game(
    policy: Any,
    item: Item,
    log_path: str | Path,
    *,
    suite_seed: int,
    timeout_ms: float | None = DEFAULT_TIMEOUT_MS,
) -> dict[str, Any]:
    """Play one position or match, recording it at `log_path` (which must not exist yet).

    Returns the result line's fields plus `calls`: per call its `latencyMs` (wall time, which a
    replay cannot re-derive) and `instructions` (Brainfuck engines). Raises `GameAbortedError` /
    `RunStoppedError` for failures on our side and propagates Ctrl-C, after the log's incomplete
    result line.
    """
    episode = make_episode(item, timeout_ms)
    calls: list[dict[str, Any]] = []

    def count(call: Call, judged: Judged, event: dict[str, Any]) -> None:
        ms = call.outcome.latency_ms
        latency = round(ms, 3) if math.isfinite(ms) else None
        entry: dict[str, Any] = {"latencyMs": latency, "instructions": event["instructions"]}
        if event["call"].get("usage"):
            entry["usage"] = event["call"]["usage"]
        calls.append(entry)

    with GameLog(log_path) as log:
        log.write(
            header_event(
                benchmark=BENCHMARK_ID,
                versions={"suite": SUITE_VERSION, "ruleset": RULESET_ID},
                seed=suite_seed,
                policy=policy_identity(policy),
                settings=settings_of(item, timeout_ms),
            )
        )
        played = play_episode(episode, LiveCaller(policy, wire=wire_answer), log, on_decision=count)
    result = {k: v for k, v in played.result.items() if k != "type"}
    return {"id": item.id, **result, "calls": calls}

"""One ladder game as an episode of the one loop (`evaluation/core/episode.py`).

The model's answers are the decisions. After each legal model move the position is measured for
adjudication and the rung replies (and that position is measured too); both are recorded in the
decision (`opponent`, `evals`), as is the rung's opening move when the model plays black
(`opening` on the first decision). Stockfish rungs and measurements are not reproducible move for
move, so a replay (`arcade-eval verify`) takes them from the recording (`RecordedSide`) and
re-derives everything the model's answers decide: legality, the moves played, the positions, the
retries and forfeits, adjudication from the recorded measurements, and the result. A changed
model answer fails at its decision.

An illegal or unreadable answer (or a policy error) gets one line of feedback and another try;
three in a row forfeit the game (`Rules.unusable_limit`). A failure on our side aborts the game:
never counted, played again on resume (`docs/rules/failures.md`). A timeout is one: the model
"can think as long as its settings allow", so `--timeout-s` is only a safety net against a hung
request (`Rules.timeout_aborts`). The rung or the judge failing is one too: an engine that
crashes (its process tree is killed by `policies/engines/uci.py`) or a rung move that is not
legal raises `SideFailedError`, and `play_ladder_game` ends the log with an `aborted` result line
and raises `GameAbortedError`.

Protocol `chess-ladder-protocol@2` is this one; logs of `@1`, where a timeout was a rejected try,
still replay under their own rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

import chess
import chess.engine

from arcade_gym.chess.contract import (
    ChessAnswer,
    ChessQuestion,
    check_answer,
    legal_uci,
    make_question,
    parse_move,
)
from arcade_gym.chess.game import ChessGame
from arcade_gym.chess.rules import RULESET_ID
from evaluation.benchmarks.chess_ladder.adjudication import (
    ADJUDICATION_NODES,
    Adjudication,
    Adjudicator,
    score_pawns,
)
from evaluation.benchmarks.chess_ladder.defaults import BENCHMARK_ID
from evaluation.benchmarks.chess_ladder.ratings import score_of
from evaluation.core.episode import (
    Call,
    GameAbortedError,
    Judged,
    LiveCaller,
    Rules,
    play_episode,
)
from evaluation.core.eventlog import GameLog, header_event
from evaluation.core.policy_call import CallOutcome
from evaluation.core.policy_identity import policy_identity
from policies.base import DecisionContext
from policies.engines.uci import EngineFailedError

PROTOCOL_VERSION = "chess-ladder-protocol@2"
"""Timeouts abort the game (`@1`: a timeout was a rejected try)."""
LEGACY_PROTOCOL = "chess-ladder-protocol@1"
TRIES_PER_MOVE = 3
DEFAULT_TIMEOUT_MS = 600_000.0
"""The safety net per answer (10 minutes): generous, since a timeout aborts the game (the model
may think as long as its settings allow); it only stops a request that hangs."""
MAX_TIMEOUT_MS = 86_400_000.0
"""A day per answer: the longest deadline a run (or a log's header) may set."""
REJECTED = frozenset({"illegal", "unreadable", "error", "timeout"})


# --- answers ------------------------------------------------------------------------------------


def wire_answer(answer: object, question: object = None) -> Any:
    """The JSON form an answer is recorded and judged in: a ChessAnswer's move, reply text as
    text, `{"move": ...}` as given; anything else is recorded as unreadable."""
    try:
        if isinstance(answer, ChessAnswer):
            return {"move": str(answer.move)}
        if isinstance(answer, str):
            return str.__str__(answer)
        if isinstance(answer, Mapping) and isinstance(answer.get("move"), str):
            return {"move": str(answer["move"])}
    except Exception as exc:  # a hostile answer object
        return {"unreadable": f"unreadable answer: {type(exc).__name__}"}
    return {"unreadable": f"not a move: {type(answer).__name__}"}


# --- the other side: the rung and the measurements ------------------------------------------------


class SideFailedError(Exception):
    """The rung or the judge failed (a crash on our side): the game is aborted, not counted."""


class OtherSide(Protocol):
    """Where the rung's moves and the adjudication measurements come from."""

    def reply(self, board: chess.Board, decision: int) -> chess.Move:
        """The rung's move on `board` (`decision` -1: its opening move)."""

    def measure(self, board: chess.Board, decision: int, which: int) -> float | None:
        """Pawns from white's side of `board` (`which`: 0 after the model's move, 1 after the
        rung's; decision -1 is the position after the rung's opening move)."""


class LiveSide:
    """A live rung policy and a live judge (full-strength Stockfish at `nodes`)."""

    def __init__(self, rung_policy: Any, judge: Any, variant: str, nodes: int = ADJUDICATION_NODES):
        self.rung_policy = rung_policy
        self.judge = judge
        self.variant = variant
        self.nodes = nodes

    def reply(self, board: chess.Board, decision: int) -> chess.Move:
        question = make_question(board, self.variant)  # type: ignore[arg-type]
        try:
            answer = self.rung_policy.act(question, DecisionContext())
        except EngineFailedError as failed:
            raise SideFailedError(f"the rung failed: {failed}") from None
        text = getattr(answer, "move", None)
        move = parse_move(board, text) if isinstance(text, str) else None
        if move is None:
            raise SideFailedError(f"the rung answered {text!r}, not a legal move in {board.fen()}")
        return move

    def measure(self, board: chess.Board, decision: int, which: int) -> float | None:
        try:
            info = self.judge.analyse(board, chess.engine.Limit(nodes=self.nodes))[0]
        except EngineFailedError as failed:
            raise SideFailedError(f"the judge failed: {failed}") from None
        score = info.get("score")
        return None if score is None else round(score_pawns(score), 2)


class RecordedSide:
    """The rung's moves and the measurements as a log recorded them."""

    def __init__(self, events: Sequence[Mapping[str, Any]]) -> None:
        self.events = list(events)

    def _event(self, decision: int) -> Mapping[str, Any]:
        return self.events[max(decision, 0)] if self.events else {}

    def model_move(self, decision: int) -> str | None:
        """The model's move the recording holds for `decision` (None if it has none)."""
        move = self._event(decision).get("move") if decision >= 0 else None
        return move if isinstance(move, str) else None

    def reply(self, board: chess.Board, decision: int) -> chess.Move:
        key = "opening" if decision < 0 else "opponent"
        uci = self._event(decision).get(key)
        if not isinstance(uci, str):
            raise ValueError(f"the recording has no {key} move at decision {decision}")
        try:
            return legal_uci(board, uci)
        except ValueError as bad:
            raise ValueError(f"the recorded {key} move at decision {decision}: {bad}") from None

    def measure(self, board: chess.Board, decision: int, which: int) -> float | None:
        key = "openingEval" if decision < 0 else "evals"
        value = self._event(decision).get(key)
        if decision >= 0:
            value = value[which] if isinstance(value, list) and len(value) > which else None
        return float(value) if isinstance(value, int | float) else None


# --- the episode ----------------------------------------------------------------------------------


class LadderEpisode:
    """The model against one rung from one start position."""

    realtime = False

    def __init__(
        self,
        variant: str,
        start_fen: str,
        model_colour: str,
        side: OtherSide,
        timeout_ms: float | None = DEFAULT_TIMEOUT_MS,
        *,
        timeout_aborts: bool = True,
    ) -> None:
        """`timeout_aborts=False` replays a `chess-ladder-protocol@1` log (a timeout was a
        rejected try)."""
        self.rules = Rules(
            unusable=REJECTED,
            unusable_limit=TRIES_PER_MOVE,
            failure_end="forfeit",
            timeout_aborts=timeout_aborts,
        )
        self.variant = variant
        self.game = ChessGame(variant, start_fen)
        self.model_white = model_colour == "white"
        self.side = side
        self.timeout_ms = timeout_ms
        self.adjudicator = Adjudicator()
        self.adjudication: Adjudication | None = None
        self.forfeited = False
        self.attempt = 1
        self.feedback: str | None = None
        self.requests = 0
        self.rejected = 0
        self.decisions = 0
        self.opening: str | None = None
        self.opening_eval: float | None = None
        if self.game.board.turn != self.model_white and not self.game.over:
            move = self._rung_moves(-1)
            self.opening = move.uci()
            self.opening_eval = self._measure(-1, 0)

    # the loop's interface
    @property
    def over(self) -> bool:
        return self.game.over or self.adjudication is not None or self.forfeited

    def question(self) -> ChessQuestion:
        return make_question(
            self.game.board,
            self.variant,  # type: ignore[arg-type]
            attempt=self.attempt,
            feedback=self.feedback,
        )

    def call_limit_ms(self) -> float | None:
        return self.timeout_ms

    def judge(self, call: CallOutcome, question: Any) -> Judged:
        if call.status != "ok":
            reason = f"{call.status}: {call.error}"
            return Judged("timeout" if call.status == "timeout" else "error", None, reason)
        answer = call.answer
        if isinstance(answer, Mapping) and "unreadable" in answer:
            return Judged("unreadable", None, str(answer["unreadable"]))
        check = check_answer(question, answer, self.game.board)
        if check.legal:
            return Judged("legal", check)
        assert check.error is not None
        return Judged(check.error, check, check.feedback)

    def apply(self, judged: Judged, elapsed_ms: float | None) -> dict[str, Any]:
        n = self.decisions
        self.decisions += 1
        self.requests += 1
        fields: dict[str, Any] = {"ply": self.game.ply, "attempt": self.attempt}
        if n == 0 and self.opening is not None:
            fields["opening"] = self.opening
            fields["openingEval"] = self.opening_eval
        fields["verdict"] = judged.status
        if judged.status != "legal":
            self.rejected += 1
            self.feedback = _feedback(judged)
            self.attempt += 1
            fields.update({"move": None, "feedback": self.feedback})
            return fields
        check = judged.verdict
        self.attempt, self.feedback = 1, None
        self.game.play(legal_uci(self.game.board, check.uci))
        evals: list[float | None] = [self._measure(n, 0)]
        opponent = None
        if not self.over:
            opponent = self._rung_moves(n).uci()
            evals.append(self._measure(n, 1))
        fields.update(
            {
                "move": check.uci,
                "san": check.san,
                "opponent": opponent,
                "evals": evals,
                "fen": self.game.board.fen(),
            }
        )
        return fields

    def force_end(self, reason: str) -> None:
        if not self.over:
            self.forfeited = True

    def result(self) -> dict[str, Any]:
        result, end, adjudicated = self._outcome()
        model_white = self.model_white
        score = score_of(result, model_white)
        return {
            "endReason": end,
            "result": result,
            "score": score,
            "adjudicated": adjudicated,
            "modelColour": "white" if model_white else "black",
            "variant": self.variant,
            "startFen": self.game.start_fen,
            "plies": self.game.ply,
            "moves": [m.uci() for m in self.game.board.move_stack],
            "requests": self.requests,
            "rejected": self.rejected,
        }

    # helpers
    def _outcome(self) -> tuple[str, str, bool]:
        if self.forfeited:
            return ("0-1" if self.model_white else "1-0"), "forfeit", False
        if self.adjudication is not None:
            return self.adjudication.result, f"adjudicated: {self.adjudication.reason}", True
        assert self.game.termination is not None
        return self.game.result, self.game.termination, False

    def _rung_moves(self, decision: int) -> chess.Move:
        board = self.game.board
        move = self.side.reply(board.copy(), decision)
        if not self.game.is_legal(move):
            raise SideFailedError(f"the rung played {move.uci()}, illegal in {board.fen()}")
        self.game.play(move)
        return move

    def _measure(self, decision: int, which: int) -> float | None:
        if self.game.over:
            return None
        pawns = self.side.measure(self.game.board.copy(), decision, which)
        if self.adjudication is None:
            self.adjudication = self.adjudicator.add(self.game.ply, pawns)
        return pawns


def _feedback(judged: Judged) -> str:
    """One line for the next try."""
    if judged.status in ("illegal", "unreadable") and judged.reason:
        return str(judged.reason)
    if judged.status == "timeout":
        return "No answer in time: answer with one move inside <move>...</move>."
    return "Your answer could not be used: answer with one move inside <move>...</move>."


# --- one game -------------------------------------------------------------------------------------


def settings_of(
    variant: str,
    rung: str,
    rung_rating: float,
    start_fen: str,
    start_index: int | None,
    model_colour: str,
    timeout_ms: float | None,
    ladder_version: str,
) -> dict[str, Any]:
    """The header settings a game is rebuilt from."""
    return {
        "variant": variant,
        "rung": rung,
        "rungRating": rung_rating,
        "startFen": start_fen,
        "startIndex": start_index,
        "modelColour": model_colour,
        "timeoutMs": timeout_ms,
        "ladder": ladder_version,
        "adjudicationNodes": ADJUDICATION_NODES,
    }


def play_ladder_game(
    policy: Any,
    side: OtherSide,
    settings: Mapping[str, Any],
    log_path: str | Path,
    *,
    seed: str,
) -> dict[str, Any]:
    """Play one game, recording it at `log_path` (which must not exist yet). Returns the result
    line's fields plus per-call `latencyMs`, tokens and cost, and `startedAt` (UTC, ISO 8601: the
    PGN's `Date`; a wall-clock time, so it goes to results, never to the log). `GameAbortedError`
    when the rung or the judge fails (the log then ends with an `aborted` result line)."""
    calls: list[dict[str, Any]] = []
    started = datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")

    def count(call: Call, judged: Judged, event: dict[str, Any]) -> None:
        usage = call.telemetry or {}
        latency = call.outcome.latency_ms
        calls.append(
            {
                "latencyMs": round(latency, 3) if latency == latency else None,
                "promptTokens": usage.get("promptTokens"),
                "completionTokens": usage.get("completionTokens"),
                "costUsd": usage.get("costUsd"),
            }
        )

    with GameLog(log_path) as log:
        log.write(
            header_event(
                benchmark=BENCHMARK_ID,
                versions={
                    "protocol": PROTOCOL_VERSION,
                    "ruleset": RULESET_ID,
                    "ladder": settings["ladder"],
                },
                seed=seed,
                policy=policy_identity(policy),
                settings=settings,
            )
        )
        try:
            episode = LadderEpisode(
                settings["variant"],
                settings["startFen"],
                settings["modelColour"],
                side,
                settings.get("timeoutMs"),
            )
            played = play_episode(
                episode,
                LiveCaller(policy, wire=wire_answer),
                log,
                on_decision=count,
            )
        except SideFailedError as failed:
            reason = str(failed)
            ended = {"type": "result", "endReason": "aborted", "reason": reason}
            log.result({**ended, "decisions": len(calls)})
            raise GameAbortedError(reason, len(calls)) from None
    result = {k: v for k, v in played.result.items() if k != "type"}
    return {**result, "calls": calls, "startedAt": started}

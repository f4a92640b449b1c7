"""One NARCADE episode (a model on one game from one seed) as an episode of the one loop
(`evaluation/core/episode.py`), for play and for replay alike.

The protocol, as the loop's data and this episode's `apply`:

- realtime (Tetris and Snake by default): the game advances for the time the policy thought.
  Snake keeps its heading for every tick that passed; Tetris applies gravity for the time and
  discards an answer whose piece has locked meanwhile. lockstep: latency never advances the game
  (one Tetris control is followed by one gravity row). Minesweeper is always turn-based.
- A bad answer (invalid, timeout, policy error) is counted and the game goes on: Snake keeps its
  heading, Tetris presses nothing (gravity still acts), Minesweeper does nothing.
- `failure_streak` consecutive timeouts or errors mean the model is broken (a dead endpoint, a
  crashing adapter): the episode ends with `policy failure`. An invalid answer resets the streak.
- Caps: `max_decisions` calls per episode (`decision cap`); `max_pieces` and `max_seconds` (wall
  clock, `time cap`) for Tetris only. A capped game is not a win. Wall time cannot be re-simulated:
  a replay ends a `time cap` game after the recorded number of decisions.

Each decision records the question's state hash, the verdict, the effect on the game and the score
after; with `trace` also the whole question (state and the actions offered, in their order), which
`narcade export-replays` turns into frames. A replay derives all of it again and must match.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arcade_gym.core.clock import Clock
from evaluation.benchmarks.narcade.defaults import BENCHMARK_ID
from evaluation.benchmarks.narcade.protocol import (
    INSTRUCTIONS,
    MODES,
    PROTOCOL_VERSION,
    RULES_VERSION,
    game_mode,
)
from evaluation.benchmarks.narcade.results import EpisodeRecord
from evaluation.benchmarks.narcade.settings import (
    MAX_DECISIONS_LIMIT,
    MAX_PIECES_LIMIT,
    MAX_SECONDS_LIMIT,
    Settings,
)
from evaluation.core.episode import Call, Judged, LiveCaller, Rules, play_episode
from evaluation.core.eventlog import GameLog, header_event
from evaluation.core.header_limits import MAX_TIME_MS, limited_float, limited_int, setting
from evaluation.core.policy_call import CallOutcome

TIME_CAP = "time cap"
POLICY_FAILURE = "policy failure"


# --------------------------------------------------------------------------------------------
# Lanes: one game's question, validator and effects
# --------------------------------------------------------------------------------------------


class Lane:
    """One game under the protocol: `apply(action, elapsed_ms)` plays a validated action (None
    for a bad answer) after the game time `elapsed_ms` (0 unless realtime)."""

    game: Any  # the game object: question(), score, over, end_reason

    def __init__(self) -> None:
        self.forced_end: str | None = None

    def question(self) -> Any:
        return self.game.question()

    def validate(self, answer: Any, question: Any) -> Any:
        raise NotImplementedError

    def apply(self, action: str | None, elapsed_ms: float) -> dict[str, Any]:
        raise NotImplementedError

    @property
    def score(self) -> int:
        return int(self.game.score)

    @property
    def over(self) -> bool:
        return self.forced_end is not None or bool(self.game.over)

    @property
    def end_reason(self) -> str | None:
        return self.forced_end if self.forced_end is not None else self.game.end_reason

    def force_end(self, reason: str) -> None:
        if not self.over:
            self.forced_end = reason

    @property
    def won(self) -> bool:
        return False

    def extra(self) -> dict[str, Any]:
        """Game-specific fields of the result."""
        return {}


class SnakeLane(Lane):
    """NARCADE Snake; realtime moves the snake along its heading for the ticks that passed."""

    def __init__(self, seed: int, difficulty: str, max_decisions: int, realtime: bool) -> None:
        from arcade_gym.snake.game import SnakeGame

        super().__init__()
        self.realtime = realtime
        self.game = SnakeGame(seed, difficulty, max_decisions=max_decisions)

    def validate(self, answer: Any, question: Any) -> Any:
        from arcade_gym.snake.contract import validate

        return validate(answer, question)

    def apply(self, action: str | None, elapsed_ms: float) -> dict[str, Any]:
        game = self.game
        moved = game.advance(elapsed_ms) if self.realtime and elapsed_ms > 0 else 0
        if game.over:
            return {"ticks": moved, "discarded": action is not None}
        game.step(action if action is not None else game.heading)
        return {"ticks": moved, "discarded": False}

    @property
    def won(self) -> bool:
        return bool(self.game.won)

    def extra(self) -> dict[str, Any]:
        return {"length": self.game.length, "moves": self.game.moves}


class MinesweeperLane(Lane):
    """NARCADE Minesweeper, always turn-based; a bad answer does nothing."""

    def __init__(self, seed: int, difficulty: str, max_decisions: int, realtime: bool) -> None:
        from arcade_gym.minesweeper.game import MinesweeperGame

        super().__init__()
        self.game = MinesweeperGame(seed, difficulty, max_decisions=max_decisions)

    def validate(self, answer: Any, question: Any) -> Any:
        from arcade_gym.minesweeper.contract import validate

        return validate(answer, question)

    def apply(self, action: str | None, elapsed_ms: float) -> dict[str, Any]:
        if action is not None:
            self.game.play(action)
        return {"discarded": False}

    @property
    def won(self) -> bool:
        return bool(self.game.won)

    def extra(self) -> dict[str, Any]:
        game = self.game
        return {"safeCells": game.safe_cells, "mines": game.n_mines, "flags": game.flags}


class TetrisLane(Lane):
    """NARCADE Tetris with primitive controls; realtime gravity by elapsed time, lockstep one row
    per control; a bad answer presses nothing."""

    def __init__(
        self,
        seed: int,
        difficulty: str,
        max_decisions: int,
        realtime: bool,
        max_pieces: int | None = None,
    ) -> None:
        from arcade_gym.tetris.primitive_game import TetrisControlGame

        super().__init__()
        self.realtime = realtime
        self.game = TetrisControlGame(
            seed, difficulty, max_pieces=max_pieces, max_decisions=max_decisions
        )

    def validate(self, answer: Any, question: Any) -> Any:
        from arcade_gym.tetris.primitive_contract import validate

        return validate(answer, question)

    def apply(self, action: str | None, elapsed_ms: float) -> dict[str, Any]:
        if not self.realtime:
            self.game.step(action)
            return {"discarded": False}
        outcome = self.game.step_realtime(action, elapsed_ms)
        return {
            "rowsFallen": outcome.rows_fallen,
            "lockedByGravity": outcome.locked_by_gravity,
            "discarded": outcome.discarded,
        }

    def extra(self) -> dict[str, Any]:
        game = self.game
        return {"lines": game.lines, "pieces": game.pieces, "level": game.level}


def question_state(question: Any) -> tuple[dict[str, Any], list[str]]:
    """A question's wire form split into (state without the actions, the actions offered)."""
    data = question.to_dict()
    actions = [str(a) for a in data.pop("actions")]
    return data, actions


# --------------------------------------------------------------------------------------------
# The episode
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EpisodeConfig:
    """What one episode is played under (the log header's `settings`)."""

    game: str
    mode: str
    difficulty: str
    max_decisions: int
    max_pieces: int | None = None
    max_seconds: float | None = None
    timeout_ms: float = 60_000.0
    failure_streak: int = 5
    trace: bool = False

    @classmethod
    def of(cls, settings: Settings, game: str) -> EpisodeConfig:
        """The episode config of `game` in a run with `settings`."""
        tetris = game == "tetris"
        return cls(
            game=game,
            mode=settings.game_mode(game),
            difficulty=settings.difficulty,
            max_decisions=settings.max_decisions,
            max_pieces=settings.max_pieces if tetris else None,
            max_seconds=settings.max_seconds if tetris else None,
            timeout_ms=settings.timeout_ms,
            failure_streak=settings.failure_streak,
            trace=settings.trace,
        )

    def to_header(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "mode": self.mode,
            "difficulty": self.difficulty,
            "maxDecisions": self.max_decisions,
            "maxPieces": self.max_pieces,
            "maxSeconds": self.max_seconds,
            "timeoutMs": self.timeout_ms,
            "failureStreak": self.failure_streak,
            "trace": self.trace,
            "instruction": INSTRUCTIONS[self.game],
        }

    @classmethod
    def from_header(cls, settings: dict[str, Any]) -> EpisodeConfig:
        """The config a header records; ValueError when it is not one this version plays,
        `HeaderLimitError` naming a cap, timeout or streak outside the run limits (`settings.py`)
        before anything is allocated from it."""
        game = str(settings["game"])
        if game not in INSTRUCTIONS:
            raise ValueError(f"unknown NARCADE game {game!r}")
        if settings.get("instruction") != INSTRUCTIONS[game]:
            raise ValueError("instruction mismatch: the recorded instruction is not the protocol's")
        mode = str(settings["mode"])
        if mode not in {game_mode(game, m) for m in MODES}:
            raise ValueError(f"mode {mode!r} is not a mode of {game}")
        pieces, seconds = settings.get("maxPieces"), settings.get("maxSeconds")
        return cls(
            game=game,
            mode=mode,
            difficulty=str(settings["difficulty"]),
            max_decisions=limited_int(
                setting(settings, "maxDecisions"), "settings.maxDecisions", 1, MAX_DECISIONS_LIMIT
            ),
            max_pieces=None
            if pieces is None
            else limited_int(pieces, "settings.maxPieces", 1, MAX_PIECES_LIMIT),
            max_seconds=None
            if seconds is None
            else limited_float(seconds, "settings.maxSeconds", MAX_SECONDS_LIMIT),
            timeout_ms=limited_float(
                setting(settings, "timeoutMs"), "settings.timeoutMs", MAX_TIME_MS
            ),
            failure_streak=limited_int(
                setting(settings, "failureStreak"),
                "settings.failureStreak",
                1,
                MAX_DECISIONS_LIMIT,
            ),
            trace=bool(settings.get("trace", False)),
        )


LANES = {"minesweeper": MinesweeperLane, "snake": SnakeLane, "tetris": TetrisLane}


class NarcadeEpisode:
    """One episode of `config.game` from `seed`. `end_after` (replays of a `time cap` game)
    ends it after that many decisions, as the wall clock once did."""

    def __init__(self, config: EpisodeConfig, seed: int, *, end_after: int | None = None) -> None:
        self.config = config
        self.seed = int(seed)
        self.realtime = config.mode == "realtime"
        lane: Lane
        if config.game == "tetris":
            lane = TetrisLane(
                self.seed, config.difficulty, config.max_decisions, self.realtime, config.max_pieces
            )
        else:
            lane = LANES[config.game](
                self.seed, config.difficulty, config.max_decisions, self.realtime
            )
        self.lane = lane
        self.rules = Rules(
            unusable=frozenset({"timeout", "error"}),
            unusable_limit=config.failure_streak,
            failure_end=POLICY_FAILURE,
            max_decisions=config.max_decisions,
            cap_end="decision cap",
            max_seconds=config.max_seconds if end_after is None else None,
            time_end=TIME_CAP,
        )
        self.end_after = end_after
        self.decisions = 0
        self.asked: Any = None
        self.effect: dict[str, Any] = {}

    @property
    def over(self) -> bool:
        if self.end_after is not None and self.decisions >= self.end_after:
            self.lane.force_end(TIME_CAP)
        return self.lane.over

    def question(self) -> Any:
        question = self.lane.question()
        # The policy may mutate what it is given; answers are judged against what was asked.
        self.asked = question.model_copy(deep=True)
        return question

    def call_limit_ms(self) -> float | None:
        return self.config.timeout_ms

    def judge(self, call: CallOutcome, question: Any) -> Judged:
        if call.status != "ok":
            return Judged("timeout" if call.status == "timeout" else "error", None, call.error)
        try:
            verdict = self.lane.validate(call.answer, self.asked)
        except Exception as exc:  # a validator must never crash a run
            return Judged("invalid", None, f"unjudgeable answer: {type(exc).__name__}")
        return Judged(verdict.status, verdict, verdict.reason)

    def apply(self, judged: Judged, elapsed_ms: float | None) -> dict[str, Any]:
        verdict = judged.verdict
        action = verdict.action if verdict is not None and verdict.usable else None
        asked = self.asked
        self.effect = self.lane.apply(action, float(elapsed_ms or 0.0))
        self.decisions += 1
        fields: dict[str, Any] = {
            "stateHash": asked.state_hash,
            "verdict": {"status": judged.status, "reason": judged.reason, "action": action},
            "effect": self.effect,
            "scoreAfter": self.lane.score,
        }
        if self.config.trace:
            state, actions = question_state(asked)
            fields["state"] = state
            fields["actions"] = actions
        return fields

    def force_end(self, reason: str) -> None:
        self.lane.force_end(reason)

    def result(self) -> dict[str, Any]:
        lane = self.lane
        return {
            "endReason": lane.end_reason,
            "score": lane.score,
            "decisions": self.decisions,
            "won": lane.won,
            **lane.extra(),
        }


# --------------------------------------------------------------------------------------------
# Playing one episode into its log
# --------------------------------------------------------------------------------------------


def identity_of(spec: str, policy: Any) -> dict[str, Any]:
    """Who played: the policy's identity (with, for LLMs, `runIdentity`: model id, endpoint
    host, sampling and prompt settings, `evaluation/core/policy_identity.py`), the spec it was
    built from and its revision (the policy's `revision`, else its adapter version):
    publications compare them."""
    from evaluation.core.policy_identity import policy_identity

    out = policy_identity(policy)
    adapter = out.get("adapterVersion")
    revision = getattr(policy, "revision", None) or (f"adapter-{adapter}" if adapter else None)
    out.update(spec=spec, revision=None if revision is None else str(revision))
    return out


def play_narcade(
    policy: Any,
    spec: str,
    config: EpisodeConfig,
    seed: int,
    log_path: str | Path,
    *,
    clock: Clock | None = None,
) -> EpisodeRecord:
    """Play one episode with `policy` (built from `spec`), recording it at `log_path` (which must
    not exist). Ctrl-C leaves an `interrupted` result line and propagates; a failure on our side
    raises `evaluation.core.episode.GameAbortedError` (a `stopped` run `RunStoppedError`)."""
    episode = NarcadeEpisode(config, seed)
    caller = LiveCaller(policy, clock)
    record = EpisodeRecord(seed)
    t0 = time.perf_counter()

    def count(call: Call, judged: Judged, event: dict[str, Any]) -> None:
        if not call.cached:  # a reply from the response cache took no model time
            record.latencies_ms.append(call.outcome.latency_ms)
        record.add_usage(call.telemetry)
        if judged.status == "invalid":
            record.invalid_actions += 1
        elif judged.status == "timeout":
            record.timeouts += 1
        elif judged.status == "error":
            record.policy_errors += 1
        record.discarded_answers += int(bool(episode.effect.get("discarded")))
        if config.game == "minesweeper" and episode.lane.won:
            record.solve_time_ms = (time.perf_counter() - t0) * 1000.0

    with GameLog(log_path) as log:
        log.write(
            header_event(
                benchmark=BENCHMARK_ID,
                versions={"rules": RULES_VERSION, "protocol": PROTOCOL_VERSION},
                seed=seed,
                policy=identity_of(spec, policy),
                settings=config.to_header(),
            )
        )
        played = play_episode(episode, caller, log, on_decision=count)
    record.wall_seconds = time.perf_counter() - t0
    record.set_result(played.result)
    return record

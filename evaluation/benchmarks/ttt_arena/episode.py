"""One arena game as an episode of the one loop (`evaluation/core/episode.py`): a suite position
(one decision), a match (a full game against a sparring partner) or a free match (a full game
against any deterministic opponent: an entry, a `bf:` file or a sparring name; not graded).

Answers are recorded and judged in one JSON form (`answers.py`).

An engine error, unparseable output, an occupied or off-board square, an exception or a timeout is
an *illegal move*: the position fails, or the match is forfeited (one unusable answer ends it, a
loss). In a match only the engine's moves are decisions; the sparring side's replies are derived
from the match spec (`suite.MatchSpec`) after each of them, so a replay re-derives them and a
changed engine answer fails at its decision. A failure on our side (`service`, `stop`) aborts
the game: never counted, played again on resume.

In a free match the other side is a policy (`FreeOpponent`), asked like an engine: its answers
are recorded with the next decision (`opponentCalls`: its calls since the previous decision, each
with its ply) and judged by the same rules, so an illegal or unreadable reply forfeits the match
for it (`forfeitBy` says which side forfeited). A replay rebuilds the opponent from the
header (its spec and, for a file, the file's SHA-256) and re-derives every one of its moves.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arcade_gym.tictactoe.contract import AnswerCheck, TicTacToeQuestion
from arcade_gym.tictactoe.game import TicTacToeGame
from arcade_gym.tictactoe.rules import RULESET_ID, SIZES, O, X
from arcade_gym.tictactoe.sparring import opening_move, sparring_move
from evaluation.benchmarks.ttt_arena.answers import judge_call, move_fields, wire_answer
from evaluation.benchmarks.ttt_arena.defaults import BENCHMARK_ID, DEFAULT_TIMEOUT_MS
from evaluation.benchmarks.ttt_arena.grading import match_points
from evaluation.benchmarks.ttt_arena.suite import SUITE_VERSION, MatchSpec, SuitePosition
from evaluation.core.episode import Call, Judged, LiveCaller, Rules, play_episode
from evaluation.core.eventlog import GameLog, header_event, to_jsonable
from evaluation.core.policy_call import CallOutcome, call_policy
from evaluation.core.policy_identity import policy_identity
from policies.base import DecisionContext
from policies.specs import SpecOptions

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
    """One match from the empty board; the engine's moves are the decisions, the other side's
    replies are played after each of them: the sparring rule (or the seeded opening) of a suite
    match, or the `opponent` policy of a free match."""

    rules = Rules(unusable_limit=1, failure_end="illegal move")
    realtime = False

    def __init__(
        self,
        spec: MatchSpec,
        timeout_ms: float | None = DEFAULT_TIMEOUT_MS,
        opponent: Any | None = None,
    ) -> None:
        self.spec = spec
        self.timeout_ms = timeout_ms
        self.opponent = opponent
        self.game = TicTacToeGame(spec.size)
        self.engine_side = X if spec.engine_mark == "X" else O
        self.forfeit: str | None = None
        self.forfeit_ply: int | None = None
        self.forfeit_by: str | None = None
        self.last: AnswerCheck | None = None
        self.opponent_calls: list[dict[str, Any]] = []
        self.replies()

    @property
    def free(self) -> bool:
        """Whether this is a free match (an opponent policy, not a suite sparring rule)."""
        return self.opponent is not None

    def replies(self) -> list[int]:
        """The other side's moves until the engine is to move (or the game is over)."""
        game, spec = self.game, self.spec
        cells: list[int] = []
        while not self.over and game.to_move != self.engine_side:
            if self.opponent is not None:
                cell = self.opponent_move(self.opponent)
                if cell is None:
                    break
            elif spec.opening and game.placed < 2:
                cell = opening_move(game.flat, game.to_move, spec.opponent_seed)
            else:
                cell = sparring_move(spec.opponent, game.flat, game.to_move, spec.opponent_seed)
            game.play(cell)
            cells.append(cell)
        return cells

    def opponent_move(self, opponent: Any) -> int | None:
        """Ask the free match's opponent, as an engine is asked (no wall-clock limit: only
        deterministic opponents play free matches, a Brainfuck one bounded by its instruction
        limit); record its answer; None when it forfeits with an illegal or unreadable reply."""
        question = self.game.question()
        call = call_policy(opponent, question, DecisionContext.with_budget(None), None)
        if call.status == "ok":
            call = dataclasses.replace(call, answer=wire_answer(call.answer, question))
        check: AnswerCheck = judge_call(call, question).verdict
        self.opponent_calls.append(
            {
                "ply": self.game.placed + 1,
                "status": call.status,
                "answer": to_jsonable(call.answer) if call.status == "ok" else None,
                **move_fields(check),
            }
        )
        if check.legal and check.move is not None:
            return self.game.cell(*check.move)
        self.forfeit = check.reason or "no move"
        self.forfeit_ply = self.game.placed + 1
        self.forfeit_by = "opponent"
        return None

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
        if self.free:  # its calls since the previous decision (the opening move's included)
            fields["opponentCalls"], self.opponent_calls = self.opponent_calls, []
        return fields

    def force_end(self, reason: str) -> None:
        if self.forfeit is None and not self.game.over:
            self.forfeit = (self.last.reason if self.last else None) or reason
            self.forfeit_ply = self.game.placed + 1
            self.forfeit_by = "engine"

    @property
    def outcome(self) -> str:
        """`win`, `draw` or `loss`, from the engine's side."""
        if self.forfeit is not None:
            return "win" if self.forfeit_by == "opponent" else "loss"
        if self.game.draw:
            return "draw"
        return "win" if self.game.winner == self.engine_side else "loss"

    def result(self) -> dict[str, Any]:
        outcome = self.outcome
        if self.forfeit is not None:
            end = "opponent illegal move" if self.forfeit_by == "opponent" else "illegal move"
        else:
            end = "full board" if self.game.draw else "line"
        result = {
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
        if self.free:
            result["forfeitBy"] = self.forfeit_by
        return result


# --- free matches -------------------------------------------------------------------------------


FREE_MATCH = "free-match"
"""The `game` of a free match's header settings (and its match id)."""

FREE_MATCH_FORMS = (
    "entry:ID (a shipped arena entry), bf:PATH (a Brainfuck file) or a sparring partner's name "
    "(random, greedy, tactician, perfect)"
)
"""The opponents a free match takes (deterministic ones: its replay re-derives their moves)."""


@dataclass(frozen=True)
class FreeOpponent:
    """The other side of a free match, as its header records it: `spec` is what
    `policies.specs.make_policy` builds (a sparring name, or `bf:` and the file's absolute path),
    `entry` the arena entry it came from, `sha256` the engine file's hash (None for a name)."""

    spec: str
    entry: str | None = None
    sha256: str | None = None

    def __post_init__(self) -> None:
        """Only deterministic opponents whose replay runs nothing but the arena's own code: a
        header naming `cmd:`, `py:` or `llm:` could make `verify` run a program or call a model."""
        from policies.tictactoe import BUILTINS

        if self.file is not None:
            if not isinstance(self.sha256, str) or len(self.sha256) != 64:
                raise ValueError(f"opponentSha256 must be the SHA-256 of {self.file}")
        elif self.spec not in BUILTINS:
            raise ValueError(f"{self.spec!r} is not a match opponent; give {FREE_MATCH_FORMS}")
        elif self.sha256 is not None:
            raise ValueError("opponentSha256 is the hash of a bf: opponent's file only")
        if self.entry is not None and not isinstance(self.entry, str):
            raise ValueError(f"opponentEntry must be an entry id, got {self.entry!r}")

    @property
    def label(self) -> str:
        """How the opponent is named to the player and in the result (`entry:ID`, or the spec)."""
        return f"entry:{self.entry}" if self.entry is not None else self.spec

    @property
    def file(self) -> Path | None:
        """The engine file of a `bf:` opponent."""
        return Path(self.spec[3:]) if self.spec.startswith("bf:") else None

    def settings(self) -> dict[str, Any]:
        """The header settings that name the opponent."""
        return {
            "opponentSpec": self.spec,
            "opponentEntry": self.entry,
            "opponentSha256": self.sha256,
        }

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any]) -> FreeOpponent:
        """The opponent a free match's header settings name (`ValueError` for a malformed one)."""
        spec = settings.get("opponentSpec")
        if not isinstance(spec, str):
            raise ValueError(f"a free match needs opponentSpec, got {spec!r}")
        return cls(spec, settings.get("opponentEntry"), settings.get("opponentSha256"))

    def make(self, seed: int) -> Any:
        """The opponent policy, after checking that a file engine is the very file the match
        was (or is to be) played against; `ValueError` naming the file otherwise. The file is
        read once, within bounds and through no link leaving its folder (`entries.read_engine`),
        and the bytes whose SHA-256 matched are the program that plays: a header naming any
        other file on the machine makes `verify` refuse it without running or revealing it."""
        import hashlib

        from evaluation.benchmarks.ttt_arena.entries import EntryError, read_engine
        from policies.engines.arena import BrainfuckEngine
        from policies.specs import make_policy

        found = self.located()
        if found is None:
            return make_policy(self.spec, "tictactoe", SpecOptions(seed=seed))
        path, root = found
        try:
            program = read_engine(path, root)
        except EntryError as error:
            raise ValueError(f"the opponent's engine file: {error}") from None
        if hashlib.sha256(program).hexdigest() != self.sha256:
            raise ValueError(
                f"the opponent's engine file {path} has changed: its SHA-256 is not the "
                "recorded opponentSha256 of the file the match was played against"
            )
        return BrainfuckEngine(program, name=path.stem)

    def located(self) -> tuple[Path, Path] | None:
        """A file engine's file and the folder it must stay inside: the recorded (absolute)
        path in its own folder, or, when the log comes from another checkout, the same entry's
        engine among the shipped entries (the hash still decides). `ValueError` naming the
        recorded path when neither exists; None for a sparring name."""
        from evaluation.benchmarks.ttt_arena.entries import (
            EntryError,
            default_entries_dir,
            find_entry,
        )

        path = self.file
        if path is None:
            return None
        if not path.is_absolute():
            raise ValueError(f"opponentSpec must name the engine file by its absolute path: {path}")
        if path.is_file():
            return path, path.parent
        if self.entry is not None:
            try:
                entry = find_entry(default_entries_dir(), self.entry)
                return entry.engine, entry.entries_root
            except EntryError:
                pass
        raise ValueError(f"the opponent's engine file {path} is missing")


def free_opponent(text: str, entries_dir: Path | None = None) -> FreeOpponent:
    """The opponent `text` names: `entry:ID` (an entry of `entries_dir`, default the shipped
    entries), `bf:PATH` or a sparring partner's name; `ValueError` naming the forms otherwise."""
    from evaluation.benchmarks.ttt_arena.entries import (
        default_entries_dir,
        engine_sha256,
        find_entry,
    )

    text = text.strip()
    prefix, _, body = text.partition(":")
    entry: str | None = None
    if prefix == "entry" and body:
        found = find_entry(entries_dir or default_entries_dir(), body)
        entry, path = found.id, found.engine
    elif prefix == "bf" and body:
        path = Path(body)
        if not path.is_file():
            raise ValueError(f"no such Brainfuck file {body!r}; give {FREE_MATCH_FORMS}")
    else:
        return FreeOpponent(text)
    path = path.resolve()
    return FreeOpponent(f"bf:{path}", entry, engine_sha256(path))


def free_match_spec(size: int, engine_mark: str, opponent: FreeOpponent, seed: int) -> MatchSpec:
    """The match a free match plays (`ValueError` for a size or mark the arena does not have)."""
    if size not in SIZES:
        raise ValueError(f"a match is played on a board of size {', '.join(map(str, SIZES))}")
    if engine_mark not in ("X", "O"):
        raise ValueError(f"the engine plays X or O, got {engine_mark!r}")
    return MatchSpec(FREE_MATCH, size, opponent.label, engine_mark, seed)


def free_settings(
    spec: MatchSpec, opponent: FreeOpponent, timeout_ms: float | None
) -> dict[str, Any]:
    """The header settings a free match is rebuilt from."""
    return {
        "game": FREE_MATCH,
        "size": spec.size,
        "engineMark": spec.engine_mark,
        **opponent.settings(),
        "timeoutMs": timeout_ms,
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
    versions = {"suite": SUITE_VERSION, "ruleset": RULESET_ID}
    settings = settings_of(item, timeout_ms)
    result = _record(policy, episode, log_path, versions, suite_seed, settings)
    return {"id": item.id, **result}


def play_free_match(
    policy: Any,
    opponent: FreeOpponent,
    log_path: str | Path,
    *,
    size: int,
    engine_mark: str,
    seed: int,
    timeout_ms: float | None = DEFAULT_TIMEOUT_MS,
) -> dict[str, Any]:
    """Play one free match of `policy` (the engine side) against `opponent`, recorded at
    `log_path` like a suite game (`play_arena_game`); `seed` seeds a sparring opponent."""
    spec = free_match_spec(size, engine_mark, opponent, seed)
    episode = MatchEpisode(spec, timeout_ms, opponent.make(seed))
    settings = free_settings(spec, opponent, timeout_ms)
    result = _record(policy, episode, log_path, {"ruleset": RULESET_ID}, seed, settings)
    return {"id": spec.id, **result}


def _record(
    policy: Any,
    episode: PositionEpisode | MatchEpisode,
    log_path: str | Path,
    versions: dict[str, str],
    seed: int,
    settings: dict[str, Any],
) -> dict[str, Any]:
    """Play `episode` into a new log; the result line's fields plus each call's telemetry."""
    calls: list[dict[str, Any]] = []

    def count(call: Call, judged: Judged, event: dict[str, Any]) -> None:
        ms = call.outcome.latency_ms  # any finished call's time, but not the cache's
        latency = round(ms, 3) if math.isfinite(ms) and not call.cached else None
        entry: dict[str, Any] = {"latencyMs": latency, "instructions": event["instructions"]}
        if event["call"].get("usage"):
            entry["usage"] = event["call"]["usage"]
        calls.append(entry)

    with GameLog(log_path) as log:
        log.write(
            header_event(
                benchmark=BENCHMARK_ID,
                versions=versions,
                seed=seed,
                policy=policy_identity(policy),
                settings=settings,
            )
        )
        played = play_episode(episode, LiveCaller(policy, wire=wire_answer), log, on_decision=count)
    result = {k: v for k, v in played.result.items() if k != "type"}
    return {**result, "calls": calls}

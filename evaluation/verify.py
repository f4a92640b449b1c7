"""Replay verification: a recording is trusted only if it re-simulates to itself.

From the header's seed, mode and caps, the game is rebuilt and every recorded answer is
re-judged against the rebuilt question and applied as the harness applied it (Blitz with the
recorded elapsed time). At each tick the state hash, the verdict, what was played and the score
must match the record; at the end, the result. The first tick that diverges is reported, so an
edited answer, hash or score is caught where it was edited (or, for an edit that keeps the tick
self-consistent, at the next tick, whose hash then differs).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arcade_gym.tetris.contract import Verdict, validate
from arcade_gym.tetris.game import TetrisGame
from arcade_gym.tetris.rules import END_ADAPTER_FAILURE, RULESET_ID
from evaluation.harness import (
    UNUSABLE_LIMIT,
    Applied,
    Mode,
    apply_decision,
    normalise_mode,
    unusable_streak_step,
)
from evaluation.logs import LogFormatError, from_jsonable, read_log


@dataclass(frozen=True)
class VerifyReport:
    """The verdict on one log. `first_bad_tick` is None when the fault is not in a tick (the
    header, the file, or the result line)."""

    path: str
    ok: bool
    first_bad_tick: int | None
    message: str

    def line(self) -> str:
        """One line for the CLI: `OK path: ...` or `FAIL path at tick N: reason`."""
        if self.ok:
            return f"OK    {self.path}: {self.message}"
        where = "" if self.first_bad_tick is None else f" at tick {self.first_bad_tick}"
        return f"FAIL  {self.path}{where}: {self.message}"


class _MismatchError(Exception):
    def __init__(self, tick: int | None, message: str) -> None:
        super().__init__(message)
        self.tick = tick
        self.message = message


def _same(a: Any, b: Any) -> bool:
    """JSON equality: 1 == 1.0, but a boolean is never a number."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return bool(a == b)


def _expect(tick: int | None, what: str, recorded: Any, replayed: Any) -> None:
    if not _same(recorded, replayed):
        raise _MismatchError(tick, f"{what}: recorded {recorded!r}, replay gives {replayed!r}")


def _placement_dict(placement: tuple[int, int] | None) -> dict[str, int] | None:
    return None if placement is None else {"x": placement[0], "rotation": placement[1]}


def _replay_tick(game: TetrisGame, mode: Mode, event: dict[str, Any], streak: int) -> int:
    """Re-simulate one recorded tick, raising `_MismatchError` at the first difference."""
    tick = event.get("tick")
    if not isinstance(tick, int):
        raise _MismatchError(None, f"a tick event without an integer tick: {tick!r}")
    if game.over:
        raise _MismatchError(tick, f"the game had already ended ({game.end_reason})")
    _expect(tick, "tick number", tick, game.tick)
    question = game.question(mode)
    _expect(tick, "stateHash", event.get("stateHash"), question.state_hash)
    call = event.get("call") or {}
    call_status = call.get("status") if isinstance(call, dict) else None
    recorded_verdict = event.get("verdict") or {}
    recorded_status = recorded_verdict.get("status") if isinstance(recorded_verdict, dict) else None
    verdict: Verdict | None = None
    if call_status == "ok":
        verdict = validate(from_jsonable(event.get("answer")), question)
        _expect(tick, "verdict", recorded_status, verdict.status)
        tick_class = verdict.status
    elif call_status in ("error", "timeout"):
        if event.get("answer") is not None:
            raise _MismatchError(tick, f"a {call_status} call with an answer recorded")
        _expect(tick, "verdict", recorded_status, call_status)
        tick_class = call_status
    else:
        raise _MismatchError(tick, f"unknown call status {call_status!r}")
    _expect(
        tick,
        "verdict placement",
        recorded_verdict.get("placement"),
        None if verdict is None or verdict.placement is None else verdict.placement.to_dict(),
    )
    _expect(tick, "risk", event.get("risk"), None if verdict is None else verdict.risk)
    _expect(tick, "costUsd", event.get("costUsd"), None if verdict is None else verdict.cost_usd)

    elapsed = None
    blitz = event.get("blitz")
    if mode == "Blitz":
        if not isinstance(blitz, dict) or not isinstance(blitz.get("elapsedMs"), int | float):
            raise _MismatchError(tick, "a Blitz tick without blitz.elapsedMs")
        elapsed = float(blitz["elapsedMs"])
        if not elapsed >= 0:
            raise _MismatchError(tick, f"blitz.elapsedMs must be >= 0, got {elapsed!r}")
    elif blitz is not None:
        raise _MismatchError(tick, "an IQ tick with a blitz block")
    applied: Applied = apply_decision(game, mode, verdict, elapsed)
    _expect(tick, "played", event.get("played"), _placement_dict(applied.played))
    _expect(tick, "hold", event.get("hold"), applied.hold)
    if applied.blitz is not None and isinstance(blitz, dict):
        _expect(tick, "blitz outcome", blitz.get("outcome"), applied.blitz.outcome.value)
        _expect(tick, "blitz rowsFallen", blitz.get("rowsFallen"), applied.blitz.rows_fallen)
    streak = unusable_streak_step(streak, tick_class, mode)
    if streak >= UNUSABLE_LIMIT and not game.over:
        game.end(END_ADAPTER_FAILURE)
    _expect(tick, "scoreAfter", event.get("scoreAfter"), game.score)
    return streak


def _replay(path: Path) -> str:
    """Replay a whole log; the success message, or `_MismatchError`."""
    contents = read_log(path)
    header, events, result = contents.header, contents.events, contents.result
    if header.get("ruleset") != RULESET_ID:
        raise _MismatchError(
            None,
            f"ruleset {header.get('ruleset')!r} cannot be replayed by this engine ({RULESET_ID})",
        )
    try:
        mode = normalise_mode(str(header.get("mode")))
        game = TetrisGame(
            header["seed"], piece_cap=int(header["pieceCap"]), tick_cap=int(header["tickCap"])
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise _MismatchError(None, f"header cannot start a game: {exc}") from None
    streak = 0
    for event in events:
        streak = _replay_tick(game, mode, event, streak)
    if result is None:
        why = f" ({contents.note})" if contents.truncated else ""
        raise _MismatchError(
            None, f"no result line: the recording stops after {len(events)} ticks{why}"
        )
    if not game.over:
        raise _MismatchError(
            None, f"result recorded but the replayed game is still on at {game.tick}"
        )
    replayed = {
        "endReason": game.end_reason,
        "score": game.score,
        "lines": game.lines,
        "pieces": game.pieces,
        "ticks": game.tick,
        "level": game.level,
    }
    for key, value in replayed.items():
        _expect(None, f"result {key}", result.get(key), value)
    return f"{len(events)} ticks replay; {game.end_reason}, score {game.score}"


def verify_log(path: str | Path) -> VerifyReport:
    """Re-simulate one log and compare it tick by tick. Never raises for a bad log."""
    path = Path(path)
    try:
        message = _replay(path)
    except _MismatchError as bad:
        return VerifyReport(str(path), False, bad.tick, bad.message)
    except LogFormatError as exc:
        return VerifyReport(str(path), False, None, str(exc))
    except (OSError, UnicodeError) as exc:
        return VerifyReport(str(path), False, None, f"cannot read: {exc}")
    except Exception as exc:  # a log crafted to break the replay is a failed log, not a crash
        return VerifyReport(str(path), False, None, f"replay failed: {type(exc).__name__}: {exc}")
    return VerifyReport(str(path), True, None, message)


def log_files(paths: Iterable[str | Path]) -> list[Path]:
    """The logs named by `paths`: files as given, directories as every `*.jsonl` below them.

    A missing path raises FileNotFoundError (a user's mistake, not a bad log).
    """
    out: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            out.extend(sorted(p for p in path.rglob("*.jsonl") if p.is_file()))
        elif path.exists():
            out.append(path)
        else:
            raise FileNotFoundError(f"{path} does not exist")
    return out


def verify_paths(paths: Iterable[str | Path]) -> list[VerifyReport]:
    """`verify_log` over files and directories (every `*.jsonl` inside, sorted)."""
    return [verify_log(path) for path in log_files(paths)]

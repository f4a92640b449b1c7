"""Ladder logs back into games: the start position and colour from the header, the rung's moves
and the measurements from the recording (`episode.RecordedSide`); `arcade-eval verify` then feeds
the recorded answers through the one loop and re-derives every decision.

A weak rung (random, greedy, material-2ply) is a seeded built-in, so its moves are re-derived too
(`CheckedSide`): a log whose rung moves were edited fails. A Stockfish rung thinks for a fixed
time, so its moves are taken as recorded, like the judge's measurements."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import chess

from arcade_gym.chess.positions import start_board
from arcade_gym.chess.rules import RULESET_ID
from evaluation.benchmarks.chess_ladder.episode import (
    LEGACY_PROTOCOL,
    MAX_TIMEOUT_MS,
    PROTOCOL_VERSION,
    LadderEpisode,
    LiveSide,
    RecordedSide,
)
from evaluation.benchmarks.chess_ladder.ladder import load_ladder, rung_policy
from evaluation.core.eventlog import LogContents
from evaluation.core.registry import Replay


def replay(contents: LogContents) -> Replay:
    """The game a ladder log starts from, with its recorded decisions."""
    header = contents.header
    versions = header.get("versions") or {}
    protocol = versions.get("protocol")
    if protocol not in (PROTOCOL_VERSION, LEGACY_PROTOCOL) or versions.get("ruleset") != RULESET_ID:
        raise ValueError(
            f"protocol {versions.get('protocol')!r} / ruleset {versions.get('ruleset')!r} cannot "
            f"be replayed by this version ({PROTOCOL_VERSION}, {RULESET_ID})"
        )
    settings: Mapping[str, Any] = header["settings"]
    variant = settings["variant"]
    index = settings.get("startIndex")
    expected = start_board(variant, index).fen() if index is not None else None
    if variant == "standard" and index is None:
        expected = chess.STARTING_FEN
    if expected is not None and settings["startFen"] != expected:
        raise ValueError(f"the header's start position is not {variant} start {index!r}")
    episode = LadderEpisode(
        variant,
        settings["startFen"],
        settings["modelColour"],
        other_side(header, contents.events),
        header_timeout(settings.get("timeoutMs")),
        timeout_aborts=protocol == PROTOCOL_VERSION,
    )
    result = None if contents.result is None else dict(contents.result)
    return Replay(episode, contents.events, result)


def header_timeout(value: object) -> float | None:
    """The header's `timeoutMs` (None: no deadline); a ValueError naming the field unless it is
    a finite number of milliseconds in (0, a day], as a run can set."""
    if value is None:
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not 0 < value <= MAX_TIMEOUT_MS  # NaN and infinities fail here
    ):
        raise ValueError(
            f"header settings.timeoutMs must be a number of milliseconds in (0, "
            f"{MAX_TIMEOUT_MS:.0f}], got {value!r}"
        )
    return float(value)


class CheckedSide(RecordedSide):
    """The recorded game, with each of the rung's moves re-derived by the rung itself and
    compared: a different move fails the replay, naming it. Only on the recorded line: once a
    replayed model move differs from the log, the replay itself fails at that decision. The
    measurements are the recorded ones."""

    def __init__(self, events: Sequence[Mapping[str, Any]], rung: str, live: LiveSide) -> None:
        super().__init__(events)
        self.rung = rung
        self.live = live

    def reply(self, board: chess.Board, decision: int) -> chess.Move:
        recorded = super().reply(board, decision)
        if decision >= 0 and (
            not board.move_stack or board.peek().uci() != self.model_move(decision)
        ):
            return recorded  # the model's move already left the record: the replay names it
        derived = self.live.reply(board, decision)
        if derived != recorded:
            raise ValueError(
                f"rung {self.rung} plays {derived.uci()} at decision {decision}, "
                f"the log says {recorded.uci()}"
            )
        return recorded


def other_side(header: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> RecordedSide:
    """The rung's side of a logged game: re-derived for a weak rung of the ladder the game was
    played on (seeded by the game's seed, as the run seeded it), else as recorded."""
    settings = header["settings"]
    ladder = load_ladder()
    seed = header.get("seed")
    rung = next((r for r in ladder.rungs if r.name == settings.get("rung")), None)
    if rung is None or rung.kind != "weak" or settings.get("ladder") != ladder.version:
        return RecordedSide(events)
    if not isinstance(seed, str):
        raise ValueError("the header has no seed for the weak rung's moves")
    live = LiveSide(rung_policy(rung, ladder, seed), None, settings["variant"])
    return CheckedSide(events, rung.name, live)

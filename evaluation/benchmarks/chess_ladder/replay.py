"""Ladder logs back into games: the start position and colour from the header, the rung's moves
and the measurements from the recording (`episode.RecordedSide`); `arcade-eval verify` then feeds
the recorded answers through the one loop and re-derives every decision."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import chess

from arcade_gym.chess.positions import start_board
from arcade_gym.chess.rules import RULESET_ID
from evaluation.benchmarks.chess_ladder.episode import PROTOCOL_VERSION, LadderEpisode, RecordedSide
from evaluation.core.eventlog import LogContents
from evaluation.core.registry import Replay


def replay(contents: LogContents) -> Replay:
    """The game a ladder log starts from, with its recorded decisions."""
    header = contents.header
    versions = header.get("versions") or {}
    if versions.get("protocol") != PROTOCOL_VERSION or versions.get("ruleset") != RULESET_ID:
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
    timeout = settings.get("timeoutMs")
    episode = LadderEpisode(
        variant,
        settings["startFen"],
        settings["modelColour"],
        RecordedSide(contents.events),
        None if timeout is None else float(timeout),
    )
    result = None if contents.result is None else dict(contents.result)
    return Replay(episode, contents.events, result)

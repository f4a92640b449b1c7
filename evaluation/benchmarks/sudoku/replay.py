"""Sudoku logs back into games: the grid a header names, checked against its published set."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arcade_gym.sudoku.rules import GRADER_VERSION
from arcade_gym.sudoku.sets import set_grids
from evaluation.benchmarks.sudoku.episode import (
    PROTOCOL_VERSION,
    RECORD_KEYS,
    GridEpisode,
    WireAnswers,
)
from evaluation.core.eventlog import LogContents
from evaluation.core.header_limits import MAX_TIME_MS, limited_float
from evaluation.core.registry import Replay


def replay(contents: LogContents) -> Replay:
    """The grid a Sudoku log starts from, with its recorded decisions."""
    header = contents.header
    versions = header.get("versions") or {}
    set_version = versions.get("set")
    if versions.get("protocol") != PROTOCOL_VERSION:
        raise ValueError(
            f"protocol {versions.get('protocol')!r} cannot be replayed by this version "
            f"({PROTOCOL_VERSION}); run the grid again"
        )
    if versions.get("grader") != GRADER_VERSION:
        raise ValueError(
            f"grader {versions.get('grader')!r} cannot be replayed by this version "
            f"(grader {GRADER_VERSION})"
        )
    settings = header["settings"]
    named = settings["grid"]
    record = next((g for g in set_grids(str(set_version)) if g["id"] == named.get("id")), None)
    if record is None or any(record[k] != named.get(k) for k in RECORD_KEYS):
        raise ValueError(f"{named.get('id')!r} is not a grid of set {set_version}")
    timeout = settings.get("timeoutMs")
    if timeout is not None:
        timeout = limited_float(timeout, "settings.timeoutMs", MAX_TIME_MS)
    episode = GridEpisode(record, str(set_version), timeout)
    result = None if contents.result is None else dict(contents.result)
    return Replay(episode, contents.events, result)


def rederive(header: Mapping[str, Any]) -> Any:
    """The deterministic built-in a header names by its slug (`solver`, `singles`,
    `techniques-K`; None for any other policy): `verify` re-derives every answer."""
    from policies.sudoku import SinglesPolicy, SolverPolicy, TechniquesPolicy

    named = header.get("policy")
    slug = str(named.get("slug")) if isinstance(named, Mapping) else ""
    if slug == "solver":
        return WireAnswers(SolverPolicy())
    if slug == "singles":
        return WireAnswers(SinglesPolicy())
    if slug.startswith("techniques-") and slug[11:].isdigit():
        return WireAnswers(TechniquesPolicy(int(slug[11:])))
    return None

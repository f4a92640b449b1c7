"""Tetris Bench logs back into games: the episode a header starts, and logs of version 1 upgraded.

`arcade-eval verify` (`evaluation/core/verify.py`) feeds the recorded calls through the one loop;
this module only rebuilds the `TetrisEpisode` from the header and, for `logVersion` 1 logs
(`tick` lines with the answer, latency and Blitz time at the top level), rewrites each tick into
the current decision layout so old recordings still verify. A cap ending recorded without
`capDetail` (every log written before it existed) replays under the old end names. The caps and
the budget a header sets are checked against the ruleset's own (`check_settings`) before the game
is built: the piece cap sizes the piece sequence the game allocates.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arcade_gym.tetris.rules import PIECE_CAP, RULESET_ID, TICK_CAP
from evaluation.benchmarks.tetris_bench.defaults import BENCHMARK_ID
from evaluation.benchmarks.tetris_bench.episode import CAP_ENDS, TetrisEpisode
from evaluation.core.eventlog import LogContents
from evaluation.core.header_limits import MAX_TIME_MS, limited_float, limited_int, setting
from evaluation.core.registry import Replay

DETERMINISTIC = ("heuristic", "search", "random")
"""Built-in brains whose answers `verify` re-derives from the questions (a relabelled log fails).
The random baseline is re-derived only when its header records its seed."""


def reads_log(header: Mapping[str, Any]) -> bool:
    """A version-1 Tetris Bench header (no `benchmark` key, the ruleset instead)."""
    return header.get("logVersion") == 1 and header.get("ruleset") == RULESET_ID


def _upgrade_tick(tick: Mapping[str, Any], n: int) -> dict[str, Any]:
    blitz = tick.get("blitz")
    given = tick.get("call")
    call: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
    event: dict[str, Any] = {
        "type": "decision",
        "n": n,
        "call": {
            "status": call.get("status"),
            "answer": tick.get("answer"),
            "error": call.get("error"),
            "latencyMs": tick.get("latencyMs"),
            "elapsedMs": blitz.get("elapsedMs") if isinstance(blitz, Mapping) else None,
        },
    }
    for key in ("tick", "stateHash", "verdict", "played", "hold", "risk", "costUsd"):
        event[key] = tick.get(key)
    if isinstance(blitz, Mapping):
        event["blitz"] = {"outcome": blitz.get("outcome"), "rowsFallen": blitz.get("rowsFallen")}
    elif blitz is not None:
        event["blitz"] = blitz
    event["scoreAfter"] = tick.get("scoreAfter")
    return event


def check_settings(settings: Mapping[str, Any], prefix: str = "settings") -> dict[str, Any]:
    """The header's caps and budget as the episode takes them, each within the ruleset's limits
    (pieces 1..PIECE_CAP, ticks 1..TICK_CAP, a finite budget > 0); `HeaderLimitError` (a
    ValueError) names the first field outside them."""
    budget = settings.get("budgetMs")
    return {
        "piece_cap": limited_int(
            setting(settings, "pieceCap", prefix=prefix), f"{prefix}.pieceCap", 1, PIECE_CAP
        ),
        "tick_cap": limited_int(
            setting(settings, "tickCap", prefix=prefix), f"{prefix}.tickCap", 1, TICK_CAP
        ),
        "budget_ms": 20_000.0
        if budget is None
        else limited_float(budget, f"{prefix}.budgetMs", MAX_TIME_MS),
    }


def replay(contents: LogContents) -> Replay:
    """The game a Tetris Bench log starts from, with its decisions in the current layout."""
    header = contents.header
    version = int(header.get("logVersion", 2))
    if version == 1:
        settings: Mapping[str, Any] = header
        prefix = "header"
        events = [_upgrade_tick(tick, n) for n, tick in enumerate(contents.events)]
        ruleset = header.get("ruleset")
    else:
        settings = header["settings"]
        prefix = "settings"
        events = contents.events
        ruleset = (header.get("versions") or {}).get("ruleset")
    if ruleset != RULESET_ID:
        raise ValueError(f"ruleset {ruleset!r} cannot be replayed by this engine ({RULESET_ID})")
    if not isinstance(settings, Mapping):
        raise ValueError("the header's settings are not an object")
    limits = check_settings(settings, prefix)
    recorded = contents.result or {}
    episode = TetrisEpisode(
        header["seed"],
        str(settings["mode"]),
        **limits,
        log_version=version,
        legacy_ends=recorded.get("endReason") in CAP_ENDS and "capDetail" not in recorded,
    )
    result = None if contents.result is None else dict(contents.result)
    if result is not None:
        result.pop("type", None)
        result = {"type": "result", **result}
    return Replay(episode, events, result)


def rederive(header: Mapping[str, Any]) -> Any:
    """The deterministic built-in brain a header names (None for any other brain)."""
    brain = header.get("policy") if header.get("benchmark") == BENCHMARK_ID else header.get("brain")
    slug = brain.get("slug") if isinstance(brain, Mapping) else None
    if slug not in DETERMINISTIC:
        return None
    from policies.tetris import make_brain

    if slug == "random":
        seed = brain.get("seed") if isinstance(brain, Mapping) else None
        if type(seed) is not int:
            return None  # recorded before the seed was: identity recorded, not proven
        return make_brain("random", seed=seed)
    return make_brain(str(slug))

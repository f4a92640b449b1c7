"""NARCADE logs back into episodes, for `arcade-eval verify`, resume and `narcade
export-replays`.

The header's `settings` rebuild the `NarcadeEpisode` at its start (`episode.py`); the recorded
calls then go through the one loop (`evaluation/core/episode.py`). A log of another rules version,
observation protocol or task statement is refused. A game recorded as ended by `time cap` is
replayed to the recorded number of decisions (wall time cannot be re-simulated), and only when
the header says the game had a time cap at all.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from evaluation.benchmarks.narcade.episode import TIME_CAP, EpisodeConfig, NarcadeEpisode
from evaluation.benchmarks.narcade.protocol import (
    POLICY_GAMES,
    PROTOCOL_VERSION,
    READABLE_PROTOCOLS,
    RULES_VERSION,
)
from evaluation.core.eventlog import LogContents
from evaluation.core.registry import Replay

DETERMINISTIC = ("random", "heuristic")
"""Built-ins whose answers `verify` re-derives (random is seeded by the episode seed)."""


def replay(contents: LogContents) -> Replay:
    """The episode a NARCADE log starts from, with its recorded decisions and result."""
    header = contents.header
    found = header.get("versions") or {}
    if found.get("rules") != RULES_VERSION:
        raise ValueError(f"rules version {found.get('rules')!r} is not {RULES_VERSION}")
    if found.get("protocol") not in READABLE_PROTOCOLS:
        raise ValueError(
            f"observation protocol {found.get('protocol')!r} is not one of "
            f"{', '.join(READABLE_PROTOCOLS)}"
        )
    config = EpisodeConfig.from_header(header["settings"])
    seed = header["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"a NARCADE seed is a whole number, got {seed!r}")
    result = None if contents.result is None else {**contents.result, "type": "result"}
    end_after = None
    if result is not None and result.get("endReason") == TIME_CAP:
        if config.max_seconds is None:
            raise ValueError("the result claims a time cap but the game had no --max-seconds")
        end_after = len(contents.events)
    events = contents.events
    if found.get("protocol") != PROTOCOL_VERSION:
        events = [_upgrade(event) for event in events]
    return Replay(NarcadeEpisode(config, seed, end_after=end_after), events, result)


def _upgrade(event: dict[str, Any]) -> dict[str, Any]:
    """A decision of protocol 1 as protocol 2 records it: a traced Minesweeper state without the
    board's second (numeric) form."""
    state = event.get("state")
    if isinstance(state, dict) and "grid" in state:
        return {**event, "state": {k: v for k, v in state.items() if k != "grid"}}
    return event


def builtin_name(policy: Mapping[str, Any]) -> str | None:
    """The deterministic built-in a header's policy block names, if any: its slug, unless the
    spec says the policy came from elsewhere (`py:`, `llm:`, ...)."""
    slug = policy.get("slug")
    spec = str(policy.get("spec") or slug).removeprefix("policy:")
    if slug not in DETERMINISTIC or (":" in spec):
        return None
    return str(slug)


def rederive(header: Mapping[str, Any]) -> Any:
    """The deterministic built-in a header names, seeded as it was (None for any other)."""
    policy = header.get("policy")
    settings = header.get("settings")
    if not isinstance(policy, Mapping) or not isinstance(settings, Mapping):
        return None
    name = builtin_name(policy)
    game = POLICY_GAMES.get(str(settings.get("game")))
    if name is None or game is None:
        return None
    from policies.specs import SpecOptions, make_policy

    return make_policy(name, game, SpecOptions(seed=int(header["seed"])))

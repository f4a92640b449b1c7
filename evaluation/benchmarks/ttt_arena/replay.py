"""Arena logs back into games: the position or match a header names, rebuilt from the suite seed,
or a free match rebuilt with its opponent.

The header carries the item it was played on; the replay rebuilds the suite of the header's seed
and refuses a header whose item is not that suite's (a position or expected set edited in the
header fails). A free match's header names its opponent (`episode.FreeOpponent`): the replay
rebuilds it, refusing an engine file that is missing (a shipped entry's engine is also looked up
by its id), is no regular file, is a link leaving its folder or no longer has the recorded
SHA-256, and re-derives its moves. Header fields that size work are checked first: the seed,
the board size and `timeoutMs` (a finite number of milliseconds within the arena's limit).
`arcade-eval verify` (`evaluation/core/verify.py`) then feeds the recorded calls through the one
loop.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from arcade_gym.tictactoe.rules import RULESET_ID
from evaluation.benchmarks.ttt_arena.answers import WireAnswers
from evaluation.benchmarks.ttt_arena.defaults import MAX_SEED, MAX_TIMEOUT_MS
from evaluation.benchmarks.ttt_arena.episode import (
    FREE_MATCH,
    FreeOpponent,
    Item,
    MatchEpisode,
    free_match_spec,
    make_episode,
)
from evaluation.benchmarks.ttt_arena.suite import SUITE_VERSION, build_suite
from evaluation.core.eventlog import LogContents, to_jsonable
from evaluation.core.registry import Replay


def replay(contents: LogContents) -> Replay:
    """The position or match an arena log starts from, with its recorded decisions."""
    header = contents.header
    versions = header.get("versions") or {}
    if not isinstance(header["settings"], Mapping):
        raise TypeError("the header's settings must be an object")
    if header["settings"].get("game") == FREE_MATCH:
        return _free_match(contents)
    if versions.get("suite") != SUITE_VERSION or versions.get("ruleset") != RULESET_ID:
        raise ValueError(
            f"suite {versions.get('suite')!r} / ruleset {versions.get('ruleset')!r} cannot be "
            f"replayed by this version (suite {SUITE_VERSION}, {RULESET_ID})"
        )
    seed = _seed(header)
    settings = header["settings"]
    item_data = settings["item"]
    suite = build_suite(seed)
    items: dict[str, Item] = {p.id: p for p in suite.positions}
    items.update({m.id: m for m in suite.matches})
    item = items.get(str(item_data.get("id")))
    if item is None or to_jsonable(item.to_dict()) != item_data:
        raise ValueError(
            f"{item_data.get('id')!r} is not an item of suite {SUITE_VERSION} seed {seed}"
        )
    episode = make_episode(item, _timeout(settings))
    return _replay_of(episode, contents)


def _free_match(contents: LogContents) -> Replay:
    """A free match: its board, the engine's mark and its opponent, rebuilt from the header."""
    header = contents.header
    ruleset = (header.get("versions") or {}).get("ruleset")
    if ruleset != RULESET_ID:
        raise ValueError(f"ruleset {ruleset!r} cannot be replayed by this version ({RULESET_ID})")
    seed = _seed(header)
    settings = header["settings"]
    timeout = _timeout(settings)
    size = settings.get("size")
    if type(size) is not int:
        raise ValueError(f"header field settings.size must be a board size, got {size!r}")
    opponent = FreeOpponent.from_settings(settings)
    spec = free_match_spec(size, settings["engineMark"], opponent, seed)
    episode = MatchEpisode(spec, timeout, opponent.make(seed))
    return _replay_of(episode, contents)


def _timeout(settings: Mapping[str, Any]) -> float | None:
    """The header's per-move limit: null (no limit, as `run_arena(timeout_ms=None)` records)
    or a finite number of milliseconds in (0, `MAX_TIMEOUT_MS`]; `ValueError` naming the field."""
    timeout = settings.get("timeoutMs")
    if timeout is None:
        return None
    if (
        type(timeout) not in (int, float)
        or not math.isfinite(timeout)
        or not 0 < timeout <= MAX_TIMEOUT_MS
    ):
        raise ValueError(
            f"header field settings.timeoutMs must be a number of milliseconds in "
            f"(0, {MAX_TIMEOUT_MS:.0f}], got {timeout!r}"
        )
    return float(timeout)


def _seed(header: Mapping[str, Any]) -> int:
    """The header's seed (the suite's, or a free match's sparring seed)."""
    seed = header["seed"]
    if type(seed) is not int or not 0 <= seed <= MAX_SEED:
        raise ValueError(f"header field seed must be an integer in [0, 2**64), got {seed!r}")
    return seed


def _replay_of(episode: Any, contents: LogContents) -> Replay:
    result = None if contents.result is None else dict(contents.result)
    return Replay(episode, contents.events, result)


def rederive(header: Mapping[str, Any]) -> Any:
    """The sparring player a header names (None for any other policy): its answers are
    deterministic, so `verify` re-derives every one and a relabelled log fails. A header names a
    built-in when its slug, name and kind are the built-in's; an engine whose file happens to be
    called `perfect.bf` (slug `perfect`, kind `engine`) is not one."""
    from evaluation.core.policy_identity import policy_identity
    from policies.tictactoe import BUILTINS, make_player

    named = header.get("policy")
    slug = named.get("slug") if isinstance(named, Mapping) else None
    if not isinstance(named, Mapping) or slug not in BUILTINS:
        return None
    player = make_player(str(slug))
    identity = policy_identity(player)
    if any(named.get(key) != identity.get(key) for key in ("slug", "name", "kind")):
        return None
    return WireAnswers(player)

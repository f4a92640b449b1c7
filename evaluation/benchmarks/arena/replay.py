"""Arena logs back into games: the position or match a header names, rebuilt from the suite seed,
or a free match rebuilt with its opponent.

The header carries the item it was played on; the replay rebuilds the suite of the header's seed
and refuses a header whose item is not that suite's (a position or expected set edited in the
header fails). A free match's header names its opponent (`episode.FreeOpponent`): the replay
rebuilds it, refusing an engine file that is missing (a shipped entry's engine is also looked up
by its id) or no longer has the recorded SHA-256, and re-derives its moves. `arcade-eval verify`
(`evaluation/core/verify.py`) then feeds the recorded calls through the one loop.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arcade_gym.tictactoe.rules import RULESET_ID
from evaluation.benchmarks.arena.answers import WireAnswers
from evaluation.benchmarks.arena.episode import (
    FREE_MATCH,
    FreeOpponent,
    Item,
    MatchEpisode,
    free_match_spec,
    make_episode,
)
from evaluation.benchmarks.arena.suite import SUITE_VERSION, build_suite
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
    timeout = settings.get("timeoutMs")
    episode = make_episode(item, None if timeout is None else float(timeout))
    return _replay_of(episode, contents)


def _free_match(contents: LogContents) -> Replay:
    """A free match: its board, the engine's mark and its opponent, rebuilt from the header."""
    header = contents.header
    ruleset = (header.get("versions") or {}).get("ruleset")
    if ruleset != RULESET_ID:
        raise ValueError(f"ruleset {ruleset!r} cannot be replayed by this version ({RULESET_ID})")
    seed = _seed(header)
    settings = header["settings"]
    opponent = FreeOpponent.from_settings(settings)
    spec = free_match_spec(settings["size"], settings["engineMark"], opponent, seed)
    timeout = settings.get("timeoutMs")
    episode = MatchEpisode(spec, None if timeout is None else float(timeout), opponent.make(seed))
    return _replay_of(episode, contents)


def _seed(header: Mapping[str, Any]) -> int:
    """The header's seed (the suite's, or a free match's sparring seed)."""
    seed = header["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"the seed must be an integer, got {seed!r}")
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

"""What results must satisfy before they are ranked together or merged into an index.

One ruleset, finished games in a known mode, each game once, an IQ game for every brain, and the
same IQ seeds for every brain: a mean over other seeds is not the same quantity.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from evaluation.benchmarks.tetris_bench.leaderboard_model import MODES
from evaluation.benchmarks.tetris_bench.records import GameResult
from evaluation.core.episode import INCOMPLETE_ENDS


def check_one_ruleset(results: Sequence[GameResult], where: str = "results") -> str:
    """The one ruleset of `results`; a ValueError when they mix rulesets (`where` names them)."""
    rulesets = sorted({r.ruleset for r in results})
    if len(rulesets) > 1:
        raise ValueError(
            f"{where} mix rulesets {', '.join(rulesets)}: results of different rulesets are not "
            "comparable; build one leaderboard per ruleset"
        )
    return rulesets[0]


def check_modes_and_duplicates(
    results: Sequence[GameResult], where: str = "results", *, repeats: int = 1
) -> None:
    """Refuse unfinished games, unknown modes and a game played more than `repeats` times
    (brain, mode, seed; a run of several repeats plays each that often, `--repeats`)."""
    seen: dict[tuple[str, str, str], int] = {}
    for r in results:
        if r.end_reason in INCOMPLETE_ENDS:
            raise ValueError(
                f"{r.slug} {r.mode} {r.seed} ended {r.end_reason!r}: a game that did not finish "
                "is never counted; resume the run to play it again"
            )
        if r.mode not in MODES:
            raise ValueError(
                f"unknown mode {r.mode!r} for {r.slug} on {r.seed}; expected IQ or Blitz"
            )
        key = (r.slug, r.mode, r.seed)
        seen[key] = seen.get(key, 0) + 1
        if seen[key] > repeats:
            times = "once" if repeats == 1 else f"{repeats} times"
            raise ValueError(
                f"{where} hold {r.slug} {r.mode} {r.seed} more than {times}; "
                f"each brain plays each seed {times} per mode"
            )


def iq_seed_sets(results: Sequence[GameResult]) -> dict[str, frozenset[str]]:
    """Per brain, the IQ seeds it played; refuses a brain with no IQ game (IQ is not optional)."""
    sets: dict[str, set[str]] = {r.slug: set() for r in results}
    for r in results:
        if r.mode == "IQ":
            sets[r.slug].add(r.seed)
    no_iq = sorted(slug for slug, seeds in sets.items() if not seeds)
    if no_iq:
        raise ValueError(
            f"{', '.join(no_iq)} played no IQ game: "
            "IQ is required for every brain, Blitz is optional"
        )
    return {slug: frozenset(seeds) for slug, seeds in sets.items()}


def check_same_seeds(sets: Mapping[str, frozenset[str]]) -> frozenset[str]:
    """The one IQ seed set every brain played, or a ValueError naming who differs and how."""
    distinct = set(sets.values())
    if len(distinct) == 1:
        return next(iter(distinct))
    common = frozenset.intersection(*sets.values())
    detail = "; ".join(
        f"{slug}: {len(seeds)} seeds, not shared {', '.join(sorted(seeds - common))}"
        for slug, seeds in sorted(sets.items())
        if seeds != common
    )
    raise ValueError(
        "brains played different IQ seed sets; every brain must play the same seeds to be "
        f"ranked together ({detail})"
    )

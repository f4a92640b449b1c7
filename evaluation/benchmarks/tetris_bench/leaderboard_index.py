"""The leaderboard index: every official result of one ruleset over one IQ seed set, merged run
after run (latest wins per brain), replaced atomically.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from evaluation.benchmarks.tetris_bench.leaderboard_checks import (
    check_modes_and_duplicates,
    check_one_ruleset,
    check_same_seeds,
    iq_seed_sets,
)
from evaluation.benchmarks.tetris_bench.records import GameResult, ResultFormatError
from evaluation.core.rundir import write_text_atomic
from evaluation.core.untrusted_json import read_json

INDEX_FORMAT = "arcade-gym/leaderboard-index@1"


def load_index(index_path: str | os.PathLike[str]) -> list[GameResult]:
    """The results stored in a leaderboard index (an empty list when there is no index yet)."""
    path = Path(index_path)
    return _index_results(path, _read_index(path))


def _index_results(path: Path, index: Mapping[str, Any]) -> list[GameResult]:
    """The index's results (camelCase, or the snake_case keys of indexes written before)."""
    try:
        return [GameResult.from_dict(d) for d in index.get("results", [])]
    except ResultFormatError as exc:
        raise ValueError(f"cannot read leaderboard index {path}: {exc}") from None


def _read_index(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        data = read_json(path)
    except (OSError, ValueError) as exc:
        raise ValueError(f"cannot read leaderboard index {path}: {exc}") from None
    if not (
        isinstance(data, dict)
        and isinstance(data.get("ruleset"), str)
        and isinstance(data.get("seeds"), list)
        and isinstance(data.get("results"), list)
    ):
        raise ValueError(
            f"{path} is not a leaderboard index (expected an object with ruleset, seeds, results)"
        )
    return data


def merge_index(
    index_path: str | os.PathLike[str],
    results: Sequence[GameResult],
    *,
    official: bool = True,
) -> dict[str, Any]:
    """Merge an official run into the index file and return the index as written.

    The first merge fixes the index's ruleset and IQ seed set; later merges must match both.
    A brain already in the index is replaced as a whole (latest wins); the same game twice within
    one merge is refused. Quick (non-official) runs are never merged. The file is replaced
    atomically so a crash leaves the previous index intact.
    """
    path = Path(index_path)
    if not official:
        raise ValueError(
            "only official results are merged into a leaderboard index; "
            "rerun with --official (all public seeds) to publish"
        )
    new = list(results)
    if not new:
        raise ValueError("nothing to merge: no results given")
    ruleset = check_one_ruleset(new, "the results to merge")
    check_modes_and_duplicates(new, "the results to merge")
    seeds = check_same_seeds(iq_seed_sets(new))
    blitz_elsewhere = sorted({r.seed for r in new if r.mode == "Blitz"} - seeds)

    index = _read_index(path)
    if index:
        index_seeds = frozenset(str(s) for s in index["seeds"])
        if index["ruleset"] != ruleset or index_seeds != seeds:
            raise ValueError(
                f"cannot merge into {path}: the index holds {index['ruleset']} over "
                f"{len(index_seeds)} IQ seeds, these results are {ruleset} over {len(seeds)} "
                f"IQ seeds ({_seed_difference(index_seeds, seeds)}); an index holds one ruleset "
                "and one seed set, so start a new index for a new ruleset or seed set"
            )
    if blitz_elsewhere:
        raise ValueError(
            f"Blitz games on seeds outside the IQ seed set: {', '.join(blitz_elsewhere)}; "
            "an index holds one seed set"
        )

    incoming = {r.slug for r in new}
    kept = [r.to_dict() for r in _index_results(path, index) if r.slug not in incoming]
    merged = {
        "format": INDEX_FORMAT,
        "ruleset": ruleset,
        "seeds": sorted(seeds),
        "results": kept + [r.to_dict() for r in new],
    }
    write_text_atomic(path, json.dumps(merged, indent=1, ensure_ascii=False) + "\n", fsync=True)
    return merged


def _seed_difference(old: frozenset[str], new: frozenset[str]) -> str:
    parts = []
    if new - old:
        parts.append("not in the index: " + ", ".join(sorted(new - old)))
    if old - new:
        parts.append("missing: " + ", ".join(sorted(old - new)))
    return "; ".join(parts) or "same seeds"

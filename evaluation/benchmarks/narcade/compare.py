"""Two policies of one NARCADE run, seed by seed on each game: the paired score differences
`publish.py:compare` reports between publications, here between two policies of one run, with
the seed-block bootstrap interval of `evaluation/core/stats.py` (NARCADE's own tables give means
only)."""

from __future__ import annotations

from pathlib import Path

from evaluation.benchmarks.narcade.results import result_path
from evaluation.benchmarks.narcade.suite_run import GAMES
from evaluation.suite.paired import REPLICATES, Paired, pair_units
from evaluation.suite.part import read_object


def _scores(root: Path, spec: str, game: str) -> dict[str, float]:
    """Seed -> score of the episodes of `spec` on `game` the run finished."""
    result = read_object(root, result_path(root, spec, game)) or {}
    listed = result.get("episodes")
    episodes = listed if isinstance(listed, list) else []
    return {
        str(e["seed"]): float(e["score"])
        for e in episodes
        if isinstance(e, dict)
        and isinstance(e.get("seed"), int)
        and isinstance(e.get("score"), int | float)
        and not isinstance(e.get("score"), bool)
    }


def compare(run_dir: Path, a: str, b: str) -> list[Paired]:
    """Policy `a` against `b` (specs as the run was given them), one comparison per game."""
    root = Path(run_dir)
    if a == b:
        return []
    found = []
    for game, label in GAMES.items():
        paired = pair_units(
            label,
            "seed",
            _scores(root, a, game),
            _scores(root, b, game),
            f"mean paired score difference over the seeds both played, with a {REPLICATES:,}-"
            "replicate seed-block bootstrap 95% percentile interval",
        )
        if paired is not None:
            found.append(paired)
    return found

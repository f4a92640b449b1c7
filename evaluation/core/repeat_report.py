"""What a report says about a run of several repeats (`--repeats K`, `evaluation/core/repeats.py`):
one block, the same in every benchmark's JSON, and the line its text report prints.

The headline of a repeated run is the mean over repeats; its 95% interval is the two-level
bootstrap of `evaluation/core/stats.py:repeated_bootstrap` over the benchmark's units (seeds,
grids, positions) and their repeats, so it includes the spread between samples. Beside it: the
headline of each repeat alone, and the sd between repeats of one unit (`withinSd`, what sampling
alone moves a unit's score) and between units' means (`betweenSd`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from evaluation.core.repeated_stats import repeated_bootstrap

METHOD = "two-level bootstrap over units x repeats (evaluation/core/stats.py:repeated_bootstrap)"


def repeat_block(
    samples: Sequence[Sequence[float]],
    per_repeat: Sequence[float],
    *,
    strata: Sequence[str] | None = None,
    weights: Mapping[str, float] | None = None,
    unit: str = "seed",
) -> dict[str, Any]:
    """The `repeats` block of a policy's report: `samples[u]` is unit u's score in each repeat,
    `per_repeat[r]` the benchmark's headline over repeat r + 1 alone, `strata` (optional) the
    group of each unit whose means weigh the same (Sudoku's tiers), or as `weights` says (the
    arena's categories)."""
    got = repeated_bootstrap(samples, strata=strata, weights=weights)
    return {
        "repeats": len(per_repeat),
        "unit": unit,
        "units": got.units,
        "mean": got.mean,
        "ci95": [got.low, got.high],
        "perRepeat": [float(value) for value in per_repeat],
        "withinSd": got.within_sd,
        "betweenSd": got.between_sd,
        "method": METHOD,
    }


def _number(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def repeat_line(name: str, block: dict[str, Any]) -> str:
    """One line for a text report: mean, interval, each repeat's headline and the two spreads."""
    low, high = block["ci95"]
    each = ", ".join(f"{value:.2f}" for value in block["perRepeat"])
    return (
        f"{name}: mean over {block['repeats']} repeats {block['mean']:.2f} "
        f"(95% CI {low:.2f}-{high:.2f}, {block['unit']}s and repeats resampled); "
        f"per repeat {each}; "
        f"sd between repeats of a {block['unit']} {_number(block['withinSd'])}, "
        f"between {block['unit']}s {_number(block['betweenSd'])}"
    )

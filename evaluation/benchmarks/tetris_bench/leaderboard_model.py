"""The Tetris Bench leaderboard's figures: a brain's row, a pair's head-to-head, the board.

Built by `leaderboard.py:build_leaderboard`, written and read back by `leaderboard_json.py`, shown
by `leaderboard_render.py`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from evaluation.core.stats import HeadToHead

MODES = ("IQ", "Blitz")


@dataclass(frozen=True)
class BlitzSummary:
    """A brain's Blitz games: the highest level reached and how many questions were in time.

    `questions` counts ticks (one tick is one question), so late, unusable and gravity-locked
    questions all count against the in-time share.
    """

    games: int
    level_reached: int
    questions: int
    in_time: int
    late: int
    unreachable: int
    locked: int

    @property
    def in_time_share(self) -> float | None:
        """Answered in time / questions asked; None when no question was asked."""
        return self.in_time / self.questions if self.questions else None


@dataclass(frozen=True)
class Row:
    """One brain on the leaderboard (IQ figures unless named Blitz)."""

    rank: int
    tied_with_above: bool  # the `≈`: head-to-head interval with the row above includes zero
    slug: str
    name: str
    kind: str
    provider: str | None
    score: float
    half_width: float | None  # None unless official: `seed_scores` are listed instead
    seed_scores: dict[str, float]
    """Each IQ seed's score (its mean over repeats in a run of several)."""
    lines: float
    latency_ms: float | None
    cost_per_100: float | None  # None: nothing priced (a local brain), shown as a dash
    prompt_tokens: int
    completion_tokens: int
    priced_calls: int
    unpriced_calls: int
    blitz: BlitzSummary | None  # None: "not run"
    vs_above: HeadToHead | None
    elo: float
    elo_interval: tuple[float, float] | None  # None: withheld (separated record)
    brier: float | None
    risk_reports: int
    repeats: Mapping[str, Any] | None = None
    """A run of several repeats (`--repeats`): the mean over repeats with its interval
    (`evaluation/core/repeat_report.py:repeat_block`); None: one game per seed."""


@dataclass(frozen=True)
class Pair:
    """Head-to-head of two brains over the shared IQ seeds, `a` ranked above `b`: the paired
    differences (a - b) per seed and their bootstrap summary."""

    a: str
    b: str
    differences: dict[str, float]
    summary: HeadToHead


@dataclass(frozen=True)
class Leaderboard:
    """The ranked rows of one ruleset over one IQ seed set, and every pair's head-to-head."""

    ruleset: str
    seeds: tuple[str, ...]
    rows: tuple[Row, ...]
    pairs: tuple[Pair, ...] = ()
    official: bool = False
    replicates: int = 2000

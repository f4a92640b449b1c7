"""The Tetris Bench leaderboard as JSON (`leaderboard.json`, camelCase) and back.

Reading a shipped board back lets the site render it with the same cell functions as the Markdown
table (`leaderboard_render.py`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from evaluation.benchmarks.tetris_bench.leaderboard_model import (
    BlitzSummary,
    Leaderboard,
    Pair,
    Row,
)
from evaluation.core.stats import HeadToHead


def to_json(lb: Leaderboard) -> dict[str, Any]:
    """Every figure of the leaderboard as plain JSON values (None where the table shows a dash)."""

    def row(r: Row) -> dict[str, Any]:
        blitz = None
        if r.blitz is not None:
            blitz = {
                "games": r.blitz.games,
                "levelReached": r.blitz.level_reached,
                "questions": r.blitz.questions,
                "inTime": r.blitz.in_time,
                "late": r.blitz.late,
                "unreachable": r.blitz.unreachable,
                "locked": r.blitz.locked,
                "inTimeShare": r.blitz.in_time_share,
            }
        vs_above = None
        if r.vs_above is not None:
            h = r.vs_above
            vs_above = {
                "meanDiff": h.mean_diff,
                "low": h.low,
                "high": h.high,
                "winsAbove": h.wins_a,
                "winsThis": h.wins_b,
                "ties": h.ties,
                "seeds": h.n,
                "includesZero": h.includes_zero,
            }
        return {
            "rank": r.rank,
            "tiedWithAbove": r.tied_with_above,
            "slug": r.slug,
            "name": r.name,
            "kind": r.kind,
            "provider": r.provider,
            "score": r.score,
            "halfWidth95": r.half_width,
            "seedScores": dict(r.seed_scores),
            "lines": r.lines,
            "latencyMs": r.latency_ms,
            "costPer100Decisions": r.cost_per_100,
            "promptTokens": r.prompt_tokens,
            "completionTokens": r.completion_tokens,
            "pricedCalls": r.priced_calls,
            "unpricedCalls": r.unpriced_calls,
            "blitz": blitz,
            "vsAbove": vs_above,
            "elo": r.elo,
            "eloInterval": list(r.elo_interval) if r.elo_interval is not None else None,
            "brier": r.brier,
            "riskReports": r.risk_reports,
            **({"repeats": dict(r.repeats)} if r.repeats is not None else {}),
        }

    def pair(p: Pair) -> dict[str, Any]:
        h = p.summary
        return {
            "brainA": p.a,
            "brainB": p.b,
            "meanDiff": h.mean_diff,
            "low": h.low,
            "high": h.high,
            "winsA": h.wins_a,
            "winsB": h.wins_b,
            "ties": h.ties,
            "seeds": h.n,
            "includesZero": h.includes_zero,
            "differences": dict(p.differences),
        }

    return {
        "ruleset": lb.ruleset,
        "official": lb.official,
        "seeds": list(lb.seeds),
        "rows": [row(r) for r in lb.rows],
        "headToHead": [pair(p) for p in lb.pairs],
        "headToHeadReplicates": lb.replicates,
    }


def _head_to_head(data: Mapping[str, Any] | None, a: str = "winsA", b: str = "winsB") -> Any:
    """The `HeadToHead` a `to_json` pair (or row's `vsAbove`, with its own win keys) holds."""
    if data is None:
        return None
    return HeadToHead(
        mean_diff=float(data["meanDiff"]),
        low=float(data["low"]),
        high=float(data["high"]),
        wins_a=int(data[a]),
        wins_b=int(data[b]),
        ties=int(data["ties"]),
        n=int(data["seeds"]),
    )


def _score(value: Any) -> float:
    """A seed's score as written: a whole number (one game) or a mean over repeats."""
    number = float(value)
    return int(number) if number.is_integer() else number


def leaderboard_from_json(data: Mapping[str, Any]) -> Leaderboard:
    """The `Leaderboard` a `leaderboard.json` (`to_json`) holds, so the site renders a shipped
    board with the same cell functions as the Markdown table."""
    rows = []
    for r in data["rows"]:
        b = r.get("blitz")
        blitz = None
        if b is not None:
            blitz = BlitzSummary(
                games=int(b["games"]),
                level_reached=int(b["levelReached"]),
                questions=int(b["questions"]),
                in_time=int(b["inTime"]),
                late=int(b["late"]),
                unreachable=int(b["unreachable"]),
                locked=int(b["locked"]),
            )
        interval = r.get("eloInterval")
        rows.append(
            Row(
                rank=int(r["rank"]),
                tied_with_above=bool(r["tiedWithAbove"]),
                slug=str(r["slug"]),
                name=str(r["name"]),
                kind=str(r.get("kind") or ""),
                provider=r.get("provider"),
                score=float(r["score"]),
                half_width=r.get("halfWidth95"),
                seed_scores={str(k): _score(v) for k, v in r["seedScores"].items()},
                lines=float(r["lines"]),
                latency_ms=r.get("latencyMs"),
                cost_per_100=r.get("costPer100Decisions"),
                prompt_tokens=int(r.get("promptTokens", 0)),
                completion_tokens=int(r.get("completionTokens", 0)),
                priced_calls=int(r.get("pricedCalls", 0)),
                unpriced_calls=int(r.get("unpricedCalls", 0)),
                blitz=blitz,
                vs_above=_head_to_head(r.get("vsAbove"), "winsAbove", "winsThis"),
                elo=float(r["elo"]),
                elo_interval=None if interval is None else (float(interval[0]), float(interval[1])),
                brier=r.get("brier"),
                risk_reports=int(r.get("riskReports", 0)),
                repeats=r.get("repeats"),
            )
        )
    pairs = tuple(
        Pair(str(p["brainA"]), str(p["brainB"]), dict(p["differences"]), _head_to_head(p))
        for p in data.get("headToHead", [])
    )
    return Leaderboard(
        ruleset=str(data["ruleset"]),
        seeds=tuple(str(s) for s in data["seeds"]),
        rows=tuple(rows),
        pairs=pairs,
        official=bool(data.get("official")),
        replicates=int(data.get("headToHeadReplicates", 2000)),
    )

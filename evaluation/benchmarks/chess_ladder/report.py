"""The chess ladder's report: per model, the rating and its interval, W/D/L by rung and
variant, the illegal/invalid rate, grading summaries (accuracy, judgements, best-move and top-3
shares), what graded the moves (engine version and node budget), tokens, cost and time per
answer. Costs are shown by the one money formatter (`evaluation/core/money.py`)."""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from evaluation.benchmarks.chess_ladder.grading import DEFAULT_GRADE_NODES, MoveGrade, summarise
from evaluation.benchmarks.chess_ladder.ratings import RatingFit, fit_rating
from evaluation.core.money import usd


@dataclass
class LadderGame:
    """A finished (never an aborted) game as the report needs it."""

    model: str
    variant: str
    rung: str
    rung_rating: float
    colour: str
    score: float
    adjudicated: bool = False
    requests: int = 0
    rejected: int = 0
    input_tokens: int | None = None
    """Prompt tokens over the game's calls (None: no call reported any, e.g. a local search)."""
    output_tokens: int | None = None
    cost: float | None = None
    answer_ms: list[float] = field(default_factory=list)
    grades: list[MoveGrade] = field(default_factory=list)
    engine: str | None = None
    """The grading engine's name and version (None: not recorded)."""
    grade_nodes: int | None = None
    """Nodes per graded position."""


@dataclass
class ModelRow:
    """One model's line of the table."""

    model: str
    fit: RatingFit
    record: dict[str, dict[str, list[int]]]
    illegal_rate: float | None
    grading: dict[str, Any]
    input_tokens: int | None
    output_tokens: int | None
    cost: float | None
    median_answer_ms: float | None
    adjudicated: int
    games: int
    graded_by: dict[str, list[Any]] = field(default_factory=dict)
    """`{"engines": [...], "nodes": [...]}` over the model's games (None: not recorded)."""

    def to_dict(self) -> dict[str, Any]:
        """camelCase JSON form."""
        return {
            "model": self.model,
            "rating": self.fit.to_dict(),
            "record": self.record,
            "illegalRate": self.illegal_rate,
            "grading": self.grading,
            "inputTokens": self.input_tokens,
            "outputTokens": self.output_tokens,
            "cost": self.cost,
            "medianAnswerMs": self.median_answer_ms,
            "adjudicated": self.adjudicated,
            "games": self.games,
            "gradedBy": self.graded_by,
        }


def model_row(model: str, games: Sequence[LadderGame]) -> ModelRow:
    """Aggregate one model's finished games. Cost is None (n/a) when any game has no price,
    never zero for a local model."""
    mine = [g for g in games if g.model == model]
    record: dict[str, dict[str, list[int]]] = {}
    for g in mine:
        wdl = record.setdefault(g.variant, {}).setdefault(g.rung, [0, 0, 0])
        wdl[0 if g.score == 1 else (1 if g.score == 0.5 else 2)] += 1
    requests = sum(g.requests for g in mine)
    rejected = sum(g.rejected for g in mine)
    answer_ms = [ms for g in mine for ms in g.answer_ms]
    costs = [g.cost for g in mine]
    return ModelRow(
        model=model,
        fit=fit_rating((g.rung_rating, g.score) for g in mine),
        record=record,
        illegal_rate=rejected / requests if requests else None,
        grading=summarise([grade for g in mine for grade in g.grades]).to_dict(),
        input_tokens=_total(g.input_tokens for g in mine),
        output_tokens=_total(g.output_tokens for g in mine),
        cost=None
        if not costs or any(c is None for c in costs)
        else sum(c for c in costs if c is not None),
        median_answer_ms=statistics.median(answer_ms) if answer_ms else None,
        adjudicated=sum(g.adjudicated for g in mine),
        games=len(mine),
        graded_by=graded_with(mine),
    )


def _total(counts: Iterable[int | None]) -> int | None:
    """The sum of the counts reported (None when none was: n/a, never a made-up 0)."""
    known = [c for c in counts if c is not None]
    return sum(known) if known else None


def graded_with(games: Sequence[LadderGame]) -> dict[str, list[Any]]:
    """The engines (name and version, None where a result did not record it) and node budgets
    that graded `games`, each listed once."""
    engines = sorted({g.engine for g in games}, key=lambda e: (e is None, e or ""))
    nodes = sorted({g.grade_nodes for g in games}, key=lambda n: (n is None, n or 0))
    return {"engines": engines, "nodes": nodes}


def grading_line(graded_by: dict[str, list[Any]]) -> str:
    """`Stockfish 15.1 at 50,000 nodes a position (the spec grades at 1,000,000)`."""
    engines = ", ".join(e or "an engine not recorded" for e in graded_by.get("engines", [])) or (
        "no game"
    )
    nodes = " / ".join(f"{n:,}" if n else "?" for n in graded_by.get("nodes", [])) or "?"
    line = f"{engines} at {nodes} nodes a position"
    if graded_by.get("nodes") != [DEFAULT_GRADE_NODES]:
        line += f" (the spec grades at {DEFAULT_GRADE_NODES:,})"
    return line


def _tokens_cell(row: ModelRow) -> str:
    """`1,234/56`, or n/a when no call reported tokens."""
    if row.input_tokens is None and row.output_tokens is None:
        return "n/a"
    return f"{_num(row.input_tokens, '{:,}')}/{_num(row.output_tokens, '{:,}')}"


def _num(value: float | None, fmt: str = "{:.0f}", none: str = "n/a") -> str:
    return none if value is None else fmt.format(value)


def markdown_table(rows: Sequence[ModelRow]) -> str:
    """The table per model (best rating first; models without a rating last)."""
    ordered = sorted(rows, key=lambda r: -(r.fit.rating if r.fit.rating is not None else -1e9))
    lines = [
        "| model | rating | 95% interval | games | W/D/L | illegal/invalid | accuracy | "
        "best move | top 3 | inacc./mist./blund. per 100 | tokens in/out | cost | "
        "time per answer |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    notes = []
    for r in ordered:
        w = sum(v[0] for by in r.record.values() for v in by.values())
        d = sum(v[1] for by in r.record.values() for v in by.values())
        lo = sum(v[2] for by in r.record.values() for v in by.values())
        interval = (
            f"{r.fit.low:.0f} to {r.fit.high:.0f}"
            if r.fit.low is not None and r.fit.high is not None
            else "n/a"
        )
        g = r.grading
        judg = (
            "n/a"
            if g["moves"] == 0
            else " / ".join(
                f"{g[key]:.1f}"
                for key in ("inaccuraciesPer100", "mistakesPer100", "blundersPer100")
            )
        )
        lines.append(
            f"| {r.model} | {_num(r.fit.rating)} | {interval} | {r.games} | {w}/{d}/{lo} | "
            f"{_num(r.illegal_rate, '{:.1%}')} | {_num(g['accuracy'], '{:.1f}')} | "
            f"{_num(g.get('bestMovePercent'), '{:.1f}%')} | "
            f"{_num(g.get('top3Percent'), '{:.1f}%')} | {judg} | "
            f"{_tokens_cell(r)} | {usd(r.cost)} | "
            f"{_num(r.median_answer_ms, '{:.0f} ms')} |"
        )
        if r.fit.rating is None:
            notes.append(f"- {r.model}: no rating ({r.fit.note}).")
    grading = ["", "Graded by:", ""]
    grading += [f"- {r.model}: {grading_line(r.graded_by)}" for r in ordered]
    by_rung = ["", "W/D/L by variant and rung:", ""]
    for r in ordered:
        for variant, rungs in r.record.items():
            cells = ", ".join(f"{rung} {v[0]}/{v[1]}/{v[2]}" for rung, v in rungs.items())
            by_rung.append(f"- {r.model}, {variant}: {cells}")
    return "\n".join(lines + (["", *notes] if notes else []) + grading + by_rung) + "\n"

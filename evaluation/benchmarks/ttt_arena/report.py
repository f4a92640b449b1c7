"""The arena's report for one engine: per-position and per-match results, move costs, the grade.

Built from the saved result of every game (`episode.play_arena_game`), so a resumed run reports
exactly what a run in one go would. `to_dict(timings=False)` leaves out wall times: the same
engine and seed give the same report.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from arcade_gym.tictactoe.rules import RULESET_ID, SIZES
from evaluation.benchmarks.ttt_arena.grading import WEIGHTS, grade_for, weighted_score
from evaluation.benchmarks.ttt_arena.suite import CATEGORIES, CATEGORY_TITLES
from evaluation.core.money import usd
from evaluation.core.repeat_report import repeat_line
from policies.tictactoe import BUILTINS

REPORT_VERSION = 2
"""Version of `report.json`: 2 holds one report per engine under `reports` (1 was one report)."""


@dataclass(frozen=True)
class IllegalMove:
    """An illegal move: where (a position id, or a match id and ply) and why."""

    where: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {"where": self.where, "reason": self.reason}


@dataclass(frozen=True)
class PositionResult:
    """The engine's answer to one suite position."""

    id: str
    category: str
    size: int
    move: tuple[int, int] | None
    passed: bool
    reason: str | None
    ms: float | None
    """The move's wall time (None: not timed, a reply from the response cache)."""
    instructions: int | None

    def to_dict(self, timings: bool = True) -> dict[str, Any]:
        """JSON-able form (`timings=False` drops the wall time)."""
        out: dict[str, Any] = {
            "id": self.id,
            "category": self.category,
            "size": self.size,
            "move": None if self.move is None else list(self.move),
            "passed": self.passed,
            "illegal": self.reason,
            "instructions": self.instructions,
        }
        if timings:
            out["ms"] = None if self.ms is None else round(self.ms, 3)
        return out


@dataclass(frozen=True)
class MatchResult:
    """One full game of match play from the engine's side."""

    id: str
    size: int
    opponent: str
    opening: bool
    engine_mark: str
    result: str  # win | draw | loss
    points: float
    moves: tuple[tuple[int, int], ...]
    forfeit: str | None

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "id": self.id,
            "size": self.size,
            "opponent": self.opponent,
            "opening": self.opening,
            "engineMark": self.engine_mark,
            "result": self.result,
            "points": self.points,
            "moves": [f"{r} {c}" for r, c in self.moves],
            "forfeit": self.forfeit,
        }


@dataclass
class MoveStats:
    """Cost of the engine's moves: wall milliseconds, Brainfuck instructions when reported, and
    an LLM's tokens and dollars when its calls report them (`usage` of each decision). A move
    without a measured time (a reply served from the response cache) is left out of the times."""

    moves: int = 0
    timed: int = 0
    ms_total: float = 0.0
    ms_max: float = 0.0
    counted: int = 0
    instructions_total: int = 0
    instructions_max: int = 0
    model_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float | None = None

    def add(
        self, ms: float | None, instructions: int | None, usage: Mapping[str, Any] | None = None
    ) -> None:
        """Record one move (`ms` None: not timed)."""
        self.moves += 1
        if ms is not None:
            self.timed += 1
            self.ms_total += ms
            self.ms_max = max(self.ms_max, ms)
        if instructions is not None:
            self.counted += 1
            self.instructions_total += instructions
            self.instructions_max = max(self.instructions_max, instructions)
        if usage:
            self.model_calls += 1
            self.prompt_tokens += int(usage.get("promptTokens") or 0)
            self.completion_tokens += int(usage.get("completionTokens") or 0)
            cost = usage.get("costUsd")
            if isinstance(cost, int | float):
                self.cost_usd = (self.cost_usd or 0.0) + float(cost)

    def to_dict(self, timings: bool = True) -> dict[str, Any]:
        """Averages and maxima (instructions None when the engine reports none)."""
        out: dict[str, Any] = {
            "moves": self.moves,
            "avgInstructions": self.instructions_total / self.counted if self.counted else None,
            "maxInstructions": self.instructions_max if self.counted else None,
            "modelCalls": self.model_calls,
            "promptTokens": self.prompt_tokens if self.model_calls else None,
            "completionTokens": self.completion_tokens if self.model_calls else None,
            "costUsd": None if self.cost_usd is None else round(self.cost_usd, 6),
        }
        if timings:
            out["avgMs"] = round(self.ms_total / self.timed, 3) if self.timed else None
            out["maxMs"] = round(self.ms_max, 3) if self.timed else None
        return out


@dataclass
class ArenaReport:
    """Everything one arena run found, with the score and the grade."""

    engine: dict[str, Any]
    seed: int
    suite_version: str
    positions: list[PositionResult]
    matches: list[MatchResult]
    illegal_moves: list[IllegalMove]
    move_stats: MoveStats
    seconds: float = 0.0
    accuracy: dict[str, float] = field(default_factory=dict)
    score: float = 0.0
    grade: str = "F"
    repeats: dict[str, Any] | None = None
    """A run of several repeats (`--repeats`): every item's repeats are pooled above (so the
    score is the mean over repeats) and this is `evaluation/core/repeat_report.py`'s block."""

    def __post_init__(self) -> None:
        self.accuracy = self._accuracy()
        self.score = weighted_score(self.accuracy)
        self.grade = grade_for(self.score, illegal_moves=len(self.illegal_moves))

    # --- tallies ------------------------------------------------------------------------------
    def _accuracy(self) -> dict[str, float]:
        out: dict[str, float] = {}
        for category in CATEGORIES:
            rows = [p for p in self.positions if p.category == category]
            out[category] = sum(p.passed for p in rows) / len(rows) if rows else 0.0
        points = sum(m.points for m in self.matches)
        out["match_play"] = points / len(self.matches) if self.matches else 0.0
        return out

    def table(self) -> dict[str, dict[str, dict[str, int]]]:
        """Category -> size (`"3"`, `"5"`, `"10"`, `"all"`) -> passed / total."""
        out: dict[str, dict[str, dict[str, int]]] = {}
        for category in CATEGORIES:
            cells: dict[str, dict[str, int]] = {}
            for size in (*SIZES, None):
                rows = [
                    p
                    for p in self.positions
                    if p.category == category and (size is None or p.size == size)
                ]
                if rows:
                    key = "all" if size is None else str(size)
                    cells[key] = {"passed": sum(p.passed for p in rows), "total": len(rows)}
            out[category] = cells
        return out

    def match_summary(self) -> dict[str, dict[str, float]]:
        """W/D/L and points per opponent and in all."""
        out: dict[str, dict[str, float]] = {}
        for key in [*BUILTINS, "all"]:
            rows = [m for m in self.matches if key in ("all", m.opponent)]
            if rows:
                out[key] = {
                    "win": sum(m.result == "win" for m in rows),
                    "draw": sum(m.result == "draw" for m in rows),
                    "loss": sum(m.result == "loss" for m in rows),
                    "points": sum(m.points for m in rows),
                    "games": len(rows),
                }
        return out

    # --- output -------------------------------------------------------------------------------
    def to_dict(self, timings: bool = True) -> dict[str, Any]:
        """JSON-able form; `timings=False` leaves out wall times, so equal runs compare equal."""
        out: dict[str, Any] = {
            "arena": "tictactoe",
            "suite": self.suite_version,
            "ruleset": RULESET_ID,
            "seed": self.seed,
            "engine": self.engine,
            "grade": self.grade,
            "score": self.score,
            "capped": bool(self.illegal_moves) and self.grade == "C",
            "accuracy": {c: round(v, 6) for c, v in self.accuracy.items()},
            "weights": dict(WEIGHTS),
            "table": self.table(),
            "matches": self.match_summary(),
            "moveStats": self.move_stats.to_dict(timings),
            "illegalMoves": [i.to_dict() for i in self.illegal_moves],
            "positions": [p.to_dict(timings) for p in self.positions],
            "games": [m.to_dict() for m in self.matches],
        }
        if self.repeats is not None:
            out["repeats"] = self.repeats
        if timings:
            out["seconds"] = round(self.seconds, 3)
        return out

    def to_json(self, timings: bool = True) -> str:
        """The report as indented JSON."""
        return json.dumps(self.to_dict(timings), indent=2)

    def to_text(self) -> str:
        """A terminal summary: grade, the category x size table, matches, cost, illegal moves."""
        name = self.engine.get("name", "?")
        lines = [
            f"Tic-tac-toe arena, suite {self.suite_version}, seed {self.seed}: {name}",
            f"grade {self.grade}   score {self.score:.1f}   illegal moves {len(self.illegal_moves)}"
            + ("   (capped at C)" if self.illegal_moves and self.grade == "C" else ""),
            "",
            f"{'category':<16}{'3x3':>8}{'5x5':>8}{'10x10':>8}{'all':>9}{'weight':>8}",
        ]
        table = self.table()
        for category in CATEGORIES:
            cells = table[category]
            row = f"{CATEGORY_TITLES[category]:<16}"
            for key in ("3", "5", "10"):
                cell = cells.get(key)
                row += f"{cell['passed']}/{cell['total']}".rjust(8) if cell else " " * 8
            total = cells["all"]
            row += f"{total['passed']}/{total['total']}".rjust(9) + f"{WEIGHTS[category]:>8}"
            lines.append(row)
        summary = self.match_summary()
        if "all" in summary:
            overall = summary["all"]
            lines.append(
                f"{'Match play':<16}{'':>24}"
                + f"{overall['points']:g}/{overall['games']:g}".rjust(9)
                + f"{WEIGHTS['match_play']:>8}"
            )
            lines.append("")
            parts = [
                f"{opp} {int(s['win'])}/{int(s['draw'])}/{int(s['loss'])}"
                for opp, s in summary.items()
                if opp != "all"
            ]
            lines.append(
                f"matches W/D/L {int(overall['win'])}/{int(overall['draw'])}/"
                f"{int(overall['loss'])}"
                f"  ({', '.join(parts)})"
            )
        stats = self.move_stats
        cost = f"moves {stats.moves}"
        if stats.timed:
            cost += f", avg {stats.ms_total / stats.timed:.2f} ms, max {stats.ms_max:.1f} ms"
        if stats.moves > stats.timed:
            cost += f" ({stats.moves - stats.timed} untimed: replies from the cache)"
        if stats.counted:
            avg = stats.instructions_total / stats.counted
            cost += (
                f"; instructions avg {avg / 1e6:.2f} M, max {stats.instructions_max / 1e6:.2f} M"
            )
        if stats.model_calls:
            dollars = usd(stats.cost_usd)
            cost += (
                f"; tokens {stats.prompt_tokens:,} in / {stats.completion_tokens:,} out, "
                f"cost {dollars}"
            )
        lines.append(cost + f"; run {self.seconds:.1f} s")
        if self.illegal_moves:
            lines.append("illegal moves:")
            lines.extend(f"  {i.where}: {i.reason}" for i in self.illegal_moves)
        if self.repeats is not None:
            lines.append(
                "every item played several times, the counts above pool the repeats; "
                + repeat_line("score", self.repeats)
            )
        return "\n".join(lines)


# --- from saved results -------------------------------------------------------------------------


def _calls(
    saved: Mapping[str, Any],
) -> list[tuple[float | None, int | None, Mapping[str, Any] | None]]:
    """(wall ms or None when untimed, instructions, usage) of each call of a saved game."""
    out = []
    for call in saved.get("calls") or []:
        ms = call.get("latencyMs")
        out.append(
            (float(ms) if ms is not None else None, call.get("instructions"), call.get("usage"))
        )
    return out


def build_report(
    engine: Mapping[str, Any],
    seed: int,
    suite_version: str,
    positions: Sequence[Mapping[str, Any]],
    matches: Sequence[Mapping[str, Any]],
    seconds: float = 0.0,
) -> ArenaReport:
    """The report of one engine from its saved position and match results, in suite order."""
    stats = MoveStats()
    illegal: list[IllegalMove] = []
    rows: list[PositionResult] = []
    for saved in positions:
        calls = _calls(saved)
        for ms, instructions, usage in calls:
            stats.add(ms, instructions, usage)
        if saved["illegal"] is not None:
            illegal.append(IllegalMove(saved["id"], saved["illegal"]))
        move = saved["move"]
        rows.append(
            PositionResult(
                id=saved["id"],
                category=saved["category"],
                size=saved["size"],
                move=None if move is None else (int(move[0]), int(move[1])),
                passed=bool(saved["passed"]),
                reason=saved["illegal"],
                ms=calls[0][0] if calls else 0.0,
                instructions=saved["instructions"],
            )
        )
    games: list[MatchResult] = []
    for saved in matches:
        for ms, instructions, usage in _calls(saved):
            stats.add(ms, instructions, usage)
        if saved["forfeit"] is not None:
            illegal.append(
                IllegalMove(f"{saved['id']} ply {saved['forfeitPly']}", saved["forfeit"])
            )
        games.append(
            MatchResult(
                id=saved["id"],
                size=saved["size"],
                opponent=saved["opponent"],
                opening=saved["opening"],
                engine_mark=saved["engineMark"],
                result=saved["result"],
                points=float(saved["score"]),
                moves=tuple((int(r), int(c)) for r, c in (m.split() for m in saved["moves"])),
                forfeit=saved["forfeit"],
            )
        )
    return ArenaReport(
        engine=dict(engine),
        seed=seed,
        suite_version=suite_version,
        positions=rows,
        matches=games,
        illegal_moves=illegal,
        move_stats=stats,
        seconds=seconds,
    )


def run_document(reports: Sequence[ArenaReport], timings: bool = True) -> dict[str, Any]:
    """`report.json` (version 2): every engine's report, in the order the run played them."""
    first = reports[0] if reports else None
    return {
        "reportVersion": REPORT_VERSION,
        "arena": "tictactoe",
        "suite": first.suite_version if first else None,
        "seed": first.seed if first else None,
        "reports": [r.to_dict(timings) for r in reports],
    }


def run_text(reports: Sequence[ArenaReport]) -> str:
    """`report.txt`: each engine's summary, then a ranking when there are several."""
    parts = [r.to_text() for r in reports]
    if len(reports) > 1:
        ranked = sorted(reports, key=lambda r: -r.score)
        lines = ["ranking:"]
        lines.extend(
            f"  {i}. {r.engine.get('name', '?'):<20} {r.score:5.1f} {r.grade:<3} "
            f"illegal moves {len(r.illegal_moves)}"
            for i, r in enumerate(ranked, start=1)
        )
        parts.append("\n".join(lines))
    return "\n\n".join(parts)

"""The tic-tac-toe arena (seed 003): an engine through the suite and its matches, then a grade.

`run_arena(engine)` asks every suite position (`evaluation.ttt_suite`) through `call_policy`, one
question at a time with a per-move timeout, then plays the 24 matches against the sparring
partners, and grades the result (`evaluation.ttt_grading`). An engine is anything `call_policy`
accepts whose answer is an `EngineReply` (its `output`, or its `error`), `"row col"` text, a
`TicTacToeAnswer` or a `(row, col)` pair. An engine error, unparseable output, an occupied or
off-board square, an exception or a timeout is an *illegal move*: the position fails (or the match
is forfeited as a loss), the reason is kept, and the grade is capped at C. Nothing an engine does
stops the run.

The same engine and seed give the same report, timings aside (`to_dict(timings=False)`).

Engine specs (`make_engine`): `policy:NAME` (random, greedy, tactician, perfect), `bf:PATH` (a
Brainfuck program), `cmd:COMMAND` (an external process reading the position on stdin).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arcade_gym.tictactoe.contract import AnswerCheck, TicTacToeQuestion, check_answer
from arcade_gym.tictactoe.game import TicTacToeGame
from arcade_gym.tictactoe.rules import RULESET_ID, SIZES, O, X
from arcade_gym.tictactoe.sparring import opening_move, sparring_move
from evaluation.core.policy_call import call_policy
from evaluation.ttt_cli import DEFAULT_TIMEOUT_MS, add_ttt_arguments
from evaluation.ttt_grading import WEIGHTS, grade_for, match_points, weighted_score
from evaluation.ttt_suite import (
    CATEGORIES,
    CATEGORY_TITLES,
    DEFAULT_SEED,
    MatchSpec,
    Suite,
    build_suite,
)
from policies.base import DecisionContext
from policies.tictactoe import BUILTINS, make_player

Progress = Callable[[str], None]


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
    ms: float
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
            out["ms"] = round(self.ms, 3)
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
    """Cost of the engine's moves: wall milliseconds, and Brainfuck instructions when reported."""

    moves: int = 0
    ms_total: float = 0.0
    ms_max: float = 0.0
    counted: int = 0
    instructions_total: int = 0
    instructions_max: int = 0

    def add(self, ms: float, instructions: int | None) -> None:
        """Record one move."""
        self.moves += 1
        self.ms_total += ms
        self.ms_max = max(self.ms_max, ms)
        if instructions is not None:
            self.counted += 1
            self.instructions_total += instructions
            self.instructions_max = max(self.instructions_max, instructions)

    def to_dict(self, timings: bool = True) -> dict[str, Any]:
        """Averages and maxima (instructions None when the engine reports none)."""
        out: dict[str, Any] = {
            "moves": self.moves,
            "avgInstructions": self.instructions_total / self.counted if self.counted else None,
            "maxInstructions": self.instructions_max if self.counted else None,
        }
        if timings:
            out["avgMs"] = round(self.ms_total / self.moves, 3) if self.moves else None
            out["maxMs"] = round(self.ms_max, 3)
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
        if stats.moves:
            cost += f", avg {stats.ms_total / stats.moves:.2f} ms, max {stats.ms_max:.1f} ms"
        if stats.counted:
            avg = stats.instructions_total / stats.counted
            cost += (
                f"; instructions avg {avg / 1e6:.2f} M, max {stats.instructions_max / 1e6:.2f} M"
            )
        lines.append(cost + f"; run {self.seconds:.1f} s")
        if self.illegal_moves:
            lines.append("illegal moves:")
            lines.extend(f"  {i.where}: {i.reason}" for i in self.illegal_moves)
        return "\n".join(lines)


# --- running ----------------------------------------------------------------------------------


def _identity(engine: Any) -> dict[str, Any]:
    identity = getattr(engine, "identity", None)
    if callable(identity):
        try:
            value = identity()
            if isinstance(value, dict):
                return value
        except Exception:
            pass
    return {
        "slug": str(getattr(engine, "slug", type(engine).__name__)),
        "name": str(getattr(engine, "name", type(engine).__name__)),
    }


def _ask(
    engine: Any, question: TicTacToeQuestion, timeout_ms: float | None, stats: MoveStats
) -> tuple[AnswerCheck, float]:
    """One engine move, never raising: the judged answer and its wall milliseconds."""
    ctx = DecisionContext.with_budget(timeout_ms)
    outcome = call_policy(engine, question, ctx, timeout_ms)
    if not outcome.completed:
        check = AnswerCheck(reason=f"{outcome.status}: {outcome.error}")
    else:
        try:
            check = check_answer(question, outcome.answer)
        except Exception as exc:  # a hostile answer object (e.g. a raising __eq__)
            check = AnswerCheck(reason=f"unreadable answer: {type(exc).__name__}")
    stats.add(outcome.latency_ms, check.instructions)
    return check, outcome.latency_ms


def _play_match(
    engine: Any,
    spec: MatchSpec,
    timeout_ms: float | None,
    stats: MoveStats,
    illegal: list[IllegalMove],
) -> MatchResult:
    game = TicTacToeGame(spec.size)
    engine_side = X if spec.engine_mark == "X" else O
    forfeit: str | None = None
    while not game.over:
        if game.to_move == engine_side:
            check, _ = _ask(engine, game.question(), timeout_ms, stats)
            if not check.legal or check.move is None:
                forfeit = check.reason or "no move"
                illegal.append(IllegalMove(f"{spec.id} ply {game.placed + 1}", forfeit))
                break
            cell = game.cell(*check.move)
        elif spec.opening and game.placed < 2:
            cell = opening_move(game.flat, game.to_move, spec.opponent_seed)
        else:
            cell = sparring_move(spec.opponent, game.flat, game.to_move, spec.opponent_seed)
        game.play(cell)
    if forfeit is not None:
        result = "loss"
    elif game.draw:
        result = "draw"
    else:
        result = "win" if game.winner == engine_side else "loss"
    return MatchResult(
        id=spec.id,
        size=spec.size,
        opponent=spec.opponent,
        opening=spec.opening,
        engine_mark=spec.engine_mark,
        result=result,
        points=match_points(result, spec.opponent),
        moves=tuple(divmod(c, spec.size) for c in game.moves),
        forfeit=forfeit,
    )


def run_arena(
    engine_policy: Any,
    seed: int = DEFAULT_SEED,
    *,
    timeout_ms: float | None = DEFAULT_TIMEOUT_MS,
    suite: Suite | None = None,
    progress: Progress | None = None,
) -> ArenaReport:
    """Run an engine through the suite of `seed` and its 24 matches; never raises for anything
    the engine does. `progress` gets one line per position and match."""
    t0 = time.perf_counter()
    suite = suite if suite is not None else build_suite(seed)
    stats = MoveStats()
    illegal: list[IllegalMove] = []
    positions: list[PositionResult] = []
    for item in suite.positions:
        check, ms = _ask(engine_policy, item.question, timeout_ms, stats)
        if not check.legal:
            illegal.append(IllegalMove(item.id, check.reason or "no move"))
        passed = check.legal and item.passes(check.move)
        positions.append(
            PositionResult(
                id=item.id,
                category=item.category,
                size=item.size,
                move=check.move,
                passed=passed,
                reason=check.reason,
                ms=ms,
                instructions=check.instructions,
            )
        )
        if progress is not None:
            progress(f"{item.id}: {'pass' if passed else 'fail'}")
    matches: list[MatchResult] = []
    for spec in suite.matches:
        match = _play_match(engine_policy, spec, timeout_ms, stats, illegal)
        matches.append(match)
        if progress is not None:
            versus = spec.opponent + (" (varied opening)" if spec.opening else "")
            progress(f"{spec.id} vs {versus} as {spec.engine_mark}: {match.result}")
    return ArenaReport(
        engine=_identity(engine_policy),
        seed=suite.seed,
        suite_version=suite.version,
        positions=positions,
        matches=matches,
        illegal_moves=illegal,
        move_stats=stats,
        seconds=time.perf_counter() - t0,
    )


# --- engines and the command line ---------------------------------------------------------------


def make_engine(
    spec: str,
    *,
    timeout_ms: float = DEFAULT_TIMEOUT_MS,
    models_file: str | None = None,
    base_url: str | None = None,
) -> Any:
    """An engine from a spec: `policy:NAME` (random, greedy, tactician, perfect), `bf:PATH`,
    `cmd:COMMAND` or `llm:SLUG` (a chat model; one pre-flight call checks it first).
    ValueError with the fix for anything else."""
    kind, sep, rest = spec.partition(":")
    if not sep or not rest.strip():
        raise ValueError(
            f"engine spec {spec!r} must be bf:PATH, cmd:COMMAND, llm:SLUG or policy:NAME "
            f"(NAME one of {', '.join(BUILTINS)})"
        )
    if kind == "policy":
        return make_player(rest.strip())
    if kind == "llm":
        from policies.llm import PreflightError, RegistryError, make_llm_ttt_engine, preflight

        try:
            engine = make_llm_ttt_engine(rest.strip(), models_file=models_file, base_url=base_url)
            preflight(engine.spec, engine.client)
        except (RegistryError, PreflightError, OSError) as error:
            raise ValueError(f"llm:{rest.strip()}: {error}") from None
        return engine
    if kind not in ("bf", "cmd"):
        raise ValueError(
            f"unknown engine kind {kind!r}: use bf:PATH, cmd:COMMAND, llm:SLUG or policy:NAME"
        )
    if kind == "bf" and not Path(rest).is_file():
        raise ValueError(f"bf:{rest}: no such Brainfuck file")
    from policies.engines.brainfuck import BrainfuckEngine, CommandEngine

    if kind == "bf":
        return BrainfuckEngine(Path(rest))
    return CommandEngine(rest, timeout_ms=timeout_ms)


def ttt_main(args: argparse.Namespace) -> int:
    """Run `arcade-eval ttt`: build the engine, run the arena, print (and save) the report.

    Exit status 0 after a run (whatever the grade), 2 for a bad engine spec."""
    output_dir = Path(args.output_dir) if getattr(args, "output_dir", None) else None
    if output_dir is not None and output_dir.exists() and any(output_dir.iterdir()):
        print(
            f"arcade-eval ttt: {output_dir} is not empty; choose a new or empty --output-dir",
            file=sys.stderr,
        )
        return 2
    try:
        engine = make_engine(
            args.engine,
            timeout_ms=args.timeout_ms,
            models_file=getattr(args, "models_file", None),
            base_url=getattr(args, "base_url", None),
        )
    except ValueError as exc:
        print(f"arcade-eval ttt: {exc}", file=sys.stderr)
        return 2
    progress = (lambda line: print(line, flush=True)) if getattr(args, "progress", False) else None
    report = run_arena(engine, seed=args.seed, timeout_ms=args.timeout_ms, progress=progress)
    print(report.to_text())
    if getattr(args, "json", None):
        path = Path(args.json)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(report.to_json() + "\n")
        print(f"wrote {path}")
    if output_dir is not None:
        output_dir.mkdir(parents=True, exist_ok=True)
        (output_dir / "report.json").write_text(report.to_json() + "\n")
        (output_dir / "report.txt").write_text(report.to_text() + "\n")
        print(f"wrote {output_dir}/report.json and report.txt")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m evaluation.ttt_arena --engine SPEC [--seed N] [--json PATH]`."""
    parser = argparse.ArgumentParser(
        prog="python -m evaluation.ttt_arena",
        description="Grade a tic-tac-toe engine on the arena suite (seed 003).",
    )
    add_ttt_arguments(parser)
    return ttt_main(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())

"""`arcade-eval arena bench`: an entry (or a loose `.bf` file) through the official arena run,
its result saved beside it.

The engine plays exactly the run `arcade-eval arena --policy bf:PATH` plays (`runner.run_arena`,
into a scratch directory). What is kept is the saved result (`entries.py`: the grade, the score
and its parts, every table number, the engine's SHA-256, the full report) and, in the folder of
the same name, the event log of every game it played: `positions/<id>.jsonl` (188) and
`matches/<id>.jsonl` (24), which `arcade-eval verify` accepts and from which
`evidence.verified_results` re-computes the whole result before anything shows it.
"""

from __future__ import annotations

import datetime as dt
import functools
import shutil
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evaluation.benchmarks.ttt_arena.defaults import DEFAULT_SEED, DEFAULT_TIMEOUT_MS
from evaluation.benchmarks.ttt_arena.entries import (
    RESULT_VERSION,
    Entry,
    EntryError,
    engine_sha256,
    read_engine,
    result_stem,
)
from evaluation.benchmarks.ttt_arena.report import ArenaReport
from evaluation.benchmarks.ttt_arena.runner import run_arena
from evaluation.core.errors import RunError
from evaluation.core.grid import PolicyPool, spec_pool
from evaluation.core.rundir import write_json_atomic
from policies.specs import SpecOptions

MATCH_LOGS = "matches"
"""The folder (inside a result's log folder) holding the match logs."""
POSITION_LOGS = "positions"
"""The folder (inside a result's log folder) holding the suite positions' logs."""


@dataclass(frozen=True)
class Benched:
    """One benched engine: its result document and where it was saved (None: not saved)."""

    document: dict[str, Any]
    report: ArenaReport
    saved: Path | None


ENGINE_PREFIX = "entry-"
"""Entry engines play as `entry-<id>`: an entry id never reads as a built-in sparring player's
slug (`verify` re-derives the answers of a log whose policy is `tactician`)."""


def _entry_engine(path: str, name: str, _spec: str) -> Any:
    """The entry's program as an arena engine named `entry-<id>` (top-level: picklable)."""
    from policies.engines.arena import BrainfuckEngine

    return BrainfuckEngine(Path(path), name=name)


def result_document(
    report: ArenaReport,
    *,
    engine: Path,
    entry: Entry | None,
    when: dt.datetime,
    logs: str | None,
) -> dict[str, Any]:
    """The saved result: what the tier list and the entry page show, and the full report."""
    full = report.to_dict(timings=False)
    root = entry.entries_root if entry is not None else engine.resolve().parent
    table = full["table"]
    stats = full["moveStats"]
    overall = full["matches"].get("all", {"win": 0, "draw": 0, "loss": 0, "points": 0, "games": 0})
    return {
        "resultVersion": RESULT_VERSION,
        "entry": entry.id if entry is not None else None,
        "metadata": entry.metadata.model_dump() if entry is not None else None,
        "engineFile": engine.name,
        "engineSha256": engine_sha256(engine, root),
        "engineBytes": engine.stat().st_size,
        "seed": report.seed,
        "suite": report.suite_version,
        "ruleset": full["ruleset"],
        "benchedAt": when.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "grade": report.grade,
        "score": report.score,
        "capped": full["capped"],
        "parts": {
            category: {
                "accuracy": round(accuracy, 6),
                "weight": full["weights"][category],
                "points": round(accuracy * full["weights"][category], 3),
            }
            for category, accuracy in report.accuracy.items()
        },
        "forcedWin5": table["forced_win_5"]["all"],
        "forkDefense": table["fork_defense"]["all"],
        "matches": {key: int(overall[key]) for key in ("win", "draw", "loss", "games")}
        | {"points": overall["points"]},
        "avgInstructions": stats["avgInstructions"],
        "maxInstructions": stats["maxInstructions"],
        "illegalMoves": len(report.illegal_moves),
        "logs": logs,
        "report": full,
    }


def bench_engine(
    engine: Path,
    *,
    entry: Entry | None = None,
    seed: int = DEFAULT_SEED,
    save: bool = True,
    timeout_ms: float | None = DEFAULT_TIMEOUT_MS,
    now: Callable[[], dt.datetime] = lambda: dt.datetime.now(dt.UTC),
    say: Callable[[str], None] = print,
    progress: Callable[[str], None] | None = None,
) -> Benched:
    """Run the official suite of `seed` on `engine` (an entry's, named by its id, or a loose file
    through the `bf:` grammar) and, for an entry with `save`, write its result and match logs
    under `<entry>/results/`; `progress` gets one line per game played. Raises `EntryError`
    when the run cannot finish, or for an entry engine that is a link out of the entries
    directory (never run)."""
    if entry is not None:
        read_engine(engine, entry.entries_root)
        entry.inside(entry.results)
    spec = f"bf:{engine}"
    pool: PolicyPool
    if entry is not None:
        pool = PolicyPool(functools.partial(_entry_engine, str(engine), ENGINE_PREFIX + entry.id))
    else:
        pool = spec_pool("tictactoe", SpecOptions(timeout_ms=timeout_ms))
    when = now()
    label = entry.id if entry is not None else str(engine)
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as scratch:
        run_dir = Path(scratch) / "run"
        try:
            outcome = run_arena(
                [spec],
                pool,
                run_dir,
                seed=seed,
                timeout_ms=timeout_ms,
                resume=False,
                progress=progress,
                say=say,
            )
        except RunError as error:
            raise EntryError(f"{label}: {error}") from None
        if outcome.interrupted:
            raise KeyboardInterrupt
        if not outcome.reports:
            why = "; ".join(outcome.aborted) or f"{len(outcome.missing)} games missing"
            raise EntryError(f"{label}: the run did not finish ({why})")
        report = outcome.reports[0]
        stem = result_stem(entry.id, seed, when) if entry is not None else None
        saved = None
        if save and entry is not None and stem is not None:
            saved = entry.results / f"{stem}.json"
            if saved.exists() or saved.with_suffix("").exists():
                raise EntryError(f"{entry.id}: {saved} already exists; wait a second and rerun")
            played = next((run_dir / "logs").glob(f"*/{MATCH_LOGS}")).parent
            for kind in (POSITION_LOGS, MATCH_LOGS):
                shutil.copytree(played / kind, saved.with_suffix("") / kind)
        document = result_document(
            report, engine=engine, entry=entry, when=when, logs=stem if saved else None
        )
        if saved is not None:
            write_json_atomic(saved, document)
    return Benched(document, report, saved)


def match_logs(entry: Entry, result: Mapping[str, Any]) -> dict[str, Path]:
    """Match id -> the saved log of a result (empty when the result kept none)."""
    stem = result.get("logs")
    if not isinstance(stem, str) or not stem:
        return {}
    folder = entry.results / stem / MATCH_LOGS
    if not folder.is_dir():
        return {}
    return {path.stem: path for path in sorted(folder.glob("*.jsonl"))}

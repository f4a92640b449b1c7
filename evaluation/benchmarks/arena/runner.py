"""An arena run: each engine through the 188 suite positions and the 24 matches, then its grade.

A run lives in one output directory (`evaluation/core/rundir.py`):

    manifest.json                               what the run is, what is done, what is missing
    logs/<policy>/positions/<id>.jsonl          one event log per position (`arcade-eval verify`)
    logs/<policy>/matches/<id>.jsonl            one event log per match
    results/<policy>/{positions,matches}/<id>.json   the saved result of each finished game
    report.json, report.txt                     the reports, written when nothing is missing

Re-running the same command into the same directory (or adding `--resume`) resumes it: a game
counts as finished when its log verifies and its result agrees with it; a game cut short, or
aborted by a failure on our side, is set aside (renamed, never overwritten) and played again. A
directory holding another run, or anything else, is refused.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arcade_gym.tictactoe.rules import RULESET_ID
from evaluation.benchmarks.arena.defaults import BENCHMARK_ID, DEFAULT_SEED, DEFAULT_TIMEOUT_MS
from evaluation.benchmarks.arena.episode import Item, play_arena_game
from evaluation.benchmarks.arena.report import ArenaReport, build_report
from evaluation.benchmarks.arena.suite import SUITE_VERSION, Suite, build_suite
from evaluation.core.episode import GameAbortedError, RunStoppedError
from evaluation.core.policy_identity import policy_identity
from evaluation.core.rundir import GameFiles, RunDir, RunDirError
from evaluation.core.verify import verify_log

Progress = Callable[[str], None]
Game = tuple[str, str, str]
"""(policy spec, "positions" | "matches", item id)."""


class RunError(Exception):
    """A user error that stops the run before any game starts (one clear message)."""


class FatalPolicyError(RunError):
    """A policy can no longer answer at all (bad API key, unknown model): the run stops."""


@dataclass
class ArenaRun:
    """What a run produced: a report per policy whose games are all finished, what is missing."""

    output_dir: Path
    reports: list[ArenaReport] = field(default_factory=list)
    missing: list[Game] = field(default_factory=list)
    aborted: list[str] = field(default_factory=list)
    interrupted: bool = False


def _agrees(saved: Mapping[str, Any], logged: Mapping[str, Any]) -> bool:
    """A saved result agrees with its log's result line (every field the line holds)."""
    fields = [key for key in logged if key != "type"]
    return "endReason" in fields and all(saved.get(key) == logged[key] for key in fields)


def settings(policies: Sequence[str], seed: int, timeout_ms: float | None) -> dict[str, Any]:
    """What makes two runs the same run (a resume must match it exactly)."""
    return {
        "policies": list(policies),
        "seed": seed,
        "suite": SUITE_VERSION,
        "ruleset": RULESET_ID,
        "timeoutMs": timeout_ms,
    }


def run_arena(
    policies: Sequence[str],
    make_policy: Callable[[str], Any],
    output_dir: str | Path,
    *,
    seed: int = DEFAULT_SEED,
    timeout_ms: float | None = DEFAULT_TIMEOUT_MS,
    resume: bool | None = None,
    progress: Progress | None = None,
    say: Callable[[str], None] = print,
) -> ArenaRun:
    """Play every policy (a spec, made by `make_policy` after the directory is checked) through
    the suite of `seed` into `output_dir`, resuming what it holds; never raises for anything a
    policy answers. Ctrl-C (or a stop on our side) ends the run resumably (`interrupted`)."""
    if not policies:
        raise RunError("--policy needs at least one policy, e.g. perfect")
    if timeout_ms is not None and not timeout_ms > 0:
        raise RunError("--timeout-ms must be > 0")
    run_dir = RunDir(output_dir, BENCHMARK_ID, settings(policies, seed, timeout_ms))
    try:
        run_dir.prepare(resume=resume)
    except RunDirError as error:
        raise RunError(str(error)) from None
    t0 = time.perf_counter()
    suite = build_suite(seed)
    made = {spec: make_policy(spec) for spec in policies}
    items: dict[Game, Item] = {}
    for spec in policies:
        items.update({(spec, "positions", p.id): p for p in suite.positions})
        items.update({(spec, "matches", m.id): m for m in suite.matches})
    games = list(items)
    files: dict[Game, GameFiles] = {game: run_dir.game(*game) for game in games}
    finished: dict[Game, dict[str, Any]] = {}
    for game in games:
        earlier = run_dir.finished(files[game], _agrees, verify_log, say)
        if earlier is not None:
            finished[game] = earlier
    outcome = ArenaRun(Path(output_dir))
    run_dir.write_manifest("running", games, list(finished))
    try:
        for game in games:
            if game in finished:
                continue
            spec, _, item_id = game
            where = files[game]
            try:
                saved = play_arena_game(
                    made[spec], items[game], where.log, suite_seed=seed, timeout_ms=timeout_ms
                )
            except GameAbortedError as abort:
                run_dir.abandon(where, "aborted")
                outcome.aborted.append(f"{spec} {item_id}: {abort.reason}")
                continue
            except (RunStoppedError, KeyboardInterrupt):
                run_dir.abandon(where, "interrupted")
                raise
            fatal = getattr(made[spec], "fatal_error", None)
            if fatal is not None:
                run_dir.abandon(where, "aborted")
                run_dir.write_manifest("stopped", games, list(finished))
                raise FatalPolicyError(f"policy {spec} cannot answer: {fatal}")
            run_dir.save_result(where, saved)
            finished[game] = saved
            run_dir.write_manifest("running", games, list(finished))
            if progress is not None:
                progress(_progress_line(spec, items[game], saved))
    except (KeyboardInterrupt, RunStoppedError):
        outcome.interrupted = True
    outcome.missing = [g for g in games if g not in finished]
    status = (
        "interrupted" if outcome.interrupted else ("aborted" if outcome.aborted else "complete")
    )
    run_dir.write_manifest(status, games, list(finished), {"aborted": outcome.aborted})
    seconds = time.perf_counter() - t0
    for spec in policies:
        if any(g[0] == spec for g in outcome.missing):
            continue
        outcome.reports.append(_report(spec, made[spec], suite, finished, seconds))
    return outcome


def _report(
    spec: str, policy: Any, suite: Suite, finished: Mapping[Game, Mapping[str, Any]], seconds: float
) -> ArenaReport:
    return build_report(
        policy_identity(policy),
        suite.seed,
        suite.version,
        [finished[(spec, "positions", p.id)] for p in suite.positions],
        [finished[(spec, "matches", m.id)] for m in suite.matches],
        seconds,
    )


def _progress_line(spec: str, item: Item, saved: Mapping[str, Any]) -> str:
    if "opponent" in saved:
        versus = saved["opponent"] + (" (varied opening)" if saved["opening"] else "")
        return f"{spec} {item.id} vs {versus} as {saved['engineMark']}: {saved['result']}"
    return f"{spec} {item.id}: {'pass' if saved['passed'] else 'fail'}"

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

With `repeats` K > 1 (`--repeats`) every position and match is played K times
(`logs/<policy>/positions/<id>/r1.jsonl` ..., `evaluation/core/repeats.py`): the report pools the
repeats (its score is the mean over repeats, the grade that mean's) and adds the interval over
items and repeats, categories weighted as in the score (`ArenaReport.repeats`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arcade_gym.tictactoe.rules import RULESET_ID
from evaluation.benchmarks.ttt_arena.defaults import (
    BENCHMARK_ID,
    DEFAULT_SEED,
    DEFAULT_TIMEOUT_MS,
    MAX_SEED,
    MAX_TIMEOUT_MS,
)
from evaluation.benchmarks.ttt_arena.episode import Item, play_arena_game
from evaluation.benchmarks.ttt_arena.grading import WEIGHTS
from evaluation.benchmarks.ttt_arena.report import ArenaReport, build_report
from evaluation.benchmarks.ttt_arena.suite import SUITE_VERSION, Suite, build_suite
from evaluation.core.errors import RunError
from evaluation.core.executor import Executor
from evaluation.core.grid import Key, PolicyPool, play_grid
from evaluation.core.policy_identity import policy_identity, run_settings
from evaluation.core.repeat_report import repeat_block
from evaluation.core.repeats import samples
from evaluation.core.rundir import RunDir, RunDirError

Progress = Callable[[str], None]
Game = Key
"""(policy spec, "positions" | "matches", item id)."""


@dataclass
class ArenaRun:
    """What a run produced: a report per policy whose games are all finished, what is missing."""

    output_dir: Path
    reports: list[ArenaReport] = field(default_factory=list)
    missing: list[Game] = field(default_factory=list)
    aborted: list[str] = field(default_factory=list)
    interrupted: bool = False
    stop_reason: str | None = None
    """Why the run stopped on our side (a dead endpoint, the cost cap); None after Ctrl-C."""


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


@functools.lru_cache(maxsize=4)
def _items(seed: int) -> dict[tuple[str, str], Item]:
    suite = build_suite(seed)
    items: dict[tuple[str, str], Item] = {("positions", p.id): p for p in suite.positions}
    items.update({("matches", m.id): m for m in suite.matches})
    return items


def _play(
    seed: int, timeout_ms: float | None, policy: Any, key: Key, log: Path
) -> Mapping[str, Any]:
    """One position or match of the suite of `seed` (top-level: Ray workers unpickle it)."""
    return play_arena_game(
        policy, _items(seed)[(key[1], key[2])], log, suite_seed=seed, timeout_ms=timeout_ms
    )


def run_arena(
    policies: Sequence[str],
    pool: PolicyPool,
    output_dir: str | Path,
    *,
    seed: int = DEFAULT_SEED,
    timeout_ms: float | None = DEFAULT_TIMEOUT_MS,
    resume: bool | None = None,
    executor: Executor | None = None,
    progress: Progress | None = None,
    say: Callable[[str], None] = print,
    repeats: int = 1,
) -> ArenaRun:
    """Play every policy (a spec, built by `pool` after the directory is checked) through the
    suite of `seed` into `output_dir`, resuming what it holds; never raises for anything a
    policy answers. Ctrl-C (or a stop on our side) ends the run resumably (`interrupted`)."""
    if not policies:
        raise RunError("--policy needs at least one policy, e.g. perfect")
    if timeout_ms is not None and not 0 < timeout_ms <= MAX_TIMEOUT_MS:
        raise RunError(f"--timeout-ms must be > 0 and at most {MAX_TIMEOUT_MS:.0f} (a day)")
    if not 0 <= seed <= MAX_SEED:
        raise RunError("--seed must be an integer from 0 to 2**64 - 1")
    run_dir = RunDir(
        output_dir, BENCHMARK_ID, settings(policies, seed, timeout_ms), repeats=repeats
    )
    try:
        run_dir.prepare(resume=resume)
    except RunDirError as error:
        raise RunError(str(error)) from None
    suite = build_suite(seed)
    made = pool.build_all(policies)
    run_dir.check_policies({spec: run_settings(policy) for spec, policy in made.items()})
    keys: list[Key] = [(spec, kind, item_id) for spec in policies for kind, item_id in _items(seed)]

    def report(key: Key, saved: Mapping[str, Any]) -> None:
        if progress is not None:
            progress(_progress_line(key[0], _items(seed)[(key[1], key[2])], saved))

    grid = play_grid(
        run_dir,
        keys,
        functools.partial(_play, seed, timeout_ms),
        pool,
        agrees=_agrees,
        executor=executor,
        on_result=report,
        say=say,
    )
    outcome = ArenaRun(
        Path(output_dir),
        missing=grid.missing,
        aborted=grid.aborted,
        interrupted=grid.interrupted,
        stop_reason=grid.stop_reason,
    )
    for spec in policies:
        if grid.complete(spec):
            played = _Played(spec, suite, grid.finished, repeats)
            outcome.reports.append(played.report(policy_identity(made[spec]), grid.seconds))
    return outcome


@dataclass(frozen=True)
class _Played:
    """One policy's finished games of the suite, each item `repeats` times."""

    spec: str
    suite: Suite
    finished: Mapping[Key, Mapping[str, Any]]
    repeats: int

    def items(self, kind: str, ids: Sequence[str]) -> list[list[Mapping[str, Any]]]:
        """Each item's saved results, in repeat order."""
        return [samples(self.finished, (self.spec, kind, i), self.repeats) for i in ids]

    def report(self, identity: Mapping[str, Any], seconds: float) -> ArenaReport:
        """The report pooling every repeat, with the repeat block when there are several."""
        positions = self.items("positions", [p.id for p in self.suite.positions])
        matches = self.items("matches", [m.id for m in self.suite.matches])

        def build(rounds: Sequence[int]) -> ArenaReport:
            pick = [[item[r] for r in rounds] for item in (*positions, *matches)]
            first = [s for item in pick[: len(positions)] for s in item]
            second = [s for item in pick[len(positions) :] for s in item]
            return build_report(identity, self.suite.seed, self.suite.version, first, second)

        report = build(range(self.repeats))
        report.seconds = seconds
        if self.repeats > 1:
            report.repeats = repeat_block(
                [[100.0 * float(s["passed"]) for s in item] for item in positions]
                + [[100.0 * float(s["score"]) for s in item] for item in matches],
                [build([r]).score for r in range(self.repeats)],
                strata=[p.category for p in self.suite.positions] + ["match_play"] * len(matches),
                weights=WEIGHTS,
                unit="item",
            )
        return report


def _progress_line(spec: str, item: Item, saved: Mapping[str, Any]) -> str:
    if "opponent" in saved:
        versus = saved["opponent"] + (" (varied opening)" if saved["opening"] else "")
        return f"{spec} {item.id} vs {versus} as {saved['engineMark']}: {saved['result']}"
    return f"{spec} {item.id}: {'pass' if saved['passed'] else 'fail'}"

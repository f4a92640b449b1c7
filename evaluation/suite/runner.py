"""One suite run: every chosen benchmark in turn, each in its own sub-directory, one manifest.

    manifest.json       the suite (policies, budget, benchmarks), each part's status and folder
    <benchmark>/        the benchmark's own run directory (its manifest, logs, results, report)
    scorecard.json, scorecard.md   per policy x benchmark (`evaluation/suite/scorecard.py`)

Resume: the same command into the same directory keeps every part that finished (it is not
entered again) and re-enters the others, which resume by themselves (their own run directories
keep finished games; nothing is played twice). The cost cap is the suite's: each part gets what
the other parts left of it (`--max-cost-usd` minus what they spent), so one cap holds across
the suite; a part stopped by it stops the suite, with one line naming the suite's resume command.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from evaluation.core.errors import RunError
from evaluation.core.registry import Benchmark, benchmarks
from evaluation.core.rundir import RunDir, RunDirError, safe_name
from evaluation.suite.part import BUDGETS, Cell, Headline, Part, SuiteRequest

SUITE_ID = "suite"
FINAL = ("complete", "not applicable")
"""Part statuses a resume keeps without entering the part again."""
GO_ON = ("complete", "not applicable", "aborted", "failed")
"""Part statuses after which the suite goes on with the next benchmark (a stop, a cost cap or
Ctrl-C ends the suite: the next parts would meet the same cause)."""


@dataclass(frozen=True)
class SuiteSettings:
    """What makes a suite run: a resume must match it exactly."""

    policies: tuple[str, ...]
    budget: str
    benchmarks: tuple[str, ...]
    repeats: int = 1
    """`--repeats K` (the run directory records it when more than one)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "policies": list(self.policies),
            "budget": self.budget,
            "benchmarks": list(self.benchmarks),
        }


@dataclass
class SuiteOutcome:
    """Where a suite stands."""

    parts: list[Part] = field(default_factory=list)
    stopped: Part | None = None
    """The part that stopped the suite (a cost cap, a dead endpoint, Ctrl-C), if one did."""
    missing: list[str] = field(default_factory=list)
    spent_usd: float = 0.0
    refused: Part | None = None
    """The part that refused a suite policy as given (a user error every part would repeat)."""


def choose(names: str | None) -> list[Benchmark]:
    """The registered benchmarks that take part in a suite (`--benchmarks a,b`: those, in
    registry order); RunError naming the known ones for an unknown name."""
    known = [b for b in benchmarks() if b.suite is not None]
    if names is None:
        return known
    wanted = [n.strip() for n in names.split(",") if n.strip()]
    unknown = [n for n in wanted if n not in {b.name for b in known}]
    if unknown or not wanted:
        raise RunError(
            f"--benchmarks {','.join(unknown) or repr(names)}: choose from "
            f"{', '.join(b.name for b in known)}"
        )
    return [b for b in known if b.name in wanted]


def part_from_dict(data: dict[str, Any]) -> Part:
    """A part as the manifest stored it."""
    cells = [
        Cell(**{**c, "headlines": [Headline(**h) for h in c.get("headlines") or []]})
        for c in data.get("cells") or []
    ]
    return Part(**{**data, "cells": cells})


def run_suite(
    settings: SuiteSettings,
    output_dir: Path,
    *,
    cap_usd: float | None = None,
    quiet: bool = False,
    model_args: Sequence[str] = (),
    run_args: Sequence[str] = (),
    argv: Sequence[str] | None = None,
    say: Callable[[str], None] = print,
) -> SuiteOutcome:
    """Play (or resume) every part of `settings` into `output_dir` (see the module docstring)."""
    if settings.budget not in BUDGETS:
        raise RunError(f"--budget must be one of {', '.join(BUDGETS)}, got {settings.budget!r}")
    chosen = choose(",".join(settings.benchmarks))
    run_dir = RunDir(output_dir, SUITE_ID, settings.to_dict(), repeats=settings.repeats)
    try:
        run_dir.prepare(resume=None)
    except RunDirError as error:
        raise RunError(str(error)) from None
    earlier = run_dir.earlier.get("parts")
    stored = {
        name: part_from_dict(data)
        for name, data in (earlier.items() if isinstance(earlier, dict) else [])
        if isinstance(data, dict)
    }
    outcome = SuiteOutcome()
    parts: dict[str, Part] = {}
    names = [(b.name,) for b in chosen]

    def write(status: str) -> None:
        extra = {
            "budget": settings.budget,
            "parts": {name: asdict(part) for name, part in parts.items()},
            "spentUsd": round(sum(p.spent_usd for p in parts.values()), 6),
        }
        if cap_usd is not None:
            extra["costCapUsd"] = cap_usd
        run_dir.write_manifest(
            status, names, [(n,) for n, p in parts.items() if p.status in FINAL], extra
        )

    for index, benchmark in enumerate(chosen, start=1):
        kept = stored.get(benchmark.name)
        if kept is not None and kept.status in FINAL:
            parts[benchmark.name] = kept
            say(f"suite [{index}/{len(chosen)}] {benchmark.name}: {kept.status} (kept)")
            continue
        others = sum(
            p.spent_usd for name, p in {**stored, **parts}.items() if name != benchmark.name
        )
        remaining = None if cap_usd is None else cap_usd - others
        if remaining is not None and remaining <= 0:
            part = Part(benchmark.name, "stopped", 1, [], safe_name(benchmark.name))
            part.stop_reason = "CostCapReached: nothing is left of the cap for this benchmark"
            parts[benchmark.name] = part
            outcome.stopped = part
            break
        request = SuiteRequest(
            policies=settings.policies,
            budget=settings.budget,
            output_dir=output_dir / safe_name(benchmark.name),
            quiet=quiet,
            model_args=tuple(model_args),
            run_args=tuple(run_args),
            max_cost_usd=remaining,
            argv=None if argv is None else tuple(argv),
            repeats=settings.repeats,
        )
        say(f"suite [{index}/{len(chosen)}] {benchmark.name}: {settings.budget} run starts")
        t0 = time.perf_counter()
        assert benchmark.suite is not None
        part = benchmark.suite(request)
        part.seconds = round(time.perf_counter() - t0, 3)
        priced = [c.cost_usd for c in part.cells if c.cost_usd is not None]
        part.spent_usd = max(part.spent_usd, sum(priced))  # a run played before a cap was set
        part.output_dir = safe_name(benchmark.name)
        parts[benchmark.name] = part
        write("running")
        say(
            f"suite [{index}/{len(chosen)}] {benchmark.name}: {part.status} in {part.seconds:.1f} s"
        )
        if part.status not in GO_ON:
            outcome.stopped = part
            break
        if part.exit_code == 2 and part.message.startswith(
            tuple(f"{spec}: " for spec in settings.policies)
        ):
            outcome.refused = part  # a policy no benchmark can build (an unknown model)
            break
    outcome.parts = [
        parts.get(b.name) or Part(b.name, "not started", 0, [], safe_name(b.name)) for b in chosen
    ]
    outcome.missing = [
        b.name for b in chosen if parts.get(b.name) is None or parts[b.name].status not in FINAL
    ]
    outcome.spent_usd = sum(p.spent_usd for p in parts.values())
    status = (
        "complete" if not outcome.missing else ("interrupted" if outcome.stopped else "aborted")
    )
    write(status)
    return outcome

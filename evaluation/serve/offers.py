"""The runs `arcade-eval serve` offers: each registered benchmark's live runs (its `live` hook,
`evaluation/core/registry.py`) and, for every benchmark with a suite route, a quick or official
`arcade-eval suite` of the built-in policies (`evaluation/suite/`). No benchmark is named here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from evaluation.core.live import LiveField, LiveOption, LiveRun
from evaluation.core.registry import benchmarks

SUITE_POLICIES = ("random", "heuristic")
"""The suite's built-ins every benchmark takes (`docs/suite.md`); other policies (models, engine
commands) are started from the command line, never from a page."""
ALL = "all"


def live_options() -> list[LiveOption]:
    """Every server flag a benchmark's live runs read (a name two benchmarks declare is one
    flag, read by both)."""
    seen: dict[str, LiveOption] = {}
    for benchmark in benchmarks():
        for option in benchmark.live_options:
            seen.setdefault(option.name, option)
    return list(seen.values())


def suite_run() -> LiveRun | None:
    """`arcade-eval suite` for one built-in policy over one benchmark or all of them (None when
    no benchmark has a suite route). Written where the command writes by default
    (`runs/suite-<UTC time>` under the directory the server was started in)."""
    names = [b.name for b in benchmarks() if b.suite is not None]
    if not names:
        return None

    def argv(values: Mapping[str, Any]) -> list[str]:
        line = ["suite", "--policy", values["policy"], "--budget", values["budget"]]
        chosen = values["benchmarks"]
        return line if chosen == ALL else [*line, "--benchmarks", chosen]

    return LiveRun(
        key="suite",
        title="Suite: a built-in policy through the benchmarks",
        description="Every benchmark (or one) under its own protocol, into runs/suite-<UTC "
        "time> with a scorecard, as the command arcade-eval suite runs it. The quick budget "
        "is a small labelled sample (minutes); official is each benchmark's full protocol "
        "(hours).",
        fields=(
            LiveField("policy", "Policy", "choice", SUITE_POLICIES[0], choices=SUITE_POLICIES),
            LiveField("budget", "Budget", "choice", "quick", choices=("quick", "official")),
            LiveField("benchmarks", "Benchmarks", "choice", ALL, choices=(ALL, *names)),
        ),
        argv=argv,
    )


def live_runs(options: Mapping[str, str | None]) -> list[LiveRun]:
    """Every run a page may start: the benchmarks' own, then the suite. `LiveError` (a
    `RunError`) when a benchmark cannot offer its runs with these options."""
    offered: list[LiveRun] = []
    for benchmark in benchmarks():
        if benchmark.live is not None:
            offered.extend(benchmark.live(options))
    suite = suite_run()
    if suite is not None:
        offered.append(suite)
    keys = [run.key for run in offered]
    duplicate = next((key for key in keys if keys.count(key) > 1), None)
    if duplicate is not None:
        raise ValueError(f"two live runs are named {duplicate!r}")
    return offered

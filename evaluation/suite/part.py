"""What a benchmark plays for the suite, and how it plays it: one request in, one `Part` out.

A benchmark's `suite` function (`evaluation/benchmarks/<name>/suite_run.py`) resolves each suite
policy name to its own spec (`route`: `heuristic` becomes the game's heuristic, a spec with no
route to the game is "not applicable", never a failure), then runs its own command line through
`run_command` (the one run function its CLI calls, so there is no second loop: resume, the cost
cap, `--max-consecutive-aborts` and the executor are the benchmark's own), and reads the headline
of each policy back from the report that command wrote.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from policies.specs import SpecError, SpecOptions, builtin_names, make_policy

BUDGETS = ("quick", "official")
QUICK_LABEL = "quick sample, not official"

AGNOSTIC = ("llm", "cli", "py", "cmd")
"""Prefixes every game takes (a chat lane or a program): they always route."""


@dataclass(frozen=True)
class SuiteRequest:
    """One benchmark's share of a suite run."""

    policies: tuple[str, ...]
    """Suite-level names, as given (`random`, `heuristic`, `llm:SLUG`, ...)."""
    budget: str
    output_dir: Path
    quiet: bool = False
    model_args: tuple[str, ...] = ()
    """`--models-file`, `--base-url`, `--cache`, ... as given to the suite, passed on verbatim."""
    run_args: tuple[str, ...] = ()
    """`--concurrency`, `--executor`, `--max-consecutive-aborts` as given, passed on verbatim."""
    max_cost_usd: float | None = None
    """What is left of the suite's cap for this benchmark (None: no cap)."""
    argv: tuple[str, ...] | None = None
    """The suite's own command line (what a sub-run names when it says how to resume)."""
    repeats: int = 1
    """`--repeats K`: passed on to the benchmarks that take it (`sub_argv(repeats=True)`)."""


@dataclass(frozen=True)
class Headline:
    """A benchmark's headline number for one policy and its 95% interval (None: none defined)."""

    label: str
    value: float | None
    low: float | None = None
    high: float | None = None
    unit: str = ""


@dataclass
class Cell:
    """One policy on one benchmark."""

    policy: str
    spec: str | None
    """The benchmark's own spec it resolved to (None: not applicable)."""
    status: str = "ok"
    """ok | not applicable | missing (the sub-run did not finish it)."""
    note: str = ""
    headlines: list[Headline] = field(default_factory=list)
    cost_usd: float | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    seconds: float | None = None
    failures: dict[str, int | None] = field(default_factory=dict)
    """invalid, illegal, timeouts, aborted (None: the benchmark does not count it)."""


@dataclass
class Part:
    """What one benchmark's sub-run gave the suite."""

    benchmark: str
    status: str
    """complete | stopped (the cost cap or a dead endpoint: resumable) | interrupted | aborted
    (games set aside, replayed on resume) | failed (a user error or a policy that cannot answer:
    the message says which: a missing Stockfish) | not applicable."""
    exit_code: int
    cells: list[Cell]
    output_dir: str
    report: str | None = None
    """The report file the sub-run wrote, relative to the suite directory."""
    logs: str | None = None
    spent_usd: float = 0.0
    seconds: float = 0.0
    message: str = ""
    stop_reason: str | None = None
    references: dict[str, dict[str, float]] = field(default_factory=dict)
    """Per headline label: the `random` and `strongest` reference values this run measured."""
    repeats: int = 1
    """How many times each game was played (`--repeats`; 1 where the benchmark or its
    official protocol plays each game once)."""


def route(spec: str, games: Sequence[str], heuristic: str) -> tuple[str | None, str]:
    """The spec `spec` resolves to on a benchmark whose games are `games` (None: not applicable)
    and why. `heuristic` is the benchmark's built-in heuristic (docs/suite.md has the table)."""
    if spec == "heuristic":
        return heuristic, ""
    prefix, sep, _ = spec.partition(":")
    if sep and prefix in AGNOSTIC:
        return spec, ""
    try:
        if not sep or prefix == "policy":
            name = spec.partition(":")[2] if prefix == "policy" else spec
            for game in games:
                if name.partition(":")[0] not in builtin_names(game):
                    return None, f"{name} is not a {game} built-in"
            return spec, ""
        for game in games:  # an engine or a model file: the grammar says whether it plays
            close = getattr(make_policy(spec, game, SpecOptions(preflight=False)), "close", None)
            if callable(close):
                close()
    except SpecError as error:
        return None, str(error).splitlines()[0][:200]
    return spec, ""


def routes(
    policies: Sequence[str], games: Sequence[str], heuristic: str
) -> tuple[dict[str, str], list[Cell]]:
    """Suite name -> the benchmark's spec for the policies that route, and a "not applicable"
    cell for each of the others."""
    playable: dict[str, str] = {}
    skipped: list[Cell] = []
    for policy in policies:
        spec, why = route(policy, games, heuristic)
        if spec is None:
            skipped.append(Cell(policy, None, status="not applicable", note=why))
        else:
            playable[policy] = spec
    return playable, skipped


def sub_argv(
    command: str,
    specs: Sequence[str],
    request: SuiteRequest,
    budget_args: Sequence[str],
    *,
    models: bool = True,
    repeats: bool = False,
) -> list[str]:
    """The benchmark's command line for `request`: its own flags for the budget, the policies,
    the suite's model and run options, the remaining cap, `--quiet`, and `--repeats` for a
    benchmark that takes it (`repeats`)."""
    argv = [command, *(w for spec in dict.fromkeys(specs) for w in ("--policy", spec))]
    argv += ["--output-dir", str(request.output_dir), *budget_args, *request.run_args]
    if repeats and request.repeats > 1:
        argv += ["--repeats", str(request.repeats)]
    if models:
        argv += request.model_args
        if request.max_cost_usd is not None:
            argv += ["--max-cost-usd", repr(request.max_cost_usd)]
    if request.quiet:
        argv.append("--quiet")
    return argv


STOP_PREFIXES = ("stopped: ", "interrupted: ", "run not complete;", "arcade-eval ")
"""A sub-run's own "how to resume" lines and its one-line errors (`arcade-eval <command>: ...`):
held back, the suite says them once, naming the suite's command."""


class _Filtered(io.TextIOBase):
    """A stream passing everything through to `target` except whole lines a sub-run prints to
    say how to resume it (they would name the benchmark's command, not the suite's)."""

    def __init__(self, target: TextIO, held: list[str]) -> None:
        self.target, self.held, self.buffer_text = target, held, ""

    def write(self, text: str) -> int:
        *lines, rest = (self.buffer_text + text).split("\n")
        for line in lines:
            if line.startswith(STOP_PREFIXES):
                self.held.append(line)
            else:
                self.target.write(line + "\n")
        if rest and not any(p.startswith(rest[: len(p)]) for p in STOP_PREFIXES):
            self.target.write(rest)  # not the start of a stop line (a progress bar): at once
            rest = ""
        self.buffer_text = rest
        return len(text)

    def flush(self) -> None:
        if self.buffer_text:
            self.target.write(self.buffer_text)
            self.buffer_text = ""
        self.target.flush()

    def isatty(self) -> bool:
        return bool(getattr(self.target, "isatty", lambda: False)())


def run_command(
    add_parsers: Callable[[Any], Any], argv: Sequence[str], request: SuiteRequest
) -> tuple[int, list[str]]:
    """Run a benchmark's own command (`argv`, as `arcade-eval` would parse it) in this process;
    its exit status and the resume lines it printed (held back: the suite prints its own). A bad
    option is exit 2 with the parser's message, never a traceback."""
    parser = argparse.ArgumentParser(prog="arcade-eval", add_help=False)
    add_parsers(parser.add_subparsers(dest="command"))
    held: list[str] = []
    err = _Filtered(sys.stderr, held)
    out: TextIO = io.StringIO() if request.quiet else sys.stdout
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        try:
            args = parser.parse_args(list(argv))
            args.argv = list(request.argv) if request.argv is not None else None
            code = int(args.handler(args))
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else 2
        finally:
            err.flush()
    return code, held


def status_for(code: int, manifest: Mapping[str, Any] | None) -> str:
    """A sub-run's status from its exit code and its manifest (`evaluation/core/run_exit.py`)."""
    if code == 0:
        return "complete"
    if code == 130:
        return "interrupted"
    status = (manifest or {}).get("status")
    if code == 1 and status == "interrupted":
        return "stopped"
    if code == 1 and status == "aborted":
        return "aborted"
    return "failed"


def read_object(root: Path, path: Path) -> dict[str, Any] | None:
    """A JSON object a sub-run wrote (read inside `root` only, within bounds; None: absent or
    unreadable)."""
    from evaluation.core.rundir import RunDirError, inside_root
    from evaluation.core.untrusted_json import read_json

    try:
        data = read_json(inside_root(root, path))
    except (OSError, ValueError, RunDirError):
        return None
    return data if isinstance(data, dict) else None


def read_results(root: Path, folder: Path) -> list[dict[str, Any]]:
    """Every result object under `folder` (inside `root`), in name order."""
    if not folder.is_dir():
        return []
    found = (read_object(root, path) for path in sorted(folder.rglob("*.json")))
    return [data for data in found if data is not None]


def total(values: Sequence[Any]) -> float | None:
    """The sum of the numbers given (None when none is a number: nothing reported it)."""
    numbers = [v for v in values if isinstance(v, int | float) and not isinstance(v, bool)]
    return float(sum(numbers)) if numbers else None


def whole(values: Sequence[Any]) -> int | None:
    """`total` as a whole count."""
    summed = total(values)
    return None if summed is None else int(summed)


def spent(root: Path) -> float:
    """What a sub-run's manifest says it spent (0 when it names no amount)."""
    manifest = read_object(root, root / "manifest.json") or {}
    value = manifest.get("spentUsd")
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def finish(
    part: Part, code: int, held: Sequence[str], root: Path, report: str | None, logs: str
) -> Part:
    """Fill a part's status, stop reason, spend and paths from how its sub-run ended."""
    manifest = read_object(root, root / "manifest.json")
    part.exit_code, part.status = code, status_for(code, manifest)
    part.stop_reason = (manifest or {}).get("stopReason") if part.status == "stopped" else None
    part.message = held[0].removeprefix(f"arcade-eval {part.benchmark}: ") if held else ""
    part.spent_usd = max(part.spent_usd, spent(root))
    part.report = report if report and (root / report).exists() else None
    part.logs = logs if (root / logs).exists() else None
    return part


def references(
    cells: Sequence[Cell], strongest: str, baseline: str | None = "random"
) -> dict[str, dict[str, float]]:
    """Per headline label, the baseline's (`random`) and the strongest built-in's value when
    this run played them (the scorecard's normalisation, docs/suite.md)."""
    found: dict[str, dict[str, float]] = {}
    roles = {strongest: "strongest", **({baseline: "random"} if baseline else {})}
    for cell in cells:
        role = roles.get(cell.spec or "")
        if role is None or cell.status != "ok":
            continue
        for headline in cell.headlines:
            if headline.value is not None:
                found.setdefault(headline.label, {})[role] = float(headline.value)
    return found


REFERENCE = "reference:"
"""How a reference built-in the suite added (not asked for) is named among a part's cells."""


def with_references(
    playable: Mapping[str, str], strongest: str, baseline: str | None = "random"
) -> dict[str, str]:
    """`playable` plus the benchmark's reference built-ins when no suite policy resolves to
    them: the normalisation's 0 and 100 are measured in the same run, on the same sample."""
    out = dict(playable)
    for spec in (baseline, strongest):
        if spec is not None and spec not in out.values():
            out[f"{REFERENCE}{spec}"] = spec
    return out


def settle(part: Part, strongest: str, baseline: str | None = "random") -> Part:
    """Take the references from the part's cells, then drop the reference built-ins' cells
    (the scorecard has a row per suite policy only)."""
    part.references = references(part.cells, strongest, baseline)
    part.cells = [c for c in part.cells if not c.policy.startswith(REFERENCE)]
    return part

"""How a benchmark command ends: the reports of a finished run written and shown one way, and an
unfinished run said one way with one exit status.

Every run command (`ttt-arena`, `sudoku`, `tetris-bench`, ...) stops the same ways, each said in one
line that names the cause and the exact command that resumes the run:

- interrupted by Ctrl-C: 130;
- stopped on our side: 1. Either `--max-consecutive-aborts` games of one policy in a row were
  aborted by failures on our side (a dead endpoint: resume once it is back), or the next call could
  pass `--max-cost-usd` (the line names the cap and what was spent; the resume command raises the
  cap, since repeating it with the same cap stops again at once, with the same line);
- finished with games aborted by failures on our side: 1, each listed.

Repeating the printed command into the same output directory finishes the run.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol, TextIO

from evaluation.core.grid import COST_CAP_ERROR
from evaluation.core.money import usd
from evaluation.core.rundir import write_text_atomic

INTERRUPTED = 130
ABORTED = 1
STOPPED = 1
"""A run stopped on our side (a dead endpoint, the cost cap): resumable, like an aborted game."""


def resume_command(
    args: argparse.Namespace | None,
    output_dir: str | Path,
    *,
    replace: Mapping[str, str] | None = None,
) -> str:
    """The command line that resumes this run: the one given (`args.argv`, set by
    `evaluation/cli.py:main`), with `--output-dir` added when it was left to its default, and
    each option of `replace` set to its new value (`--max-cost-usd`). Without `args`: the
    generic advice."""
    argv = getattr(args, "argv", None)
    if argv is None:
        return f"the same command with --output-dir {shlex.quote(str(output_dir))}"
    words = [str(word) for word in argv]
    if getattr(args, "output_dir", None) is None:
        words += ["--output-dir", str(output_dir)]
    for flag, value in (replace or {}).items():
        words = _set_option(words, flag, value)
    return shlex.join(["arcade-eval", *words])


def _set_option(words: list[str], flag: str, value: str) -> list[str]:
    """`words` with every `flag VALUE` / `flag=VALUE` set to `value` (added when absent)."""
    out: list[str] = []
    found = False
    skip = False
    for i, word in enumerate(words):
        if skip:
            skip = False
            continue
        if word == flag and i + 1 < len(words):
            out += [flag, value]
            found, skip = True, True
        elif word.startswith(flag + "="):
            out.append(f"{flag}={value}")
            found = True
        else:
            out.append(word)
    return out if found else [*out, flag, value]


def stop_line(
    reason: str,
    missing: int,
    output_dir: str | Path,
    args: argparse.Namespace | None,
    unit: str,
    *,
    spent_usd: float | None = None,
) -> str:
    """One line for a run stopped on our side: the cause, what is missing, the resume command.
    A cost-cap stop names the cap and the amount spent (`spent_usd`, else the run's meter) and
    resumes with a doubled cap."""
    meter = getattr(args, "cost_meter", None)
    cap = getattr(args, "max_cost_usd", None)
    if COST_CAP_ERROR in reason and isinstance(cap, int | float):
        if spent_usd is None and meter is not None:
            spent_usd = float(meter.spent_usd)
        more = f"{cap * 2:g}"
        command = resume_command(args, output_dir, replace={"--max-cost-usd": more})
        return (
            f"stopped: the cost cap --max-cost-usd {cap:g} is reached ({usd(spent_usd)} spent of "
            f"{usd(cap)}; the next call could pass it); {missing} {unit} missing. To go on, raise "
            f"the cap (the same cap stops again at once): {command}"
        )
    command = resume_command(args, output_dir)
    return (
        f"stopped: {reason}; {missing} {unit} missing. Once the cause is fixed (the endpoint "
        f"back, the key valid), resume with: {command}"
    )


def unfinished_exit(
    output_dir: str | Path,
    *,
    interrupted: bool,
    missing: int,
    aborted: Sequence[str],
    unit: str = "games",
    out: TextIO | None = None,
    stop_reason: str | None = None,
    args: argparse.Namespace | None = None,
) -> int | None:
    """Say why a run is not finished and return its exit status (None: it finished).

    `stop_reason`: why the run stopped on our side (`GridRun.stop_reason`; None after Ctrl-C);
    `args`: the parsed command line, so the exact resume command can be printed."""
    stream = out if out is not None else sys.stderr
    if interrupted and stop_reason is not None:
        print(stop_line(stop_reason, missing, output_dir, args, unit), file=stream)
        return STOPPED
    if interrupted:
        command = resume_command(args, output_dir)
        print(f"interrupted: {missing} {unit} missing; to finish the run: {command}", file=stream)
        return INTERRUPTED
    if aborted:
        for line in aborted:
            print(f"aborted (not counted): {line}", file=stream)
        command = resume_command(args, output_dir)
        print(
            f"{len(aborted)} {unit} aborted by failures on our side; to play them again: {command}",
            file=stream,
        )
        return ABORTED
    return None


class GridOutcome(Protocol):
    """What a grid run's outcome tells about an unfinished run (`GridRun` and the benchmarks'
    outcomes built on it)."""

    @property
    def interrupted(self) -> bool: ...
    @property
    def missing(self) -> Sequence[object]: ...
    @property
    def aborted(self) -> Sequence[str]: ...
    @property
    def stop_reason(self) -> str | None: ...


def outcome_exit(
    output_dir: str | Path,
    outcome: GridOutcome,
    args: argparse.Namespace | None,
    *,
    unit: str = "games",
) -> int | None:
    """`unfinished_exit` of a grid run's outcome."""
    return unfinished_exit(
        output_dir,
        interrupted=outcome.interrupted,
        missing=len(outcome.missing),
        aborted=outcome.aborted,
        unit=unit,
        stop_reason=outcome.stop_reason,
        args=args,
    )


def default_output_dir(benchmark: str) -> Path:
    """A fresh `runs/<benchmark>-<UTC time>` for a run given no `--output-dir`."""
    return Path(f"runs/{benchmark}-{datetime.now(UTC).strftime('%Y%m%dT%H%M%SZ')}")


def write_reports(
    output_dir: Path,
    files: Mapping[str, str],
    shown: str,
    *,
    copy: tuple[str, str | None] | None = None,
) -> None:
    """Write a finished run's report files into `output_dir`, print `shown` and where the run
    is, and copy one report (`(name, path)`, e.g. `--json PATH`) where the user asked."""
    for name, text in files.items():
        write_text_atomic(output_dir / name, text if text.endswith("\n") else text + "\n")
    print(shown)
    print(f"\nrun written to {output_dir} (verify with: arcade-eval verify {output_dir})")
    if copy is not None and copy[1]:
        path = Path(copy[1])
        write_text_atomic(path, files[copy[0]])
        print(f"wrote {path}")

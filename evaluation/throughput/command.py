"""The `arcade-eval bench` command: its arguments and what each form runs.

- `bench NAME` / `bench all`: the throughput reports (`run.py`, `report.py`);
- `bench coldstart`: first use of every env in fresh processes on an empty numba cache
  (`coldstart.py`), optionally of a command too (`--command`);
- `bench --peers`: our figures beside the peer libraries', one interleaved sitting (`peers.py`).

Each prints its table and, with `--json PATH`, writes its report there. A user error (no peer
installed, an unknown target) is one line naming the fix.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import Any

from evaluation.core.errors import RunError
from evaluation.core.rundir import write_text_atomic

COLDSTART = "coldstart"


def add_arguments(bench: argparse.ArgumentParser, names: list[str], aliases: list[str]) -> None:
    """The bench command's arguments (`names`: every bench; `aliases`: older names)."""
    bench.add_argument(
        "game",
        metavar="NAME",
        nargs="?",
        choices=[*names, "all", COLDSTART, *aliases],
        help="a game (its envs), an engine, a benchmark with a bench, or all of them: "
        + ", ".join(names)
        + f"; or {COLDSTART}: first use of every env (import, make, reset, step) in a fresh "
        "process on an empty numba cache, then on the cache it left, with the compile time of "
        "every kernel",
    )
    bench.add_argument(
        "--seconds", type=float, default=3.0, help="seconds spent on each figure (default: 3)"
    )
    bench.add_argument("--json", metavar="PATH", help="also write the figures as JSON to PATH")
    bench.add_argument(
        "--peers",
        action="store_true",
        help="measure each peer library's env (the games name them: Jumanji, pgx, PettingZoo, "
        "...) beside ours in one interleaved sitting: single and batched, ours, peer, ratio, "
        'compile time and load average (needs pip install -e ".[peers]")',
    )
    bench.add_argument(
        "--only",
        metavar="TEXT",
        help="with --peers: the pairs whose name contains TEXT; with coldstart: the targets "
        "(env:ID, vector:ID, aec:NAME) that contain TEXT",
    )
    bench.add_argument(
        "--command",
        dest="timed_command",  # `command` is the sub-command's name in `arcade-eval`'s namespace
        metavar="CMD",
        help="with coldstart: also time CMD (the README's quick start, say) until its run "
        "directory holds a decision, on an empty numba cache, then on the cache it left",
    )


def _write(path: str | None, report: Any) -> None:
    if path:
        write_text_atomic(Path(path), json.dumps(report, indent=2) + "\n")
        print(f"wrote {path}")


def _progress(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    """Run the form `args` asks for; 2 with one line on a user error."""
    try:
        return _run(args)
    except RunError as error:
        print(f"arcade-eval bench: {error}", file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    if args.peers:
        if args.game is not None:
            raise RunError("--peers measures every pair: give no NAME (narrow it with --only)")
        from evaluation.throughput.peers import format_peers, peers_report

        report = peers_report(args.seconds, only=args.only, progress=_progress)
        print(format_peers(report), flush=True)
        _write(args.json, report)
        return 0
    if args.game is None:
        raise RunError(f"give a NAME to measure, {COLDSTART}, or --peers (see --help)")
    if args.game == COLDSTART:
        from evaluation.throughput.coldstart import (
            coldstart_report,
            coldstart_targets,
            format_coldstart,
        )

        targets = [t for t in coldstart_targets() if args.only is None or args.only in t]
        if not targets:
            raise RunError(f"no coldstart target contains {args.only!r}: {coldstart_targets()}")
        command = shlex.split(args.timed_command) if args.timed_command else None
        report = coldstart_report(targets, command=command, progress=_progress)
        print(format_coldstart(report), flush=True)
        _write(args.json, report)
        return 0
    if args.only or args.timed_command:
        raise RunError("--only and --command go with --peers or coldstart")
    from evaluation.throughput.registry import bench_names, run_bench
    from evaluation.throughput.report import format_table

    names = bench_names() if args.game == "all" else [args.bench_aliases.get(args.game, args.game)]
    reports = []
    for name in names:
        report = run_bench(name, args.seconds)
        reports.append(report)
        print(format_table(report), flush=True)
    _write(args.json, reports[0] if len(reports) == 1 else reports)
    return 0

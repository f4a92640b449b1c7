"""`arcade-eval arena` (alias `ttt`): grade tic-tac-toe engines on the arena suite."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from evaluation.benchmarks.arena.defaults import DEFAULT_SEED, DEFAULT_TIMEOUT_MS
from evaluation.core.cli_options import (
    add_model_options,
    add_policy_option,
    policies_from,
    spec_options,
)
from evaluation.core.executor import add_executor_options
from evaluation.core.run_exit import default_output_dir, unfinished_exit, write_reports

# The suite and the oracle load numba kernels: they are imported when the command runs.
BUILTINS = "random, greedy, tactician, perfect"


def add_parsers(sub: Any) -> None:
    """Register `arena` (and its alias `ttt`) on the `arcade-eval` subparsers."""
    arena = sub.add_parser(
        "arena",
        aliases=["ttt"],
        help="grade tic-tac-toe engines on the arena suite (Brainfuck, command, policy or LLM)",
        description=(
            "Run each engine through the seeded tic-tac-toe suite (188 positions, 24 matches) and "
            "grade it S+ .. F. Every position and match is a game with its own event log "
            "(arcade-eval verify replays them); the run goes to --output-dir (default "
            "runs/arena-<UTC time>); repeating the command, or adding --resume, finishes a run "
            "that was cut short. The same engine and seed give the same report."
        ),
    )
    add_policy_option(arena, aliases=("--engine",), builtins=BUILTINS)
    arena.add_argument(
        "--seed", type=int, default=DEFAULT_SEED, help=f"suite seed (default {DEFAULT_SEED})"
    )
    arena.add_argument(
        "--timeout-ms",
        type=float,
        default=DEFAULT_TIMEOUT_MS,
        help=f"per-move time limit in ms (default {DEFAULT_TIMEOUT_MS:g})",
    )
    arena.add_argument(
        "--output-dir",
        metavar="D",
        help="where the run is written (default: runs/arena-<UTC time>); must be new or empty, "
        "or hold this same run to resume it",
    )
    arena.add_argument(
        "--resume", action="store_true", help="finish the run --output-dir holds (same settings)"
    )
    arena.add_argument("--json", metavar="PATH", help="also write report.json's content to PATH")
    arena.add_argument("--progress", action="store_true", help="print a line per game")
    add_model_options(arena)
    add_executor_options(arena)
    arena.set_defaults(handler=cmd_arena)


def cmd_arena(args: argparse.Namespace) -> int:
    """Run (or resume) an arena run and print its reports. Exit status 0 after a complete run
    (whatever the grades), 2 for a user error, 1 when games were aborted on our side, 130 when
    interrupted."""
    from evaluation.benchmarks.arena.report import run_document, run_text
    from evaluation.benchmarks.arena.runner import RunError, run_arena
    from evaluation.core.executor import ExecutorError, make_executor
    from evaluation.core.grid import spec_pool
    from policies.specs import SpecError

    output_dir = Path(args.output_dir) if args.output_dir else default_output_dir("arena")
    progress = (lambda line: print(line, flush=True)) if args.progress else None
    try:
        options = spec_options(args, timeout_ms=args.timeout_ms)
        executor = make_executor(args.executor, concurrency=args.concurrency, address=args.address)
        outcome = run_arena(
            policies_from(args),
            spec_pool("tictactoe", options),
            output_dir,
            seed=args.seed,
            timeout_ms=args.timeout_ms,
            resume=True if args.resume else None,
            executor=executor,
            progress=progress,
        )
    except (RunError, SpecError, ExecutorError) as error:
        print(f"arcade-eval arena: {error}", file=sys.stderr)
        return 2
    status = unfinished_exit(
        output_dir,
        interrupted=outcome.interrupted,
        missing=len(outcome.missing),
        aborted=outcome.aborted,
    )
    if status is not None:
        return status
    document = json.dumps(run_document(outcome.reports), indent=2) + "\n"
    text = run_text(outcome.reports)
    files = {"report.json": document, "report.txt": text}
    write_reports(output_dir, files, text, copy=("report.json", args.json))
    return 0

"""`arcade-eval ttt-arena` (older names `arena`, `ttt`): grade tic-tac-toe engines on the arena
suite."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from evaluation.benchmarks.ttt_arena.defaults import BENCHMARK_ID, DEFAULT_SEED, DEFAULT_TIMEOUT_MS
from evaluation.core.cli_options import (
    abort_limit,
    add_model_options,
    add_policy_option,
    add_quiet_option,
    add_repeats_option,
    add_resume_option,
    policies_from,
    progress_printer,
    spec_options,
)
from evaluation.core.executor import add_executor_options
from evaluation.core.run_exit import default_output_dir, outcome_exit, write_reports

# The suite and the oracle load numba kernels: they are imported when the command runs.
BUILTINS = "random, greedy, tactician, perfect"


def add_parsers(sub: Any) -> None:
    """Register `ttt-arena` (and its older names `arena`, `ttt`) on the `arcade-eval` subparsers."""
    arena = sub.add_parser(
        BENCHMARK_ID,
        aliases=["arena", "ttt"],
        help="grade tic-tac-toe engines on the arena suite (Brainfuck, command, policy or LLM); "
        "tools: bench, table",
        description=(
            "Run each engine through the seeded tic-tac-toe suite (188 positions, 24 matches) and "
            "grade it S+ .. F. Every position and match is a game with its own event log "
            "(arcade-eval verify replays them); the run goes to --output-dir (default "
            f"runs/{BENCHMARK_ID}-<UTC time>); repeating the command, or adding --resume, "
            "finishes a run that was cut short. The same engine and seed give the same report. "
            "`arena` and `ttt` are older names of this command."
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
        help=f"where the run is written (default: runs/{BENCHMARK_ID}-<UTC time>); must be new "
        "or empty, or hold this same run to resume it",
    )
    add_resume_option(arena)
    add_repeats_option(arena)
    arena.add_argument("--json", metavar="PATH", help="also write report.json's content to PATH")
    add_quiet_option(arena, "line per game")
    add_model_options(arena)
    add_executor_options(arena)
    arena.set_defaults(handler=cmd_arena)
    entry_commands = arena.add_subparsers(
        dest="arena_command", metavar="{bench,table}", title="entry commands"
    )
    add_entry_parsers(entry_commands)


def cmd_arena(args: argparse.Namespace) -> int:
    """Run (or resume) an arena run and print its reports. Exit status 0 after a complete run
    (whatever the grades), 2 for a user error, 1 when games were aborted or the run stopped on
    our side (a dead endpoint, the cost cap), 130 when interrupted (see
    `evaluation/core/run_exit.py`)."""
    from evaluation.benchmarks.ttt_arena.report import run_document, run_text
    from evaluation.benchmarks.ttt_arena.runner import run_arena
    from evaluation.core.errors import RunError
    from evaluation.core.executor import ExecutorError, make_executor
    from evaluation.core.grid import spec_pool
    from policies.specs import SpecError

    output_dir = Path(args.output_dir) if args.output_dir else default_output_dir(BENCHMARK_ID)
    progress = progress_printer(args)
    try:
        options = spec_options(args, timeout_ms=args.timeout_ms)
        executor = make_executor(args.executor, concurrency=args.concurrency, address=args.address)
        outcome = run_arena(
            policies_from(args),
            spec_pool("tictactoe", options, abort_limit=abort_limit(args)),
            output_dir,
            seed=args.seed,
            timeout_ms=args.timeout_ms,
            resume=True if args.resume else None,
            executor=executor,
            progress=progress,
            repeats=args.repeats,
        )
    except (RunError, SpecError, ExecutorError) as error:
        print(f"arcade-eval {BENCHMARK_ID}: {error}", file=sys.stderr)
        return 2
    status = outcome_exit(output_dir, outcome, args)
    if status is not None:
        return status
    document = json.dumps(run_document(outcome.reports), indent=2) + "\n"
    text = run_text(outcome.reports)
    files = {"report.json": document, "report.txt": text}
    write_reports(output_dir, files, text, copy=("report.json", args.json))
    return 0


# --- entries: `ttt-arena bench` and `ttt-arena table` -------------------------------------------


def add_entry_parsers(sub: Any) -> None:
    """`ttt-arena bench` (grade entries, save their results) and `ttt-arena table` (the tier
    list)."""
    bench = sub.add_parser(
        "bench",
        help="run the official suite on the arena entries and save their results",
        description=(
            "Run each entry of --entries (default: the shipped seeds/arena/entries) through the "
            "official suite, as `arcade-eval ttt-arena --policy bf:ENGINE` does, and save its "
            "result under <entry>/results/ (with the 24 match logs, which `arcade-eval verify` "
            "accepts). The official result of an entry is its latest run on the default seed."
        ),
    )
    bench.add_argument("--entries", metavar="DIR", help="the entries directory")
    which = bench.add_mutually_exclusive_group()
    which.add_argument("--entry", metavar="ID", help="bench only this entry")
    which.add_argument(
        "--file", metavar="PATH", help="bench any Brainfuck file (printed, never saved)"
    )
    bench.add_argument(
        "--seed", type=int, default=DEFAULT_SEED, help=f"suite seed (default {DEFAULT_SEED})"
    )
    bench.add_argument("--no-save", action="store_true", help="print the results, write nothing")
    add_quiet_option(bench, "line per game")
    bench.set_defaults(handler=cmd_bench)
    table = sub.add_parser(
        "table",
        help="print the arena tier list (official results of the entries)",
        description="Rank the entries of --entries by the score of their official result.",
    )
    table.add_argument("--entries", metavar="DIR", help="the entries directory")
    table.add_argument("--json", action="store_true", help="print the rows as JSON")
    table.set_defaults(handler=cmd_table)


def _entries_dir(args: argparse.Namespace) -> Path:
    from evaluation.benchmarks.ttt_arena.entries import default_entries_dir

    return Path(args.entries) if args.entries else default_entries_dir()


def cmd_bench(args: argparse.Namespace) -> int:
    """Bench the entries (or one, or a loose file). Exit 0 when every engine was graded (whatever
    its grade), 2 for a user error (a bad entry, a missing file), 130 when interrupted."""
    from evaluation.benchmarks.ttt_arena.entries import EntryError, find_entry, load_entries
    from evaluation.benchmarks.ttt_arena.entry_bench import bench_engine

    progress = progress_printer(args)
    try:
        if args.file:
            engine = Path(args.file)
            if not engine.is_file():
                raise EntryError(f"no Brainfuck file at {args.file!r}")
            benched = bench_engine(engine, seed=args.seed, save=False, progress=progress)
            print(benched.report.to_text())
            return 0
        directory = _entries_dir(args)
        entries = [find_entry(directory, args.entry)] if args.entry else load_entries(directory)
        if not entries:
            raise EntryError(f"no entries in {directory}")
        for entry in entries:
            benched = bench_engine(
                entry.engine,
                entry=entry,
                seed=args.seed,
                save=not args.no_save,
                progress=progress,
            )
            print(f"== {entry.id}")
            print(benched.report.to_text())
            if benched.saved is not None:
                print(
                    f"saved {benched.saved} (verify with: arcade-eval verify "
                    f"{benched.saved.with_suffix('')})"
                )
            print()
    except EntryError as error:
        print(f"arcade-eval {BENCHMARK_ID} bench: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(
            f"arcade-eval {BENCHMARK_ID} bench: interrupted; the engine being benched has no "
            "result saved (rerun the same command)",
            file=sys.stderr,
        )
        return 130
    return 0


def cmd_table(args: argparse.Namespace) -> int:
    """Print the tier list of an entries directory."""
    from evaluation.benchmarks.ttt_arena.entries import EntryError, load_entries
    from evaluation.benchmarks.ttt_arena.tier_list import tier_rows, tier_text

    try:
        rows = tier_rows(load_entries(_entries_dir(args)))
    except EntryError as error:
        print(f"arcade-eval {BENCHMARK_ID} table: {error}", file=sys.stderr)
        return 2
    print(json.dumps(rows, indent=2) if args.json else tier_text(rows))
    return 0

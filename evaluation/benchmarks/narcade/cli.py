"""`arcade-eval narcade` and its tools `narcade publish` and `narcade export-replays` (the older
top-level `publish` and `export-replays` still run, hidden): the NARCADE track's commands.

Only argparse and the option helpers are imported here; the runner, games and policies load when
a command runs, so `arcade-eval --help` stays instant.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from evaluation.core.cli_moved import add_moved_parser
from evaluation.core.cli_options import (
    abort_limit,
    add_model_options,
    add_policy_option,
    add_quiet_option,
    add_repeats_option,
    add_resume_option,
    policies_from,
)
from evaluation.core.executor import add_executor_options

if TYPE_CHECKING:
    from evaluation.benchmarks.narcade.settings import NarcadeRunSettings

NARCADE_GAMES = "minesweeper,snake,tetris"


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {value}")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be > 0, got {text}")
    return value


def add_narcade_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of `arcade-eval narcade`."""
    add_policy_option(
        parser, aliases=("--models",), default="random,heuristic", builtins="random, heuristic"
    )
    parser.add_argument(
        "--games", default=NARCADE_GAMES, help=f"comma-separated games (default: {NARCADE_GAMES})"
    )
    parser.add_argument(
        "--episodes", type=_positive_int, default=3, help="episodes per game (default: 3)"
    )
    parser.add_argument(
        "--seed", type=int, default=100, help="first episode seed; then seed+1, ... (default: 100)"
    )
    parser.add_argument(
        "--output-dir",
        help="where the run goes (default: runs/narcade-<UTC time>); must be new or empty, or "
        "hold this same run to resume it (verified episodes are kept, unfinished ones set aside "
        "and played again)",
    )
    add_resume_option(parser)
    add_repeats_option(parser)
    parser.add_argument(
        "--mode",
        choices=["realtime", "lockstep"],
        default="realtime",
        help="Tetris and Snake: the game advances while the policy thinks (realtime, default) or "
        "waits for it (lockstep); Minesweeper is always turn-based",
    )
    parser.add_argument(
        "--difficulty",
        choices=["easy", "medium", "hard"],
        default="medium",
        help="board sizes, timing and Tetris start level (default: medium)",
    )
    parser.add_argument(
        "--max-seconds",
        type=_positive_float,
        help="wall-clock cap per Tetris episode (Snake and Minesweeper ignore it)",
    )
    parser.add_argument("--max-pieces", type=_positive_int, help="Tetris piece cap (diagnostic)")
    parser.add_argument(
        "--max-decisions",
        type=_positive_int,
        default=2000,
        help="policy calls per episode (default: 2000)",
    )
    parser.add_argument(
        "--trace",
        action="store_true",
        help="also record each question's full state and actions in the event logs (every "
        "episode always writes a log that arcade-eval verify replays)",
    )
    parser.add_argument(
        "--hardware-label",
        help="hardware label recorded for publication (default: platform, CPU model and count)",
    )
    parser.add_argument(
        "--timeout-ms",
        type=_positive_float,
        default=60_000.0,
        help="per-call limit; a late answer is a timeout and the game goes on (default: 60000)",
    )
    add_model_options(parser)
    add_executor_options(parser)
    parser.add_argument(
        "--in-process",
        action="store_true",
        help="run the models in this process instead of one process each (debugging; the "
        "results are the same)",
    )
    add_quiet_option(parser, "per-episode lines")


def run_request(args: argparse.Namespace) -> NarcadeRunSettings:
    """The run `arcade-eval narcade` was asked for."""
    from evaluation.benchmarks.narcade.settings import NarcadeRunSettings

    return NarcadeRunSettings(
        models=tuple(policies_from(args)),
        games=args.games,
        episodes=args.episodes,
        seed=args.seed,
        mode=args.mode,
        difficulty=args.difficulty,
        max_seconds=args.max_seconds,
        max_pieces=args.max_pieces,
        max_decisions=args.max_decisions,
        trace=args.trace,
        timeout_ms=args.timeout_ms,
        hardware=args.hardware_label,
        models_file=args.models_file,
        base_url=args.base_url,
        cache_dir=args.cache,
        transcripts=args.transcripts,
        max_cost_usd=args.max_cost_usd,
        resume=True,  # the same run resumes by itself; `--resume` says so out loud
        isolate=not args.in_process,
        quiet=args.quiet,
        repeats=args.repeats,
    )


def cmd_narcade(args: argparse.Namespace) -> int:
    """Run (or resume) the suite and print the mean score table."""
    from evaluation.benchmarks.narcade.report import mean_score_table
    from evaluation.benchmarks.narcade.runner import run_narcade
    from evaluation.core.executor import ExecutorError, make_executor
    from evaluation.core.run_exit import stop_line

    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    output_dir = args.output_dir or f"runs/narcade-{stamp}"
    try:
        executor = make_executor(args.executor, concurrency=args.concurrency, address=args.address)
    except ExecutorError as error:
        print(f"arcade-eval narcade: {error}", file=sys.stderr)
        return 2
    code = run_narcade(
        run_request(args),
        output_dir,
        executor=executor,
        abort_limit=abort_limit(args),
        stop_text=lambda why, missing, spent: stop_line(
            why, missing, output_dir, args, "episodes", spent_usd=spent
        ),
    )
    if code != 2:
        with contextlib.suppress(OSError, ValueError, KeyError):
            print(mean_score_table(output_dir))
        print(f"results in {output_dir} (verify with: arcade-eval verify {output_dir}/logs)")
    return code


def cmd_publish(args: argparse.Namespace) -> int:
    """Build a publication from result files (and compare it with an older one)."""
    from evaluation.benchmarks.narcade.publish import PublishError, format_comparison, publish

    try:
        publication = publish(args.results, args.label, args.output, compare_with=args.compare_with)
    except PublishError as error:
        print(f"arcade-eval narcade publish: {error}", file=sys.stderr)
        return 2
    games = publication["games"]
    entries = sum(len(g["entries"]) for g in games.values())
    print(f"wrote {args.output}: {entries} entries over {len(games)} games ({args.label})")
    if publication.get("comparison") is not None:
        print(format_comparison(publication["comparison"]))
    return 0


def cmd_export_replays(args: argparse.Namespace) -> int:
    """Export replay files from verified logs, or say which logs do not replay."""
    from evaluation.benchmarks.narcade.replays import ReplayError, export_replays

    try:
        written = export_replays(args.run_dirs, args.output)
    except ReplayError as error:
        print(f"arcade-eval narcade export-replays: {error}", file=sys.stderr)
        return 1
    print(f"wrote {len(written)} replays to {args.output}")
    return 0


def add_parsers(sub: Any) -> None:
    """Register `narcade` with its `publish` and `export-replays`, and the old top-level
    `publish` and `export-replays` (hidden), on the `arcade-eval` subparsers."""
    narcade = sub.add_parser(
        "narcade",
        help="play policies on Minesweeper, Snake and Tetris with primitive controls (NARCADE); "
        "tools: publish, export-replays",
        description="Run the NARCADE suite: each model in its own process, seeded episodes, an "
        "event log per episode (arcade-eval verify replays it), one result JSON per model and "
        "game (results/<model>/<game>.json) plus a manifest, in an empty --output-dir (or the "
        "same run's: repeating the command resumes it). Exit status: 0 complete, 1 a model "
        "failed, an episode was aborted or the run stopped on our side (a dead endpoint, the "
        "cost cap; the resume command is printed; partial results kept), 2 a bad request, 130 "
        "interrupted. Tools: publish, export-replays.",
    )
    add_narcade_arguments(narcade)
    narcade.set_defaults(handler=cmd_narcade)
    tools = narcade.add_subparsers(dest="narcade_command", metavar="TOOL", title="tools")
    _add_publish_arguments(
        tools.add_parser("publish", help=PUBLISH_HELP, description=PUBLISH_DESCRIPTION)
    )
    _add_export_arguments(
        tools.add_parser("export-replays", help=EXPORT_HELP, description=EXPORT_DESCRIPTION)
    )
    add_moved_parser(
        sub, "publish", "narcade publish", _add_publish_arguments, description=PUBLISH_DESCRIPTION
    )
    add_moved_parser(
        sub,
        "export-replays",
        "narcade export-replays",
        _add_export_arguments,
        description=EXPORT_DESCRIPTION,
    )


PUBLISH_HELP = "build a NARCADE publication from completed result files"
PUBLISH_DESCRIPTION = (
    "Refuses failed runs, duplicate model/game entries and mixed protocols or seeds within a "
    "game. --compare-with reports paired seed score differences against an older publication "
    "(same model revisions, hardware, rules and seeds). `arcade-eval publish` is the older "
    "spelling."
)
EXPORT_HELP = "verify NARCADE event logs and export replay files"
EXPORT_DESCRIPTION = (
    "Every log under RUN_DIR/logs must pass arcade-eval verify and match its run's result file; "
    "any mismatch rejects the export (exit 1, nothing written). `arcade-eval export-replays` is "
    "the older spelling."
)


def _add_publish_arguments(publish: argparse.ArgumentParser) -> None:
    """The arguments of `narcade publish` (and of the old `publish`)."""
    publish.add_argument("results", nargs="+", metavar="RESULT.json", help="result files")
    publish.add_argument("--label", required=True, help="the publication's label, e.g. 'Run 001'")
    publish.add_argument(
        "--output", required=True, metavar="FILE", help="publication JSON to write"
    )
    publish.add_argument(
        "--compare-with", metavar="OLD", help="an earlier publication to compare against"
    )
    publish.set_defaults(handler=cmd_publish)


def _add_export_arguments(replays: argparse.ArgumentParser) -> None:
    """The arguments of `narcade export-replays` (and of the old `export-replays`)."""
    replays.add_argument("run_dirs", nargs="+", metavar="RUN_DIR", help="NARCADE run directories")
    replays.add_argument("--output", required=True, metavar="DIR", help="where replays go")
    replays.set_defaults(handler=cmd_export_replays)

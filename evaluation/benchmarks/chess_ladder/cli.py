"""`arcade-eval chess-ladder ...` (alias `chess`): the chess ladder's commands (heavy imports
inside the handlers)."""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from typing import Any

from evaluation.benchmarks.chess_ladder.defaults import BENCHMARK_ID
from evaluation.core.cli_options import (
    add_model_options,
    add_policy_option,
    add_quiet_option,
    add_resume_option,
    bounded_int,
    finite_positive_float,
    one_line_errors,
    policies_from,
    progress_printer,
    spec_options,
)
from evaluation.core.executor import add_executor_options

DEFAULT_LADDER_OUTPUT = "seeds/chess/ladder-v1.json"
MAX_GAMES_PER_RUNG = 1_000
"""As `runner.MAX_GAMES_PER_RUNG` (not imported: the handlers keep the heavy imports)."""
MAX_GRADE_NODES = 100_000_000
MAX_TIMEOUT_S = 86_400.0


def add_parsers(sub: Any) -> None:
    """Register `chess-ladder` (a ladder run; alias `chess`) and `chess-ladder calibrate` on the
    `arcade-eval` subparsers."""
    chess_parser = sub.add_parser(
        BENCHMARK_ID,
        aliases=["chess"],
        help="play policies up the chess ladder (fixed-rating rungs), rate and grade them; tools: "
        "calibrate",
        description=(
            "Each policy climbs the ladder of seeds/chess/ladder-v1.json from the bottom rung: "
            "--games-per-rung games per rung per variant, stopping after two consecutive rungs "
            "scored zero; colours alternate over the whole climb (each Chess960 start is played "
            "once with each colour), the schedule is in manifest.json. Every move is a fresh "
            "request without a legal-move list; an illegal or unreadable answer gets one line of "
            "feedback, 3 tries a move, then a forfeit. A timeout or a failure on our side aborts "
            "the game: never counted, played again on resume. Games are adjudicated by "
            "Stockfish and graded afterwards with Lichess's formulas. Ratings are on an internal "
            "engine-anchored scale (not FIDE or Chess.com). Logs verify with arcade-eval "
            "verify; re-running the same command into the same --output-dir resumes it. Needs "
            "Stockfish (apt-get install stockfish). `chess` is the older name of this command."
        ),
    )
    one_line_errors(chess_parser)
    add_policy_option(chess_parser, builtins="random, greedy, material-2ply")
    chess_parser.add_argument(
        "--games-per-rung",
        type=bounded_int(1, MAX_GAMES_PER_RUNG),
        default=2,
        help=f"games against each rung, 1 to {MAX_GAMES_PER_RUNG:,} (%(default)s)",
    )
    chess_parser.add_argument(
        "--variants", default="standard,chess960", help="standard, chess960 or both (%(default)s)"
    )
    chess_parser.add_argument(
        "--grade-nodes",
        type=bounded_int(1, MAX_GRADE_NODES),
        default=1_000_000,
        help="Stockfish nodes per graded position (%(default)s)",
    )
    chess_parser.add_argument(
        "--timeout-s",
        type=finite_positive_float(MAX_TIMEOUT_S),
        default=600.0,
        help="a safety net, not a clock: an answer not back within this many seconds aborts "
        "the game (not counted, played again on resume), since the model may think as long as "
        "its settings allow; the default, %(default)s s (10 minutes), only stops a request that "
        f"hangs (at most {MAX_TIMEOUT_S:g})",
    )
    chess_parser.add_argument(
        "--output-dir",
        help=f"where the run goes (default: runs/{BENCHMARK_ID}-<UTC time>); must be new or "
        "empty, or hold this same run to resume it",
    )
    add_resume_option(chess_parser)
    chess_parser.add_argument(
        "--repeats", type=int, default=1, help=argparse.SUPPRESS
    )  # refused in one line by cmd_chess (every other benchmark takes it)
    add_quiet_option(chess_parser, "line per game")
    add_executor_options(chess_parser)
    add_model_options(chess_parser, runs=False)  # a climb stops at its first aborted game
    commands = chess_parser.add_subparsers(dest="chess_command", metavar="COMMAND")
    calibrate = one_line_errors(
        commands.add_parser(
            "calibrate",
            help="play the weak rungs against the lowest Stockfish rung and each other, fit them",
            description=(
                "Play random, greedy and material-2ply against Stockfish at its lowest UCI_Elo "
                "(0.5 s a move, Threads=1) and against each other, fit their ratings with the "
                "Stockfish rungs pinned at their nominal UCI_Elo, and write the ladder file. The "
                "scale is internal and engine-anchored, not FIDE or Chess.com. Needs Stockfish "
                "(apt-get install stockfish, or ARCADE_STOCKFISH=/path)."
            ),
        )
    )
    calibrate.add_argument(
        "--output", default=DEFAULT_LADDER_OUTPUT, help="the ladder file to write (%(default)s)"
    )
    calibrate.add_argument(
        "--games-vs-engine",
        default="6,10,40",
        help="games of random,greedy,material-2ply against the lowest Stockfish rung (%(default)s)",
    )
    calibrate.add_argument(
        "--games-between-weak",
        type=bounded_int(0, MAX_GAMES_PER_RUNG),
        default=20,
        help="games between each pair of weak rungs (%(default)s)",
    )
    calibrate.add_argument("--log", help="append each game as a JSON line to this file")
    calibrate.set_defaults(handler=cmd_calibrate)
    chess_parser.set_defaults(handler=cmd_chess)


def cmd_chess(args: argparse.Namespace) -> int:
    """Run the ladder for the given policies and print the table."""
    from evaluation.benchmarks.chess_ladder.report import markdown_table
    from evaluation.benchmarks.chess_ladder.runner import run_ladder
    from evaluation.core.errors import RunError
    from evaluation.core.executor import ExecutorError, make_executor
    from policies.engines.uci import EngineMissingError
    from policies.specs import SpecError, make_policy

    if args.repeats != 1:
        print(
            f"arcade-eval {BENCHMARK_ID}: --repeats is not offered: a climb is a sequence of "
            "games each decided by the one before; run the ladder again into another "
            "--output-dir to sample it twice",
            file=sys.stderr,
        )
        return 2
    options = spec_options(args)
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    output = args.output_dir or f"runs/{BENCHMARK_ID}-{stamp}"
    try:
        run = run_ladder(
            policies_from(args),
            lambda spec: make_policy(spec, "chess", options),
            output,
            variants=[v.strip() for v in args.variants.split(",") if v.strip()],
            games_per_rung=args.games_per_rung,
            grade_nodes=args.grade_nodes,
            timeout_ms=args.timeout_s * 1000.0,
            resume=True if args.resume else None,
            progress=progress_printer(args),
            executor=make_executor(
                args.executor, concurrency=args.concurrency, address=args.address
            ),
            meter=options.meter,
        )
    except (RunError, SpecError, EngineMissingError, ExecutorError) as error:
        print(f"arcade-eval {BENCHMARK_ID}: {error}", file=sys.stderr)
        return 2
    if run.interrupted or run.aborted:
        for line in run.aborted:
            print(f"aborted (not counted, replayed on resume): {line}", file=sys.stderr)
        print(f"run not complete; repeat the command to resume {output}", file=sys.stderr)
        return 1
    print(markdown_table(run.rows), end="")
    print(f"written to {output}")
    return 0


def _counts(text: str) -> tuple[int, int, int]:
    parts = [int(p) for p in text.split(",")]
    if len(parts) != 3 or any(p < 0 for p in parts):
        raise ValueError(f"--games-vs-engine takes three counts like 6,10,40, got {text!r}")
    return parts[0], parts[1], parts[2]


def cmd_calibrate(args: argparse.Namespace) -> int:
    """Run the calibration and print the fitted ladder."""
    from evaluation.benchmarks.chess_ladder.calibrate import calibrate
    from policies.engines.uci import EngineFailedError, EngineMissingError

    try:
        counts = _counts(args.games_vs_engine)
        if args.games_between_weak < 0:
            raise ValueError("--games-between-weak must be >= 0")
        ladder = calibrate(
            args.output,
            games_vs_engine=counts,
            games_between_weak=args.games_between_weak,
            log=args.log,
        )
    except (EngineMissingError, ValueError) as error:
        print(f"arcade-eval {BENCHMARK_ID} calibrate: {error}", file=sys.stderr)
        return 2
    except EngineFailedError as error:  # Stockfish crashed or hung: its processes are killed
        print(f"arcade-eval {BENCHMARK_ID} calibrate: {error}; run it again", file=sys.stderr)
        return 1
    for rung in ladder["rungs"]:
        extra = f" +- {rung['stdErr']}" if "stdErr" in rung else ""
        print(f"{rung['name']:<16} {rung['rating']:>7.1f}{extra}")
    print(f"{ladder['calibration']['games']} games; written to {args.output}")
    return 0

"""`arcade-eval chess ...`: the chess ladder's commands (heavy imports inside the handlers)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

DEFAULT_LADDER_OUTPUT = "seeds/chess/ladder-v1.json"


def add_parsers(sub: Any) -> None:
    """Register `chess` (with `chess calibrate`) on the `arcade-eval` subparsers."""
    chess_parser = sub.add_parser(
        "chess",
        help="the chess ladder (calibrate: fit the weak rungs against Stockfish)",
        description="The chess ladder: models play fixed-rating opponents, never each other.",
    )
    commands = chess_parser.add_subparsers(dest="chess_command", metavar="COMMAND")
    calibrate = commands.add_parser(
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
        type=int,
        default=20,
        help="games between each pair of weak rungs (%(default)s)",
    )
    calibrate.add_argument("--log", help="append each game as a JSON line to this file")
    calibrate.set_defaults(handler=cmd_calibrate)
    chess_parser.set_defaults(handler=lambda args: _usage(chess_parser))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def _counts(text: str) -> tuple[int, int, int]:
    parts = [int(p) for p in text.split(",")]
    if len(parts) != 3 or any(p < 0 for p in parts):
        raise ValueError(f"--games-vs-engine takes three counts like 6,10,40, got {text!r}")
    return parts[0], parts[1], parts[2]


def cmd_calibrate(args: argparse.Namespace) -> int:
    """Run the calibration and print the fitted ladder."""
    from evaluation.benchmarks.chess_ladder.calibrate import calibrate
    from policies.engines.uci import EngineMissingError

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
        print(f"arcade-eval chess calibrate: {error}", file=sys.stderr)
        return 2
    for rung in ladder["rungs"]:
        extra = f" +- {rung['stdErr']}" if "stdErr" in rung else ""
        print(f"{rung['name']:<16} {rung['rating']:>7.1f}{extra}")
    print(f"{ladder['calibration']['games']} games; written to {args.output}")
    return 0

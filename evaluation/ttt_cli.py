"""The arguments of `arcade-eval ttt` (light: the arena is imported when the command runs)."""

from __future__ import annotations

import argparse

DEFAULT_SEED = 20261009
"""The arena's official suite seed (suite v1)."""
DEFAULT_TIMEOUT_MS = 20_000.0
"""Per-move time limit of an engine call (a Brainfuck move may run 100 M instructions)."""


def add_ttt_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of `arcade-eval ttt` (for the CLI to mount on its subparser)."""
    parser.add_argument(
        "--engine",
        required=True,
        help="bf:PATH, cmd:COMMAND, llm:SLUG or policy:NAME (random, greedy, tactician, perfect)",
    )
    parser.add_argument(
        "--seed", type=int, default=DEFAULT_SEED, help=f"suite seed (default {DEFAULT_SEED})"
    )
    parser.add_argument(
        "--timeout-ms",
        type=float,
        default=DEFAULT_TIMEOUT_MS,
        help=f"per-move time limit in ms (default {DEFAULT_TIMEOUT_MS:g})",
    )
    parser.add_argument("--json", metavar="PATH", help="also write the report as JSON to PATH")
    parser.add_argument(
        "--output-dir",
        metavar="D",
        help="write report.json and report.txt into D (a new or empty directory)",
    )
    parser.add_argument("--progress", action="store_true", help="print a line per question")
    parser.add_argument(
        "--models-file", metavar="PATH", help="model registry for llm:SLUG (default: built-in)"
    )
    parser.add_argument(
        "--base-url", metavar="URL", help="OpenAI-compatible endpoint for llm:SLUG engines"
    )


def cmd_ttt(args: argparse.Namespace) -> int:
    """Run the arena for the engine the arguments name."""
    from evaluation.ttt_arena import ttt_main

    return ttt_main(args)

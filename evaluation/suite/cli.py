"""`arcade-eval suite`: play policies through every benchmark and write the scorecard."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from evaluation.core.cli_options import (
    add_model_options,
    add_policy_option,
    add_quiet_option,
    add_repeats_option,
    add_resume_option,
    policies_from,
    progress_printer,
)
from evaluation.core.executor import add_executor_options

DESCRIPTION = (
    "Play each policy through every benchmark that has a route for it, each under its own "
    "protocol: --budget official (each benchmark's official run) or quick (a small sample, "
    "minutes for the built-ins, labelled 'quick sample, not official' everywhere). One run "
    "directory: a sub-directory per benchmark (its own run), one manifest, scorecard.json and "
    "scorecard.md. Repeating the command resumes it; --max-cost-usd holds across the whole "
    "suite. 'heuristic' means each game's built-in heuristic (docs/suite.md has the table); a "
    "policy with no route to a benchmark is 'not applicable', never a failure."
)


def add_parser(sub: Any) -> None:
    """Register `suite` on the `arcade-eval` subparsers."""
    parser = sub.add_parser(
        "suite",
        help="one policy or more through every benchmark; the scorecard",
        description=DESCRIPTION,
    )
    add_policy_option(parser, default=None, builtins="random, heuristic and each game's own")
    parser.add_argument(
        "--budget",
        choices=["quick", "official"],
        default="quick",
        help="quick: a small labelled sample (default); official: each benchmark's protocol",
    )
    parser.add_argument(
        "--benchmarks", metavar="A,B", help="only these benchmarks (default: every registered one)"
    )
    parser.add_argument(
        "--output-dir",
        help="where the suite is written (default: runs/suite-<UTC time>); must be new or "
        "empty, or hold this same suite to resume it",
    )
    add_resume_option(parser)
    add_repeats_option(
        parser,
        note="; passed on to tetris-bench (quick budget only: the official protocol plays "
        "each seed once), sudoku, ttt-arena and narcade; chess-ladder plays each game once",
    )
    add_model_options(parser)
    add_executor_options(parser)
    add_quiet_option(parser, "progress lines")
    parser.set_defaults(handler=cmd_suite)


def _passed_on(args: argparse.Namespace) -> tuple[list[str], list[str]]:
    """The model options and the run options given, as each benchmark's command spells them."""
    model: list[str] = []
    for flag, value in (
        ("--models-file", args.models_file),
        ("--base-url", args.base_url),
        ("--cache", args.cache),
    ):
        if value is not None:
            model += [flag, str(value)]
    if args.transcripts:
        model.append("--transcripts")
    run = ["--concurrency", str(args.concurrency), "--executor", args.executor]
    if args.address:
        run += ["--address", args.address]
    if args.max_consecutive_aborts is not None:
        run += ["--max-consecutive-aborts", str(args.max_consecutive_aborts)]
    return model, run


def cmd_suite(args: argparse.Namespace) -> int:
    """Run (or resume) a suite, write and print its scorecard. Exit status: 0 complete, 1 a
    benchmark stopped (resumable), failed or had games aborted, 2 a bad request, 130
    interrupted."""
    import math

    from evaluation.core.errors import RunError
    from evaluation.core.run_exit import default_output_dir, resume_command, stop_line
    from evaluation.core.rundir import write_text_atomic
    from evaluation.suite import scorecard
    from evaluation.suite.runner import SuiteSettings, choose, run_suite

    say = progress_printer(args) or (lambda line: None)
    output_dir = Path(args.output_dir) if args.output_dir else default_output_dir("suite")
    policies = policies_from(args)
    cap = args.max_cost_usd
    try:
        if not policies:
            raise RunError(
                "give --policy SPEC (repeatable), e.g. --policy random --policy heuristic"
            )
        if cap is not None and not (math.isfinite(cap) and cap > 0):
            raise RunError(f"--max-cost-usd must be a positive number of dollars, got {cap}")
        if cap is not None and args.executor != "local":
            raise RunError("--max-cost-usd needs --executor local: the cost meter is per process")
        settings = SuiteSettings(
            tuple(policies),
            args.budget,
            tuple(b.name for b in choose(args.benchmarks)),
            repeats=args.repeats,
        )
        model_args, run_args = _passed_on(args)
        outcome = run_suite(
            settings,
            output_dir,
            cap_usd=cap,
            quiet=args.quiet,
            model_args=model_args,
            run_args=run_args,
            argv=getattr(args, "argv", None),
            say=say,
        )
    except RunError as error:
        print(f"arcade-eval suite: {error}", file=sys.stderr)
        return 2
    if outcome.refused is not None:
        print(f"arcade-eval suite: {outcome.refused.message}", file=sys.stderr)
        return 2
    card = scorecard.build(policies, args.budget, outcome.parts)
    write_text_atomic(output_dir / "scorecard.json", scorecard.to_json(card))
    write_text_atomic(output_dir / "scorecard.md", scorecard.markdown(card))
    print(scorecard.matrix(card))
    print(f"\nsuite written to {output_dir} (verify with: arcade-eval verify {output_dir})")
    print(f"pages: arcade-eval site --output dist {output_dir}  (matrix, policies, comparisons)")
    stopped = outcome.stopped
    if stopped is not None:
        if stopped.status == "interrupted":
            command = resume_command(args, output_dir)
            print(
                f"interrupted in {stopped.benchmark}; to finish the suite: {command}",
                file=sys.stderr,
            )
            return 130
        args.cost_meter = None
        reason = f"{stopped.benchmark}: {stopped.stop_reason or stopped.message or stopped.status}"
        line = stop_line(
            reason,
            len(outcome.missing),
            output_dir,
            args,
            "benchmarks",
            spent_usd=outcome.spent_usd,
        )
        print(line, file=sys.stderr)
        return 1
    unfinished = [p for p in outcome.parts if p.status not in ("complete", "not applicable")]
    for part in unfinished:
        print(
            f"arcade-eval suite: {part.benchmark} {part.status}"
            f"{': ' + part.message if part.message else ''}",
            file=sys.stderr,
        )
    if unfinished:
        print(f"to finish the suite: {resume_command(args, output_dir)}", file=sys.stderr)
    return 1 if unfinished else 0

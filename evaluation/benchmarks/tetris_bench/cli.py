"""`arcade-eval tetris-bench` (alias `tetris`) and `arcade-eval tetris-bench probe`: the Tetris
Bench official script."""

from __future__ import annotations

import argparse
import functools
import json
import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evaluation.benchmarks.tetris_bench.defaults import BENCHMARK_ID
from evaluation.core.cli_moved import add_moved_parser
from evaluation.core.cli_options import (
    abort_limit,
    add_model_options,
    add_policy_option,
    add_quiet_option,
    add_repeats_option,
    add_resume_option,
    policies_from,
    spec_options,
)
from evaluation.core.executor import add_executor_options
from evaluation.core.header_limits import MAX_TIME_MS
from evaluation.core.rundir import write_text_atomic

if TYPE_CHECKING:
    from evaluation.benchmarks.tetris_bench.records import GameResult
    from evaluation.benchmarks.tetris_bench.runner import RunConfig
    from policies.specs import SpecOptions

# The benchmark modules compile kernels and load scipy: they are imported when a command runs,
# so `arcade-eval --help` stays instant.
LOCAL_BRAINS = ("random", "heuristic", "search", "linear:PATH.json")
"""The built-in brains (`linear` plays a weights file the cross-entropy example saves)."""
IQ_BUDGET_MS = 20_000.0


def make_tetris_brain(spec: str, options: SpecOptions | None = None) -> Any:
    """The brain a policy SPEC names for Tetris Bench (`random`, `heuristic`, `search`,
    `linear:PATH.json`, `llm:SLUG`, `py:MODULE:FACTORY`, ...). Local kernels are compiled (or
    loaded) here, not inside the first timed decision; an LLM brain makes its pre-flight call
    here."""
    from evaluation.core.errors import RunError
    from policies.specs import SpecError, make_policy

    try:
        brain = make_policy(spec, "tetris", options)
    except SpecError as error:
        raise RunError(str(error)) from None
    name = spec.partition(":")[0]
    if name in {local.partition(":")[0] for local in LOCAL_BRAINS}:
        from policies.tetris import warmup

        warmup(name)  # that brain's kernels only: a quick run starts playing sooner
    return brain


def add_parsers(sub: Any) -> None:
    """Register `tetris-bench` (alias `tetris`) with its `probe`, and the old top-level `probe`
    (hidden) on the `arcade-eval` subparsers."""
    tetris = sub.add_parser(
        BENCHMARK_ID,
        aliases=["tetris"],
        help="play brains through Tetris Bench and print the leaderboard; tools: probe",
        description=(
            "Play each brain on the Tetris Bench seeds (ruleset tetris-bench@3). By default a "
            "quick run: 3 seeds, IQ and Blitz. --official plays all 30 public seeds in IQ. Logs, "
            "results, a manifest and the leaderboard (JSON and Markdown) go to --output-dir; "
            "re-running the same command into the same directory resumes it. `tetris` is the "
            "older name of this command."
        ),
    )
    add_policy_option(
        tetris,
        aliases=("--brains",),
        default="random,heuristic,search",
        builtins=", ".join(LOCAL_BRAINS),
    )
    tetris.add_argument(
        "--official", action="store_true", help="all 30 public seeds, IQ (add Blitz with --modes)"
    )
    tetris.add_argument(
        "--seeds", help="a count N (the first N public seeds) or a list like seed-01,seed-07"
    )
    tetris.add_argument(
        "--allow-custom-seeds",
        action="store_true",
        help="let --seeds name seeds outside the public list (never with --official)",
    )
    tetris.add_argument(
        "--modes", help="iq, blitz or iq,blitz (default: both for a quick run, iq when official)"
    )
    tetris.add_argument(
        "--output-dir",
        help=f"where the run is written (default: runs/{BENCHMARK_ID}-<UTC time>); must be new "
        "or empty, or hold this same run to resume it",
    )
    add_resume_option(tetris)
    add_repeats_option(tetris, note="; never with --official (one game per public seed)")
    tetris.add_argument(
        "--merge",
        metavar="INDEX",
        help="merge the finished official results into this leaderboard index (JSON)",
    )
    tetris.add_argument(
        "--budget-ms",
        type=float,
        default=IQ_BUDGET_MS,
        help="IQ time budget per move in ms (default: 20000)",
    )
    add_model_options(tetris)
    add_executor_options(tetris)
    add_quiet_option(tetris, "progress bar")
    tetris.set_defaults(handler=cmd_tetris)
    tools = tetris.add_subparsers(dest="tetris_command", metavar="TOOL", title="tools")
    _add_probe_arguments(tools.add_parser("probe", help=PROBE_HELP, description=PROBE_DESCRIPTION))
    add_moved_parser(
        sub, "probe", f"{BENCHMARK_ID} probe", _add_probe_arguments, description=PROBE_DESCRIPTION
    )


PROBE_HELP = "ten fixed positions: do the brains avoid adding holes?"
PROBE_DESCRIPTION = (
    "Ask each brain (--policy, repeatable) the ten probe positions in both candidate orders. "
    "A brain passes when it never picks a candidate that adds a hole; an LLM brain's report "
    "also shows the tokens and cost of its calls, and several brains end with a summary line "
    "each. Exit 0 when every brain passes, 1 when one fails. `arcade-eval probe` is the older "
    "spelling."
)


def _add_probe_arguments(probe: argparse.ArgumentParser) -> None:
    """The arguments of `tetris-bench probe` (and of the old `probe`)."""
    add_policy_option(probe, aliases=("--brain",), builtins=", ".join(LOCAL_BRAINS))
    probe.add_argument(
        "--json",
        metavar="PATH",
        help="also write the report as JSON (a list of reports for several brains)",
    )
    add_model_options(probe, runs=False)
    probe.set_defaults(handler=cmd_probe)


def _config(args: argparse.Namespace) -> RunConfig:
    from evaluation.benchmarks.tetris_bench.runner import RunConfig, parse_modes, parse_seeds
    from evaluation.core.errors import RunError

    brains = policies_from(args)
    if not brains:
        raise RunError("--policy needs at least one policy, e.g. heuristic")
    seed_set, seeds = parse_seeds(args.seeds, args.official, args.allow_custom_seeds)
    default_modes = "iq" if args.official else "iq,blitz"
    modes = parse_modes(args.modes or default_modes)
    if "IQ" not in modes:
        raise RunError("every run plays IQ (the ranking comes from it); use --modes iq,blitz")
    if args.merge and not args.official:
        raise RunError("--merge takes official results only; add --official")
    if not (math.isfinite(args.budget_ms) and 0 < args.budget_ms <= MAX_TIME_MS):
        raise RunError(f"--budget-ms must be a finite number > 0 and at most {MAX_TIME_MS:,.0f}")
    if args.concurrency < 1:
        raise RunError("--concurrency must be >= 1")
    return RunConfig(
        brains=tuple(brains),
        seeds=tuple(seeds),
        seed_set=seed_set,
        modes=tuple(modes),
        official=bool(args.official),
        budget_ms=float(args.budget_ms),
        repeats=args.repeats,
    )


def cmd_tetris(args: argparse.Namespace) -> int:
    """Run (or resume) a Tetris Bench run and print its leaderboard."""
    from tqdm import tqdm

    from evaluation.benchmarks.tetris_bench.leaderboard import (
        merge_index,
        to_json,
        to_markdown,
        to_text,
    )
    from evaluation.benchmarks.tetris_bench.runner import run_tetris_bench
    from evaluation.core.errors import RunError
    from evaluation.core.executor import ExecutorError, make_executor
    from evaluation.core.grid import PolicyPool
    from evaluation.core.run_exit import default_output_dir, outcome_exit, write_reports
    from policies.specs import SpecError

    try:
        config = _config(args)
        output_dir = Path(args.output_dir) if args.output_dir else default_output_dir(BENCHMARK_ID)
        games = len(config.games()) * config.repeats
        bar = tqdm(total=games, unit="game", disable=args.quiet, file=sys.stderr)

        def progress(brain: str, mode: str, seed: str, result: GameResult | None) -> None:
            if result is not None:
                bar.set_description(f"{brain} {mode} {seed}")
                bar.set_postfix_str(f"score {result.score} ({result.end_reason})")
                bar.update(1)

        options = spec_options(args)
        pool = PolicyPool(
            functools.partial(make_tetris_brain, options=options),
            meter=options.meter,
            abort_limit=abort_limit(args),
        )
        executor = make_executor(args.executor, concurrency=args.concurrency, address=args.address)
        try:
            outcome = run_tetris_bench(
                config, output_dir, pool, progress=progress, executor=executor
            )
        finally:
            bar.close()
    except (RunError, SpecError, ExecutorError) as error:
        print(f"arcade-eval {BENCHMARK_ID}: {error}", file=sys.stderr)
        return 2
    status = outcome_exit(output_dir, outcome, args)
    if status is not None:
        return status
    assert outcome.leaderboard is not None
    board = outcome.leaderboard
    files = {
        "leaderboard.json": json.dumps(to_json(board), indent=1),
        "leaderboard.md": to_markdown(board),
    }
    write_reports(output_dir, files, to_text(board))
    if args.merge:
        try:
            merge_index(args.merge, outcome.results, official=config.official)
        except ValueError as error:
            print(f"arcade-eval {BENCHMARK_ID}: not merged: {error}", file=sys.stderr)
            return 2
        print(f"merged into {args.merge}")
    return 0


def cmd_probe(args: argparse.Namespace) -> int:
    """Run the probe for each brain given; exit 1 when one fails."""
    from evaluation.benchmarks.tetris_bench.probe import format_report, format_summary, run_probe
    from evaluation.core.errors import RunError

    try:
        specs = policies_from(args)
        if not specs:
            raise RunError("probe needs a --policy (repeatable), e.g. --policy heuristic")
        options = spec_options(args)
        brains = [make_tetris_brain(spec, options) for spec in specs]
    except RunError as error:
        print(f"arcade-eval {BENCHMARK_ID} probe: {error}", file=sys.stderr)
        return 2
    reports = []
    for brain in brains:
        reports.append(run_probe(brain))
        print(format_report(reports[-1]))
    if len(reports) > 1:
        print(format_summary(reports))
    if args.json:
        data: Any = [r.to_dict() for r in reports] if len(reports) > 1 else reports[0].to_dict()
        write_text_atomic(Path(args.json), json.dumps(data, indent=1) + "\n")
    return 0 if all(r.passed for r in reports) else 1

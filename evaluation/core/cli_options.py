"""The command-line options every benchmark shares: `--policy` (the one policy grammar) and the
LLM endpoint options, so each sub-command spells them the same way."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from evaluation.core.cli_moved import moved_flag
from evaluation.core.repeats import MAX_REPEATS
from policies.specs import SpecError, SpecOptions, split_specs

POLICY_HELP = (
    "a policy SPEC, repeatable or comma-separated: a built-in NAME, llm:SLUG, py:MODULE:FACTORY, "
    "bf:PATH, cmd:COMMAND (uci:COMMAND and cli:COMMAND where the game takes them; a cli: agent's "
    "tokens and cost are read from Claude Code's --output-format json, codex exec --json or the "
    "generic JSON shape of docs/llm.md)"
)


def add_policy_option(
    parser: argparse.ArgumentParser,
    *,
    aliases: Sequence[str] = (),
    default: str | None = None,
    builtins: str = "",
) -> None:
    """`--policy SPEC` plus older flag names kept as documented aliases (same meaning; each says
    its new form when used)."""
    help_text = POLICY_HELP + (f"; built-ins: {builtins}" if builtins else "")
    if default:
        help_text += f" (default: {default})"
    parser.add_argument(
        "--policy",
        *aliases,
        dest="policy",
        action=moved_flag("append", "--policy", aliases),
        metavar="SPEC",
        help=help_text,
    )
    parser.set_defaults(policy_default=default)


def policies_from(args: argparse.Namespace) -> list[str]:
    """The specs given (or the default), in order, without duplicates."""
    given = args.policy or ([args.policy_default] if args.policy_default else [])
    return split_specs(given)


ABORTS_DEFAULT_TEXT = "3"
"""`evaluation/core/grid.py:DEFAULT_ABORT_LIMIT` as `--help` says it (grid is not imported at
parse time, so `arcade-eval --help` stays quick; a test keeps the two equal)."""


def add_model_options(parser: argparse.ArgumentParser, *, runs: bool = True) -> None:
    """Where `llm:SLUG` policies come from, what they may cost, and what is kept of them; for a
    command that plays a run (`runs`), also when a failing service stops it."""
    parser.add_argument(
        "--models-file",
        metavar="PATH",
        help="model registry (TOML or JSON) for llm:SLUG policies, and the list price and "
        "limits of a cli:COMMAND whose command an entry names (default: the built-in one)",
    )
    parser.add_argument(
        "--base-url",
        metavar="URL",
        help="OpenAI-compatible endpoint for llm:SLUG policies, e.g. http://127.0.0.1:11434/v1",
    )
    parser.add_argument(
        "--max-cost-usd",
        type=float,
        metavar="X",
        help="stop the run cleanly (resumable) before LLM calls could cost more than X dollars",
    )
    parser.add_argument(
        "--cache",
        metavar="DIR",
        help="replay identical LLM requests from DIR (a re-run with the same settings makes no "
        "requests and writes the same logs); off by default",
    )
    parser.add_argument(
        "--transcripts",
        action="store_true",
        help="also log the full request messages of every LLM decision (large)",
    )
    if runs:
        parser.add_argument(
            "--max-consecutive-aborts",
            type=bounded_int(0, 1_000_000),
            metavar="K",
            help="stop the run (resumable, exit 1, the resume command printed) after K games of "
            "one policy in a row were aborted by failures on our side, e.g. a dead endpoint "
            f"(default {ABORTS_DEFAULT_TEXT}; a finished game resets the count; 0: never stop)",
        )


def abort_limit(args: argparse.Namespace) -> int | None:
    """The run's `--max-consecutive-aborts` for `PolicyPool.abort_limit` (None: never stop)."""
    from evaluation.core.grid import DEFAULT_ABORT_LIMIT

    given = getattr(args, "max_consecutive_aborts", None)
    if given is None:
        return DEFAULT_ABORT_LIMIT
    return None if given == 0 else int(given)


def spec_options(args: argparse.Namespace, *, spent_usd: float = 0.0, **more: Any) -> SpecOptions:
    """SpecOptions from the parsed model options (and any field given in `more`). With
    `--max-cost-usd` every policy of the run shares one cost meter that starts at `spent_usd`
    (what the finished games of a resumed run cost)."""
    cap = getattr(args, "max_cost_usd", None)
    meter = getattr(args, "cost_meter", None)  # one meter for every policy of the run
    if cap is not None and meter is None:
        if not (math.isfinite(cap) and cap > 0):
            raise SpecError(f"--max-cost-usd must be a positive number of dollars, got {cap}")
        from policies.llm.cost_meter import CostMeter

        meter = CostMeter(cap, spent_usd=spent_usd)
        args.cost_meter = meter
    return SpecOptions(
        models_file=getattr(args, "models_file", None),
        base_url=getattr(args, "base_url", None),
        cache_dir=getattr(args, "cache", None),
        meter=meter,
        transcripts=bool(getattr(args, "transcripts", False)),
        **more,
    )


def finite_positive_float(maximum: float | None = None) -> Callable[[str], float]:
    """An argparse `type`: a finite number > 0 (and <= `maximum`); NaN, infinities, zero and
    negatives are refused with a message naming what is wanted."""
    most = "" if maximum is None else f" and at most {maximum:g}"

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and value > 0 and (maximum is None or value <= maximum)):
            raise argparse.ArgumentTypeError(f"must be a finite number > 0{most}, got {text!r}")
        return value

    return parse


def bounded_int(minimum: int, maximum: int) -> Callable[[str], int]:
    """An argparse `type`: a whole number from `minimum` to `maximum`, refused otherwise."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or not minimum <= value <= maximum:
            raise argparse.ArgumentTypeError(
                f"must be a whole number from {minimum:,} to {maximum:,}, got {text!r}"
            )
        return value

    return parse


def one_line_errors(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Make `parser` report a bad option as one line (`PROG: error: MESSAGE`, exit 2) instead
    of its usage and the message: the message names the option and what it takes."""

    def error(message: str) -> NoReturn:
        parser.exit(2, f"{parser.prog}: error: {message}\n")

    parser.error = error  # type: ignore[method-assign]
    return parser


def add_quiet_option(parser: argparse.ArgumentParser, what: str = "progress lines") -> None:
    """`--quiet`: every command shows its progress by default and this one flag silences it;
    the older `--no-progress` (same as `--quiet`) and `--progress` (the default) still parse,
    hidden from `--help`, and say their new form when used."""
    parser.add_argument(
        "--quiet", dest="quiet", action="store_true", default=False, help=f"no {what}"
    )
    parser.add_argument(
        "--no-progress",
        dest="quiet",
        action=moved_flag("store_true", "--quiet", ["--no-progress"]),
        default=False,
        help=argparse.SUPPRESS,
    )
    parser.add_argument(
        "--progress",
        dest="quiet",
        action=moved_flag("store_false", None, ["--progress"]),
        default=False,
        help=argparse.SUPPRESS,
    )


def progress_printer(args: argparse.Namespace) -> Callable[[str], None] | None:
    """Where a run's progress lines go: printed and flushed, or nowhere with `--quiet`."""
    if args.quiet:
        return None
    return lambda line: print(line, flush=True)


def add_resume_option(parser: argparse.ArgumentParser) -> None:
    """`--resume`, accepted by every run: a run resumes by itself when --output-dir holds the
    same run (`evaluation/core/rundir.py:RunDir.prepare`); the flag only says so out loud."""
    parser.add_argument(
        "--resume",
        action="store_true",
        help="finish the run --output-dir holds (repeating the same command does it too); a "
        "directory holding another run is refused",
    )


def add_repeats_option(parser: argparse.ArgumentParser, *, note: str = "") -> None:
    """`--repeats K`, shared by every benchmark that takes it."""
    parser.add_argument(
        "--repeats",
        type=bounded_int(1, MAX_REPEATS),
        default=1,
        metavar="K",
        help="play each game K times (default 1): an LLM lane samples at its registry "
        "temperature with a per-repeat request seed; tables show the mean over repeats with an "
        "interval that includes the spread between them (docs/llm.md)" + note,
    )

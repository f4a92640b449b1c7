"""`arcade-eval`: the official evaluation script of arcade-gym."""

from __future__ import annotations

import argparse
import errno
import sys
from collections.abc import Sequence
from typing import Any

import arcade_gym
import evaluation.benchmarks  # noqa: F401  (registers every benchmark)
from evaluation.core.cli_moved import moved_note, moved_notes
from evaluation.core.registry import add_all_parsers
from evaluation.core.rundir import RunDirError
from evaluation.play.command import add_parser as add_play_parser
from evaluation.serve.cli import add_parser as add_serve_parser
from evaluation.site.cli import add_parser as add_site_parser
from evaluation.suite.cli import add_parser as add_suite_parser
from evaluation.throughput.command import add_arguments as add_bench_arguments
from evaluation.throughput.registry import bench_names


def _cmd_bench(args: argparse.Namespace) -> int:
    from evaluation.throughput.command import run

    return run(args)


def _cmd_verify(args: argparse.Namespace) -> int:
    from evaluation.core.verify import log_files, results_without_logs, verify_log

    try:
        paths = log_files(args.paths)
    except FileNotFoundError as exc:
        print(
            f"arcade-eval verify: {exc}; give log files or directories of *.jsonl "
            "(or *.jsonl.xz) logs",
            file=sys.stderr,
        )
        return 2
    if not paths:
        print(
            "arcade-eval verify: no *.jsonl or *.jsonl.xz logs under " + ", ".join(args.paths),
            file=sys.stderr,
        )
        return 2
    failed = partial = 0
    for path in paths:
        report = verify_log(path)
        failed += report.status == "fail"
        partial += report.status == "incomplete"
        print(report.line(), flush=True)
    orphans = results_without_logs(args.paths)
    for orphan in orphans:
        print(f"FAIL  {orphan}: a result file without its log (nothing proves it)", flush=True)
    if orphans:
        print(f"{len(orphans)} result files have no log")
    if partial:
        print(f"{partial} of {len(paths)} logs are of games cut short (never counted)")
    if failed:
        print(f"{failed} of {len(paths)} logs failed verification")
    return 1 if failed or partial or orphans else 0


def _cmd_models(args: argparse.Namespace) -> int:
    """Print the model registry, one model per line."""
    from policies.llm import RegistryError, list_models

    try:
        specs = list_models(args.models_file)
    except (RegistryError, OSError) as error:
        print(f"arcade-eval models: {error}", file=sys.stderr)
        return 2
    for spec in specs:
        key = spec.api_key_env or "no key"
        price = (
            "unpriced"
            if spec.pricing is None
            else f"${spec.pricing.input}/{spec.pricing.output} per M"
        )
        schema = "json-schema" if spec.json_schema else "free text"
        name = f"llm:{spec.slug}"
        print(f"{name:<26} {spec.provider:<12} {spec.model:<36} {schema:<11} {key:<20} {price}")
    return 0


def command_aliases(subparsers: Any) -> dict[str, str]:
    """Older command name -> the command's name, read off the sub-parsers (argparse keeps a
    command's name before its `aliases=`, all mapped to one parser)."""
    names: dict[int, str] = {}
    aliases: dict[str, str] = {}
    for name, command in subparsers.choices.items():
        first = names.setdefault(id(command), name)
        if first != name:
            aliases[name] = first
    return aliases


def build_parser() -> argparse.ArgumentParser:
    """The `arcade-eval` argument parser: one command per benchmark (its id, the `benchmark` of
    its logs; its own tools nested under it), then the suite-wide tools. Older names still parse:
    a renamed command is an alias shown beside its name, a command that moved under its
    benchmark is hidden and says its new form when run."""
    parser = argparse.ArgumentParser(
        prog="arcade-eval",
        description="Evaluate policies on the arcade-gym benchmarks and measure the environments.",
    )
    parser.add_argument(
        "--version", action="version", version=f"arcade-gym {arcade_gym.__version__}"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    add_all_parsers(sub)
    add_suite_parser(sub)
    benchable = set(bench_names())
    bench_aliases = {old: new for old, new in command_aliases(sub).items() if new in benchable}
    bench = sub.add_parser(
        "bench",
        help="measure throughput of every registered env, engine and benchmark (steps/s, ...)",
        description="Measure throughput after compilation; compile time is reported separately. "
        "A game's report measures each of its envs alike (random legal actions via gym.make, per "
        "second of wall clock and of CPU time, and its native vector env when it has one), then "
        "adds the game's own figures (questions, oracles, memory). Every figure counts what its "
        "unit line says one step is: resets, autoreset steps and finished agents' steps are "
        "timed but never counted. `bench coldstart` measures first use on an empty numba "
        "cache; `bench --peers` measures the peer libraries beside ours.",
    )
    add_bench_arguments(bench, bench_names(), list(bench_aliases))
    bench.set_defaults(handler=_cmd_bench, bench_aliases=bench_aliases)
    verify = sub.add_parser(
        "verify",
        help="replay event logs of any benchmark and check every decision (exit 1 if any fails)",
        description="Re-simulate each game log from its header and recorded answers through the "
        "benchmark it names; one line per log (OK, PART for a game cut short, FAIL at the first "
        "diverging decision). Exit status: 0 all verify, 1 some fail or are cut short, 2 a path "
        "does not exist.",
    )
    verify.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="a log file, or a directory of *.jsonl (or *.jsonl.xz) logs",
    )
    verify.set_defaults(handler=_cmd_verify)
    models = sub.add_parser(
        "models",
        help="list the LLM models the registry knows (use them as --policy llm:SLUG)",
        description="Models come from a TOML or JSON registry: a new hosted model needs no code.",
    )
    models.add_argument("action", choices=["list"], help="what to do (list)")
    models.add_argument("--models-file", metavar="PATH", help="registry file (default: built-in)")
    models.set_defaults(handler=_cmd_models)
    add_site_parser(sub)
    add_serve_parser(sub)
    add_play_parser(sub)
    parser.set_defaults(renamed_commands=command_aliases(sub))
    return parser


def _note_old_spellings(args: argparse.Namespace) -> None:
    """One line on stderr for each older spelling the command line used (`cli_moved.py`): a
    renamed command, a renamed benchmark given to `bench`, an older flag."""
    lines = []
    new = args.renamed_commands.get(args.command)
    if new is not None:
        lines.append(moved_note(args.command, new))
    bench_aliases = getattr(args, "bench_aliases", {})
    if args.command == "bench" and args.game in bench_aliases:
        lines.append(moved_note(f"bench {args.game}", f"bench {bench_aliases[args.game]}"))
    for line in [*lines, *moved_notes(args)]:
        print(line, file=sys.stderr, flush=True)


def _no_space(error: BaseException) -> OSError | None:
    """The "no space left on device" error behind `error` (itself or what caused it), if any."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, OSError) and current.errno in (errno.ENOSPC, errno.EDQUOT):
            return current
        current = current.__cause__ or current.__context__
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `arcade-eval` console script. A run directory refused late (a link
    found while playing) or a full disk stop any command with one line and exit 2: what was
    written stays valid, and the same command resumes."""
    parser = build_parser()
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)  # a stopped run prints its resume
    if args.command is None:
        parser.print_help()
        return 2
    if getattr(args, "seconds", 1.0) <= 0:
        parser.error("--seconds must be > 0")
    _note_old_spellings(args)
    try:
        return int(args.handler(args))
    except RunDirError as error:
        print(f"arcade-eval {args.command}: {error}", file=sys.stderr)
        return 2
    except RecursionError:
        # A reader that parsed an input without `evaluation/core/untrusted_json.py`'s bounds.
        print(
            f"arcade-eval {args.command}: an input file is nested too deeply to read (deeply "
            "nested JSON); remove or replace the planted file",
            file=sys.stderr,
        )
        return 2
    except Exception as error:
        full = _no_space(error)
        if full is None:
            raise
        where = full.filename or "the output directory"
        print(
            f"arcade-eval {args.command}: no space left on device writing {where}; free space "
            "and run the same command to resume",
            file=sys.stderr,
        )
        return 2


if __name__ == "__main__":
    sys.exit(main())

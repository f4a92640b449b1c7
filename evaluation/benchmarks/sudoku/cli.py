"""`arcade-eval sudoku`: the benchmark run (`--policy SPEC ...`) and the tools
`arcade-eval sudoku solve|grade|generate`.

PUZZLE is 81 characters (digits, `0` or `.` for blanks) or a file with one such puzzle a line
(blank lines and lines starting with `#` skipped). A malformed puzzle stops the command with one
line naming the problem, and exit code 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from evaluation.benchmarks.sudoku.defaults import BENCHMARK_ID, DEFAULT_TIMEOUT_MS
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
from evaluation.core.rundir import write_text_atomic

EXIT_BAD_INPUT = 2


class BadPuzzleError(Exception):
    """A PUZZLE argument that is not a puzzle (the message is the one line shown)."""


def _is_file(path: Path) -> bool:
    """Whether PUZZLE names a file; a text no file could be called (too long, a NUL) is not."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def _puzzles(source: str) -> list[tuple[str, Any]]:
    """(label, int8 grid) for PUZZLE: one puzzle or a file of them."""
    from arcade_gym.sudoku.rules import PuzzleError, parse_puzzle

    text = source.strip()
    path = Path(source)
    if len(text) != 81 and _is_file(path):
        try:
            lines = path.read_text(errors="replace").splitlines()
        except OSError as exc:
            raise BadPuzzleError(f"cannot read {path}: {exc.strerror or exc}") from None
        items = []
        for number, line in enumerate(lines, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            try:
                items.append((f"{path}:{number}", parse_puzzle(line)))
            except PuzzleError as exc:
                raise BadPuzzleError(f"{path}, line {number}: {exc}") from None
        if not items:
            raise BadPuzzleError(f"{path} holds no puzzle")
        return items
    try:
        return [("PUZZLE", parse_puzzle(text))]
    except PuzzleError as exc:
        hint = "" if len(text) == 81 else " (and it is not a file)"
        raise BadPuzzleError(
            f"PUZZLE {text[:20]!r}{'...' if len(text) > 20 else ''}: {exc}{hint}"
        ) from None


def _fail(message: str) -> int:
    print(f"arcade-eval sudoku: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def cmd_solve(args: argparse.Namespace) -> int:
    """Print every solution (up to --limit) of each puzzle as 81 digits on one line."""
    from arcade_gym.sudoku.generator import solve_all
    from arcade_gym.sudoku.rules import grid_text

    try:
        puzzles = _puzzles(args.puzzle)
    except BadPuzzleError as exc:
        return _fail(str(exc))
    unsolvable = 0
    for label, puzzle in puzzles:
        solutions, _ = solve_all(puzzle, args.limit)
        if not solutions:
            unsolvable += 1
            print(f"{label}: no solution", file=sys.stderr)
        for solution in solutions:
            print(grid_text(solution))
    return 1 if unsolvable else 0


def grade_report(puzzle: Any) -> dict[str, Any]:
    """`{"solutions": n, "tier": k, "techniques": {...}, "guesses": g}` for one puzzle (tier
    None and no techniques unless the solution is unique)."""
    from arcade_gym.sudoku.generator import solve_count
    from arcade_gym.sudoku.grader import grade

    count, guesses, _ = solve_count(puzzle)
    if count != 1:
        return {"solutions": count, "tier": None, "techniques": {}, "guesses": guesses}
    result = grade(puzzle)
    return {
        "solutions": 1,
        "tier": result.tier,
        "techniques": result.technique_counts(),
        "guesses": guesses,
    }


def cmd_grade(args: argparse.Namespace) -> int:
    """Grade each puzzle: solutions (up to 2), tier, techniques used, solver guesses."""
    from arcade_gym.sudoku.rules import TIER_NAMES

    try:
        puzzles = _puzzles(args.puzzle)
    except BadPuzzleError as exc:
        return _fail(str(exc))
    for label, puzzle in puzzles:
        report = grade_report(puzzle)
        if args.json:
            print(json.dumps(report))
            continue
        prefix = f"{label}: " if len(puzzles) > 1 else ""
        if report["tier"] is None:
            many = "no solution" if report["solutions"] == 0 else "more than one solution"
            print(f"{prefix}{many}: not graded")
            continue
        used = ", ".join(f"{name} x{n}" for name, n in report["techniques"].items()) or "none"
        print(
            f"{prefix}tier {report['tier']} ({TIER_NAMES[report['tier']]}); "
            f"solver guesses {report['guesses']}; techniques: {used}"
        )
    return 0


def cmd_generate(args: argparse.Namespace) -> int:
    """Write a published grid set (byte for byte the shipped file for the same set)."""
    from arcade_gym.sudoku.generator import build_set, set_json
    from arcade_gym.sudoku.rules import SETS

    if args.set not in SETS:
        return _fail(f"unknown set {args.set!r}; known sets: {', '.join(SETS)}")
    output = Path(args.output)
    if output.is_dir():
        return _fail(f"--output {output} is a directory; give a file name such as v1.json")

    def progress(message: str) -> None:
        if not args.quiet:
            print(message, file=sys.stderr, flush=True)

    document = build_set(args.set, progress=progress)
    write_text_atomic(output, set_json(document))
    print(f"wrote {output} ({len(document['grids'])} grids, set {args.set})")
    return 0


def _tiers(text: str) -> list[int]:
    try:
        tiers = [int(t) for t in text.split(",") if t.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"tiers are numbers 1..7 such as 1,2,7, got {text!r}"
        ) from None
    return tiers


def cmd_run(args: argparse.Namespace) -> int:
    """Run (or resume) the benchmark and print its table. Exit status 0 after a complete run, 2
    for a user error, 1 when grids were aborted or the run stopped on our side (a dead endpoint,
    the cost cap), 130 when interrupted (`evaluation/core/run_exit.py`)."""
    from evaluation.benchmarks.sudoku.report import run_document, run_text
    from evaluation.benchmarks.sudoku.runner import run_sudoku
    from evaluation.core.errors import RunError
    from evaluation.core.executor import ExecutorError, make_executor
    from evaluation.core.grid import spec_pool
    from evaluation.core.run_exit import default_output_dir, outcome_exit, write_reports
    from policies.specs import SpecError

    if not args.policy:
        print(
            "arcade-eval sudoku: give --policy SPEC (e.g. solver, singles, techniques:3, "
            "llm:SLUG) or a tool: solve, grade, generate",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    output_dir = Path(args.output_dir) if args.output_dir else default_output_dir(BENCHMARK_ID)
    progress = progress_printer(args)
    timeout_ms = DEFAULT_TIMEOUT_MS
    if args.timeout_s is not None:
        timeout_ms = args.timeout_s * 1000.0
    elif args.timeout_ms is not None:
        timeout_ms = args.timeout_ms
    try:
        options = spec_options(args, timeout_ms=timeout_ms)
        executor = make_executor(args.executor, concurrency=args.concurrency, address=args.address)
        outcome = run_sudoku(
            policies_from(args),
            spec_pool("sudoku", options, abort_limit=abort_limit(args)),
            output_dir,
            set_version=args.set,
            tiers=args.tiers,
            timeout_ms=timeout_ms,
            resume=True if args.resume else None,
            executor=executor,
            progress=progress,
            repeats=args.repeats,
        )
    except (RunError, SpecError, ExecutorError) as error:
        return _fail(str(error))
    status = outcome_exit(output_dir, outcome, args, unit="grids")
    if status is not None:
        return status
    document = json.dumps(run_document(args.set, outcome.reports), indent=2) + "\n"
    text = run_text(args.set, outcome.reports)
    files = {"report.json": document, "report.md": text}
    write_reports(output_dir, files, text, copy=("report.json", args.json))
    return 0


def add_parsers(subparsers: Any) -> argparse.ArgumentParser:
    """Add `sudoku` (the benchmark run) with its `solve`, `grade` and `generate` tools; returns
    the `sudoku` parser."""
    sudoku = subparsers.add_parser(
        "sudoku",
        help="Sudoku benchmark (--policy SPEC) and tools: solve, grade, generate",
        description="Run policies through the Sudoku grid set (6 grids in each of 7 tiers; one "
        "answer a grid with a confidence; one retry only for a reply with no readable grid; a "
        "timeout or a failure on our side aborts the grid, which a resume plays again), or "
        "use a tool: the exact solver, the human-technique grader (tiers 1..7), the set "
        "generator. Every grid is a game with its own event log (arcade-eval verify replays "
        "them); repeating the command with the same --output-dir resumes a run cut short.",
    )
    add_policy_option(sudoku, builtins="solver, singles, techniques:K (K = 1..6)")
    sudoku.add_argument("--set", default="v1", help="the grid set (default v1)")
    sudoku.add_argument(
        "--tiers", type=_tiers, default=[1, 2, 3, 4, 5, 6, 7], help="tiers to play (default all)"
    )
    timeout = sudoku.add_mutually_exclusive_group()
    timeout.add_argument(
        "--timeout-s",
        type=float,
        metavar="S",
        help="a safety net, not a clock: an answer not back within this many seconds aborts the "
        "grid (not counted, played again on resume), since the model may think as long as its "
        f"settings allow; the default, {DEFAULT_TIMEOUT_MS / 1000:g} s (15 minutes), only stops "
        "a request that hangs",
    )
    timeout.add_argument(
        "--timeout-ms", type=float, metavar="MS", help="the same in milliseconds (older spelling)"
    )
    sudoku.add_argument(
        "--output-dir",
        metavar="D",
        help="where the run is written (default: runs/sudoku-<UTC time>); must be new or empty, "
        "or hold this same run to resume it",
    )
    add_resume_option(sudoku)
    add_repeats_option(sudoku)
    sudoku.add_argument("--json", metavar="PATH", help="also write report.json's content to PATH")
    add_quiet_option(sudoku, "line per grid")
    add_model_options(sudoku)
    add_executor_options(sudoku)
    sudoku.set_defaults(handler=cmd_run)
    sub = sudoku.add_subparsers(dest="sudoku_command", metavar="TOOL")
    puzzle_help = "81 characters (digits, 0 or . for blanks) or a file of one puzzle a line"
    solve = sub.add_parser(
        "solve", help="print each solution as 81 digits", description=cmd_solve.__doc__
    )
    solve.add_argument("puzzle", metavar="PUZZLE", help=puzzle_help)
    solve.add_argument(
        "--limit", type=int, default=2, help="stop after this many solutions (default 2)"
    )
    solve.set_defaults(handler=cmd_solve)
    grade = sub.add_parser(
        "grade", help="tier, techniques and guesses of a puzzle", description=cmd_grade.__doc__
    )
    grade.add_argument("puzzle", metavar="PUZZLE", help=puzzle_help)
    grade.add_argument("--json", action="store_true", help="one JSON object a puzzle")
    grade.set_defaults(handler=cmd_grade)
    generate = sub.add_parser(
        "generate", help="write a published grid set", description=cmd_generate.__doc__
    )
    generate.add_argument("--set", default="v1", help="the set to generate (default v1)")
    generate.add_argument("--output", required=True, help="the JSON file to write")
    add_quiet_option(generate, "progress lines")
    generate.set_defaults(handler=cmd_generate)
    return sudoku

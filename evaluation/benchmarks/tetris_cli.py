"""`arcade-eval tetris` and `arcade-eval probe`: the Tetris Bench official script."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from evaluation.benchmarks.tetris import RunConfig
    from evaluation.records import GameResult

# The benchmark modules compile kernels and load scipy: they are imported when a command runs,
# so `arcade-eval --help` stays instant.
LOCAL_BRAINS = ("random", "heuristic", "search")
IQ_BUDGET_MS = 20_000.0


def make_tetris_brain(
    slug: str, *, models_file: str | None = None, base_url: str | None = None
) -> Any:
    """A brain from its slug (`random`, `heuristic`, `search`, `llm:<model slug>`).

    An LLM brain makes one real pre-flight call here, so a bad key, model or server stops the
    run before any game starts. Unknown slugs stop with the list of known ones.
    """
    from evaluation.benchmarks.tetris import RunError

    if slug.startswith("llm:"):
        from policies.llm import PreflightError, RegistryError, make_llm_brain, preflight

        try:
            brain = make_llm_brain(
                slug.removeprefix("llm:"), models_file=models_file, base_url=base_url
            )
            preflight(brain.spec, brain.client)
        except (RegistryError, PreflightError, OSError) as error:
            raise RunError(f"{slug}: {error}") from None
        return brain
    from policies.tetris import make_brain, warmup

    if slug not in LOCAL_BRAINS:
        raise RunError(
            f"unknown brain {slug!r}: choose from {', '.join(LOCAL_BRAINS)} or llm:<model slug> "
            "(see arcade-eval models list)"
        )
    warmup()  # compile (or load) the kernels now, not inside the first timed decision
    return make_brain(slug)


def _parse_brains(text: str) -> list[str]:
    from evaluation.benchmarks.tetris import RunError

    brains = [b.strip() for b in text.split(",") if b.strip()]
    if not brains or len(set(brains)) != len(brains):
        raise RunError("--brains needs distinct brain slugs, e.g. random,heuristic,search")
    for slug in brains:
        if slug not in LOCAL_BRAINS and not (slug.startswith("llm:") and len(slug) > 4):
            raise RunError(
                f"unknown brain {slug!r}: choose from {', '.join(LOCAL_BRAINS)} or "
                "llm:<model slug> (see arcade-eval models list)"
            )
    return brains


def _add_model_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--models-file",
        metavar="PATH",
        help="model registry (TOML or JSON) for llm:<slug> brains (default: the built-in one)",
    )
    parser.add_argument(
        "--base-url",
        metavar="URL",
        help="OpenAI-compatible endpoint for llm:<slug> brains, e.g. http://127.0.0.1:11434/v1",
    )


def add_parsers(sub: Any) -> None:
    """Register `tetris` and `probe` on the `arcade-eval` subparsers."""
    tetris = sub.add_parser(
        "tetris",
        help="play brains through Tetris Bench and print the leaderboard",
        description=(
            "Play each brain on the Tetris Bench seeds (ruleset tetris-bench@3). By default a "
            "quick run: 3 seeds, IQ and Blitz. --official plays all 30 public seeds in IQ. Logs, "
            "results, a manifest and the leaderboard (JSON and Markdown) go to --output-dir; "
            "re-running the same command into the same directory resumes it."
        ),
    )
    tetris.add_argument(
        "--brains",
        default="random,heuristic,search",
        help="comma-separated brain slugs (default: random,heuristic,search)",
    )
    tetris.add_argument(
        "--official", action="store_true", help="all 30 public seeds, IQ (add Blitz with --modes)"
    )
    tetris.add_argument(
        "--seeds", help="a count N (the first N public seeds) or a list like seed-01,seed-07"
    )
    tetris.add_argument(
        "--modes", help="iq, blitz or iq,blitz (default: both for a quick run, iq when official)"
    )
    tetris.add_argument(
        "--output-dir",
        help="where the run is written (default: runs/tetris-<UTC time>); must be new or empty, "
        "or hold this same run to resume it",
    )
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
    tetris.add_argument(
        "--concurrency",
        type=int,
        default=1,
        help="games played at once (for LLM brains; results equal a serial run; default 1)",
    )
    _add_model_options(tetris)
    tetris.add_argument("--no-progress", action="store_true", help="no progress bar")
    tetris.set_defaults(handler=cmd_tetris)

    probe = sub.add_parser(
        "probe",
        help="ten fixed positions: does the brain avoid adding holes?",
        description="Ask a brain the ten probe positions in both candidate orders. It passes when "
        "it never picks a candidate that adds a hole.",
    )
    probe.add_argument("--brain", required=True, help="brain slug, e.g. heuristic")
    probe.add_argument("--json", metavar="PATH", help="also write the report as JSON")
    _add_model_options(probe)
    probe.set_defaults(handler=cmd_probe)

    models = sub.add_parser(
        "models",
        help="list the LLM models the registry knows (use them as --brains llm:<slug>)",
        description="Models come from a TOML or JSON registry: a new hosted model needs no code.",
    )
    models.add_argument("action", choices=["list"], help="what to do (list)")
    models.add_argument("--models-file", metavar="PATH", help="registry file (default: built-in)")
    models.set_defaults(handler=cmd_models)


def _config(args: argparse.Namespace) -> RunConfig:
    from evaluation.benchmarks.tetris import RunConfig, RunError, parse_modes, parse_seeds

    brains = _parse_brains(args.brains)
    seed_set, seeds = parse_seeds(args.seeds, args.official)
    default_modes = "iq" if args.official else "iq,blitz"
    modes = parse_modes(args.modes or default_modes)
    if "IQ" not in modes:
        raise RunError("every run plays IQ (the ranking comes from it); use --modes iq,blitz")
    if args.merge and not args.official:
        raise RunError("--merge takes official results only; add --official")
    if not args.budget_ms > 0:
        raise RunError("--budget-ms must be > 0")
    if args.concurrency < 1:
        raise RunError("--concurrency must be >= 1")
    return RunConfig(
        brains=tuple(brains),
        seeds=tuple(seeds),
        seed_set=seed_set,
        modes=tuple(modes),
        official=bool(args.official),
        budget_ms=float(args.budget_ms),
    )


def cmd_tetris(args: argparse.Namespace) -> int:
    """Run (or resume) a Tetris Bench run and print its leaderboard."""
    from tqdm import tqdm

    from evaluation.benchmarks.tetris import RunError, run_tetris_bench
    from evaluation.leaderboard import merge_index, to_json, to_markdown, to_text

    try:
        config = _config(args)
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        output_dir = Path(args.output_dir or f"runs/tetris-{stamp}")
        bar = tqdm(
            total=len(config.games()), unit="game", disable=args.no_progress, file=sys.stderr
        )

        def progress(brain: str, mode: str, seed: str, result: GameResult | None) -> None:
            if result is None:
                bar.set_description(f"{brain} {mode} {seed}")
            else:
                bar.set_postfix_str(f"score {result.score} ({result.end_reason})")
                bar.update(1)

        def factory(slug: str) -> Any:
            return make_tetris_brain(slug, models_file=args.models_file, base_url=args.base_url)

        try:
            outcome = run_tetris_bench(
                config, output_dir, factory, progress=progress, concurrency=args.concurrency
            )
        finally:
            bar.close()
    except RunError as error:
        print(f"arcade-eval tetris: {error}", file=sys.stderr)
        return 2
    if outcome.interrupted:
        print(
            f"interrupted: {len(outcome.results)} games kept, {len(outcome.missing)} missing; "
            f"repeat the command with --output-dir {output_dir} to resume",
            file=sys.stderr,
        )
        return 130
    assert outcome.leaderboard is not None
    board = outcome.leaderboard
    (output_dir / "leaderboard.json").write_text(json.dumps(to_json(board), indent=1) + "\n")
    (output_dir / "leaderboard.md").write_text(to_markdown(board) + "\n")
    print(to_text(board))
    print(f"\nrun written to {output_dir} (verify with: arcade-eval verify {output_dir}/logs)")
    if args.merge:
        try:
            merge_index(args.merge, outcome.results, official=config.official)
        except ValueError as error:
            print(f"arcade-eval tetris: not merged: {error}", file=sys.stderr)
            return 2
        print(f"merged into {args.merge}")
    return 0


def cmd_probe(args: argparse.Namespace) -> int:
    """Run the probe for one brain; exit 1 when it fails."""
    from evaluation.benchmarks.tetris import RunError
    from evaluation.probe import format_report, run_probe

    try:
        brain = make_tetris_brain(args.brain, models_file=args.models_file, base_url=args.base_url)
    except RunError as error:
        print(f"arcade-eval probe: {error}", file=sys.stderr)
        return 2
    report = run_probe(brain)
    print(format_report(report))
    if args.json:
        Path(args.json).write_text(json.dumps(report.to_dict(), indent=1) + "\n")
    return 0 if report.passed else 1


def cmd_models(args: argparse.Namespace) -> int:
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

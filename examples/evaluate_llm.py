"""Evaluate a chat model on Tetris Bench: a hosted one, or one served on this machine.

Hosted (OpenRouter; needs OPENROUTER_API_KEY):

    export OPENROUTER_API_KEY=sk-or-...
    python examples/evaluate_llm.py gpt-4o-mini

Local, served by Ollama (`ollama serve`, `ollama pull llama3`) or vLLM
(`vllm serve Qwen/Qwen2.5-7B-Instruct`); a server on 127.0.0.1 needs no key:

    python examples/evaluate_llm.py ollama-llama3
    python examples/evaluate_llm.py my-qwen --models-file my_models.toml \
        --base-url http://127.0.0.1:8000/v1

`--list` shows the registered models. One real pre-flight call checks the key, the model and the
server before any game starts. Logs verify with `arcade-eval verify <output-dir>/logs`.
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from pathlib import Path

from evaluation.benchmarks.tetris_bench.leaderboard import to_text
from evaluation.benchmarks.tetris_bench.records import GameResult
from evaluation.benchmarks.tetris_bench.runner import RunConfig, parse_seeds, run_tetris_bench
from policies.llm import RegistryError, list_models
from policies.specs import SpecError, SpecOptions, make_policy


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("model", nargs="?", help="registry slug, e.g. gpt-4o-mini")
    parser.add_argument("--list", action="store_true", help="list the registered models")
    parser.add_argument("--models-file", help="a TOML or JSON registry (default: built-in)")
    parser.add_argument("--base-url", help="another OpenAI-compatible server, e.g. vLLM's")
    parser.add_argument("--seeds", default="3", help="the first N public seeds, or a list")
    parser.add_argument("--blitz", action="store_true", help="play Blitz as well as IQ")
    parser.add_argument("--piece-cap", type=int, default=500, help="pieces per game (500)")
    parser.add_argument("--output-dir", help="default: runs/llm-<slug>-<UTC time>")
    args = parser.parse_args(argv)

    try:
        if args.list or not args.model:
            for spec in list_models(args.models_file):
                print(f"{spec.slug:20} {spec.provider:10} {spec.model:32} {spec.base_url}")
            return 0
        options = SpecOptions(models_file=args.models_file, base_url=args.base_url)
        brain = make_policy(f"llm:{args.model}", "tetris", options)  # one pre-flight call
    except (RegistryError, SpecError) as error:
        print(f"evaluate_llm: {error}", file=sys.stderr)
        return 2

    seed_set, seeds = parse_seeds(args.seeds, official=False)
    config = RunConfig(
        brains=(f"llm:{args.model}",),
        seeds=tuple(seeds),
        seed_set=seed_set,
        modes=("IQ", "Blitz") if args.blitz else ("IQ",),
        official=False,
        piece_cap=args.piece_cap,
    )
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    output_dir = Path(args.output_dir or f"runs/llm-{args.model}-{stamp}")

    def progress(slug: str, mode: str, seed: str, result: GameResult | None) -> None:
        if result is not None:
            print(f"{mode:5} {seed}: score {result.score}, {result.end_reason}", flush=True)
        if brain.fatal_error is not None:  # a key or model went bad mid-run: stop now
            raise SystemExit(f"evaluate_llm: stopped: {brain.fatal_error}")

    outcome = run_tetris_bench(config, output_dir, lambda slug: brain, progress=progress)
    if outcome.leaderboard is not None:
        print(to_text(outcome.leaderboard))
    print(f"run written to {output_dir} (verify with: arcade-eval verify {output_dir}/logs)")
    return 130 if outcome.interrupted else 0


if __name__ == "__main__":
    sys.exit(main())

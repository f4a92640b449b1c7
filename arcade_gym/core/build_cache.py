"""Build numba's cache of every game's kernels at once: what `pip install .` runs while it builds
the package, and what a user can run again after installing some other way.

`python -m arcade_gym.core.build_cache [--jobs N] [GAME ...]` runs, for each registered game, its
warmup (`arcade_gym/core/warmup.py`) and the first use of each of its envs (make, reset, one step:
`arcade_gym/core/coldstart.py`), in a fresh process a game, N at a time (default: one per core),
so the kernels compile side by side. numba keeps them in `__pycache__` beside the sources (or in
`NUMBA_CACHE_DIR` when set), stamped by the source file's content, so a cache built beside the
sources of a wheel is valid wherever the wheel is installed, on the same CPU and numba version;
a kernel missing from the cache compiles on first use, as always. `python -m
policies.build_cache` adds the built-in policies' kernels (`policies/build_cache.py`).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence

from arcade_gym.core.coldstart import use
from arcade_gym.core.warmup import warm

Job = tuple[str, ...]
"""What one process runs: `("module:function", *arguments)`, each argument a string."""

_CHILD = (
    "import importlib, sys, arcade_gym\n"
    "module, _, name = sys.argv[1].partition(':')\n"
    "getattr(importlib.import_module(module), name)(*sys.argv[2:])\n"
)


def warm_game(game: str, *targets: str) -> None:
    """A game's registered warmup, then the first use of each of `targets` (its envs)."""
    warm(game)
    for target in targets:
        use(target)


def game_jobs(games: Sequence[str] | None = None) -> dict[str, Job]:
    """One job per registered game (every game when None): its warmup and its envs' first use;
    an unknown name is a KeyError naming the known ones."""
    from arcade_gym.core.warmup import registered_warmups
    from arcade_gym.registration import first_use_targets

    known = sorted(registered_warmups())
    chosen = list(games) if games else known
    unknown = sorted(set(chosen) - set(known))
    if unknown:
        raise KeyError(f"no warmup registered for {unknown}; known: {known}")
    entry = f"{__name__}:warm_game"
    return {game: (entry, game, *first_use_targets(game)) for game in chosen}


def run_in_processes(jobs: Mapping[str, Job], width: int | None = None) -> dict[str, float | str]:
    """Each job in a fresh process, `width` at a time (default: one per core); label -> seconds
    its process took, or the last line of its error output when it failed."""
    waiting = list(jobs.items())[::-1]
    running: dict[str, tuple[subprocess.Popen[str], float]] = {}
    done: dict[str, float | str] = {}
    width = max(1, width or os.cpu_count() or 1)
    while waiting or running:
        while waiting and len(running) < width:
            label, job = waiting.pop()
            child = subprocess.Popen(
                [sys.executable, "-c", _CHILD, *job],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
            )
            running[label] = (child, time.perf_counter())
        for label, (child, started) in list(running.items()):
            if child.poll() is None:
                continue
            error = child.stderr.read().strip() if child.stderr else ""
            done[label] = (
                time.perf_counter() - started
                if child.returncode == 0
                else (error.splitlines() or [f"exit {child.returncode}"])[-1]
            )
            del running[label]
        time.sleep(0.05)
    return {label: done[label] for label in jobs}


def build(waves: Sequence[Mapping[str, Job]], width: int | None = None) -> int:
    """Run each wave's jobs in processes (a wave after the one before: later waves load what
    earlier ones compiled), printing a line per job; 1 when a job failed."""
    failed = False
    for wave in waves:
        for label, outcome in run_in_processes(wave, width).items():
            line = f"{outcome:.1f} s" if isinstance(outcome, float) else f"failed: {outcome}"
            failed |= isinstance(outcome, str)
            print(f"{label:<24} {line}", flush=True)
    return 1 if failed else 0


def parser(prog: str, description: str) -> argparse.ArgumentParser:
    """The options every cache builder takes: the games, and processes at a time."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("games", nargs="*", metavar="GAME", help="only these games")
    parser.add_argument("--jobs", type=int, help="processes at a time (default: one per core)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m arcade_gym.core.build_cache`: build numba's cache of every game's kernels."""
    import arcade_gym  # noqa: F401  (registers every game's warmup)

    options = parser(
        "python -m arcade_gym.core.build_cache",
        "Compile every game's kernels (its warmup and each of its envs) into numba's cache, one "
        "process per game, so each later first use loads them instead of compiling.",
    )
    args = options.parse_args(argv)
    try:
        jobs = game_jobs(args.games)
    except KeyError as error:
        options.error(str(error.args[0]))
    return build([jobs], args.jobs)


if __name__ == "__main__":
    sys.exit(main())

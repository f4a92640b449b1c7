"""Build numba's cache of every game's kernels at once: what a user runs once after installing.

`python -m arcade_gym.core.build_cache [--jobs N] [GAME ...]` runs each registered game's warmup
(`arcade_gym/core/warmup.py`) in a fresh process of its own, N at a time (default: one per
core), so the kernels compile side by side; afterwards every first use of an env, in any process,
loads its kernels from the cache (numba's: `__pycache__` beside the installed sources, or
`NUMBA_CACHE_DIR` when set) instead of compiling them. Nothing else changes: an env whose
kernels are not in the cache compiles them on first use, as always.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections.abc import Sequence

from arcade_gym.core.warmup import registered_warmups

_CHILD = "import sys, arcade_gym; from arcade_gym.core.warmup import warm; print(warm(sys.argv[1]))"


def warm_in_processes(
    games: Sequence[str] | None = None, jobs: int | None = None
) -> dict[str, float | str]:
    """Each game's warmup in a fresh process, `jobs` at a time (default: one per core), so
    numba's cache holds every kernel afterwards; game -> seconds its process took, or the last
    line of its error output when it failed."""
    chosen = list(games) if games is not None else sorted(registered_warmups())
    unknown = sorted(set(chosen) - set(registered_warmups()))
    if unknown:
        raise KeyError(f"no warmup registered for {unknown}; known: {sorted(registered_warmups())}")
    waiting = list(reversed(chosen))
    running: dict[str, tuple[subprocess.Popen[str], float]] = {}
    done: dict[str, float | str] = {}
    width = max(1, jobs or os.cpu_count() or 1)
    while waiting or running:
        while waiting and len(running) < width:
            game = waiting.pop()
            child = subprocess.Popen(
                [sys.executable, "-c", _CHILD, game],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
            )
            running[game] = (child, time.perf_counter())
        for game, (child, started) in list(running.items()):
            if child.poll() is None:
                continue
            error = child.stderr.read().strip() if child.stderr else ""
            done[game] = (
                time.perf_counter() - started
                if child.returncode == 0
                else (error.splitlines() or [f"exit {child.returncode}"])[-1]
            )
            del running[game]
        time.sleep(0.05)
    return {game: done[game] for game in chosen}


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m arcade_gym.core.build_cache`: build numba's cache of every game's kernels."""
    import arcade_gym  # noqa: F401  (registers every game's warmup)

    parser = argparse.ArgumentParser(
        prog="python -m arcade_gym.core.build_cache",
        description="Compile every game's kernels into numba's cache, one process per game, so "
        "each later first use of an env loads them instead of compiling.",
    )
    parser.add_argument("games", nargs="*", metavar="GAME", help="only these games")
    parser.add_argument("--jobs", type=int, help="processes at a time (default: one per core)")
    args = parser.parse_args(argv)
    try:
        results = warm_in_processes(args.games or None, args.jobs)
    except KeyError as error:
        parser.error(str(error.args[0]))
    for game, outcome in results.items():
        line = f"{outcome:.1f} s" if isinstance(outcome, float) else f"failed: {outcome}"
        print(f"{game:<12} {line}", flush=True)
    return 1 if any(isinstance(o, str) for o in results.values()) else 0


if __name__ == "__main__":
    sys.exit(main())

"""Build numba's cache of every kernel a user meets first: each game's (its warmup and its envs'
first use, `arcade_gym/core/build_cache.py`), then each game's built-in policies' (the search
brains, solvers and the Brainfuck engine: `GamePolicies.warmup`).

`python -m policies.build_cache [--jobs N] [GAME ...]` is what `pip install .` runs while it
builds the package (the build backend in `arcade_gym/_build/`), so a fresh install loads every
kernel instead of compiling it on first use (the README's "Speed" gives the figures).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from arcade_gym.core.build_cache import Job, build, game_jobs, parser
from arcade_gym.games import descriptor, policy_games
from policies.game_policies import policies_for


def policy_jobs(games: Sequence[str] | None = None) -> dict[str, Job]:
    """One job per policy game whose built-ins run kernels, of the games named (every game when
    None or empty; `tetris` names its primitive-control policies too)."""
    jobs: dict[str, Job] = {}
    for game in policy_games():
        entry = policies_for(game)
        if entry.warmup is not None and (not games or descriptor(game).name in games):
            jobs[f"{game} policies"] = (entry.warmup,)
    return jobs


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m policies.build_cache`: every game's kernels, then its built-ins' kernels."""
    import arcade_gym  # noqa: F401  (registers every game's warmup)

    options = parser(
        "python -m policies.build_cache",
        "Compile every game's kernels and its built-in policies' kernels into numba's cache, a "
        "process per game, so each later first use loads them instead of compiling.",
    )
    args = options.parse_args(argv)
    try:
        games = game_jobs(args.games)
    except KeyError as error:
        options.error(str(error.args[0]))
    return build([games, policy_jobs(args.games)], args.jobs)


if __name__ == "__main__":
    sys.exit(main())

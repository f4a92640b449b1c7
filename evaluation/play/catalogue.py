"""What `arcade-eval play` offers, read off the registries: every benchmark's play setups
(`Benchmark.play`, from `evaluation/benchmarks/<name>/play.py`), then, for each game no benchmark
plays (`arcade_gym.games.descriptors()`), a setup on its first env (`env_setup.py`).

Games are listed in descriptor order (a benchmark's setups in registration order within a game);
the flags are the setups' own, each declared once with every game's meaning joined.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from evaluation.play.setups import PlaySetup


@dataclass(frozen=True)
class Flag:
    """One `arcade-eval play` flag: the option name, its type, and its help over the games."""

    name: str
    type: type
    help: str

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")


def play_setups() -> dict[str, PlaySetup]:
    """Name -> setup of every game `arcade-eval play` takes (ValueError: a name twice, a bug)."""
    import evaluation.benchmarks  # noqa: F401  (registers every benchmark)
    from arcade_gym.games import descriptors
    from evaluation.core.registry import benchmarks
    from evaluation.play.env_setup import env_setup

    found: dict[str, PlaySetup] = {}
    for benchmark in benchmarks():
        for setup in benchmark.play() if benchmark.play is not None else ():
            if setup.name in found:
                raise ValueError(f"two benchmarks declare `arcade-eval play {setup.name}`")
            found[setup.name] = setup
    games = descriptors()
    played = {setup.game for setup in found.values()}
    for game in games:
        if game.name not in played and game.envs and game.name not in found:
            found[game.name] = env_setup(game)
    order = {game.name: index for index, game in enumerate(games)}
    ranked = sorted(found.values(), key=lambda setup: order.get(setup.game, len(order)))
    return {setup.name: setup for setup in ranked}


def flags(setups: Iterable[PlaySetup]) -> list[Flag]:
    """Each option once, in first-declared order; its help joins the games' texts, games that
    mean the same grouped (ValueError: two types for one option, a bug)."""
    helps: dict[str, dict[str, list[str]]] = {}
    types: dict[str, type] = {}
    for setup in setups:
        for option in setup.options:
            known = types.setdefault(option.name, option.type)
            if known is not option.type:
                raise ValueError(
                    f"{option.flag} is declared as {known.__name__} and as "
                    f"{option.type.__name__} ({setup.name})"
                )
            helps.setdefault(option.name, {}).setdefault(option.help, []).append(setup.name)
    return [
        Flag(
            name,
            types[name],
            "; ".join(f"{', '.join(games)}: {text}" for text, games in texts.items()),
        )
        for name, texts in helps.items()
    ]

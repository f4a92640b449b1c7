"""What a benchmark declares so a person can play its game: a `PlaySetup` (the game's name under
`arcade-eval play`, the flags it takes, the function that readies one game) and the `Setup` that
function returns (keys, seed, settings and the benchmark's own play function).

Benchmarks list their setups in `evaluation/benchmarks/<name>/play.py` (the `Benchmark.play`
field); `evaluation/play/catalogue.py` gathers them. Nothing here names a game.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaluation.play.human import Human, Keys

HUMAN_LIMIT_MS = 86_400_000.0
"""A day per decision: the call limit every benchmark is given for a person."""


class PlayError(ValueError):
    """A bad `arcade-eval play` request: one message naming the fix."""


@dataclass
class Setup:
    """One game ready to play: `play(human, log_path)` records it as `benchmark` does (its log is
    checked by `evaluation.core.verify.verify_log`, as `arcade-eval verify` checks it)."""

    benchmark: str
    keys: Keys
    seed: str | int
    settings: dict[str, Any]
    play: Callable[[Human, Path], Any]
    close: Callable[[], None] = field(default=lambda: None)


@dataclass(frozen=True)
class PlayOption:
    """A flag a game takes: `--seed` for `name="seed"`; `help` says what it means for that game
    (the command joins the games' texts); `type` converts the text (`str` or `int`)."""

    name: str
    help: str
    type: type = str

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")


@dataclass(frozen=True)
class PlaySetup:
    """A game under `arcade-eval play NAME`: `game` is the game folder it plays
    (`arcade_gym.games.descriptors()`), `setup(args)` readies one game from the parsed flags
    (raising PlayError for a bad one). Declaring it must import no kernel: `setup` imports
    what the game needs when it is called."""

    name: str
    game: str
    summary: str
    options: tuple[PlayOption, ...]
    setup: Callable[[argparse.Namespace], Setup]

    @property
    def option_names(self) -> frozenset[str]:
        return frozenset(option.name for option in self.options)


def whole(text: object, option: str) -> int:
    """`text` as a whole number, or PlayError naming `option`."""
    try:
        return int(str(text))
    except ValueError:
        raise PlayError(f"{option} takes a whole number, got {text!r}") from None

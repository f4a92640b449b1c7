"""The games of the suite: one name a game in `GAME_PACKAGES`, everything else read off descriptors.

Each name is a package that exports `GAME` (`arcade_gym/core/descriptor.py`). `register_game`
adds a package from outside this tuple (a third-party or test game) before or after import; the
env registration, warmups, policy grammar, LLM lanes and SB3 adapters all read `descriptors()`.
"""

from __future__ import annotations

import importlib

from arcade_gym.core.descriptor import EnvEntry, GameDescriptor
from arcade_gym.core.warmup import unregister_warmup

GAME_PACKAGES: tuple[str, ...] = (
    "arcade_gym.tetris",
    "arcade_gym.snake",
    "arcade_gym.minesweeper",
    "arcade_gym.tictactoe",
    "arcade_gym.sudoku",
    "arcade_gym.chess",
)
"""The packages of the built-in games, in the order commands list them."""

_EXTRA: list[str] = []
_LOADED: dict[str, GameDescriptor] = {}


def register_game(package: str) -> GameDescriptor:
    """Add the game `package` exports as `GAME` (idempotent); returns its descriptor."""
    if package not in GAME_PACKAGES and package not in _EXTRA:
        _EXTRA.append(package)
    return _load(package)


def unregister_game(package: str) -> None:
    """Forget a game `register_game` added, and its warmup (its env ids stay with Gymnasium
    until removed)."""
    if package in _EXTRA:
        _EXTRA.remove(package)
    game = _LOADED.pop(package, None)
    if game is not None:
        unregister_warmup(game.name)


def _load(package: str) -> GameDescriptor:
    known = _LOADED.get(package)
    if known is not None:
        return known
    descriptor = getattr(importlib.import_module(package), "GAME", None)
    if not isinstance(descriptor, GameDescriptor):
        raise TypeError(f"{package} exports no GAME descriptor (arcade_gym.core.descriptor)")
    for other in _LOADED.values():
        clash = set(_names(other)) & set(_names(descriptor))
        if clash:
            raise ValueError(f"{package} and {other.name} both name {sorted(clash)}")
    _LOADED[package] = descriptor
    return descriptor


def _names(game: GameDescriptor) -> tuple[str, ...]:
    """Every name that finds `game`: its folder's, its policy-grammar games and their aliases."""
    return (game.name, *game.games, *(alias for e in game.envs for alias in e.game_aliases))


def descriptors() -> list[GameDescriptor]:
    """Every game's descriptor: the built-ins, then the registered ones, in order."""
    return [_load(package) for package in (*GAME_PACKAGES, *_EXTRA)]


def descriptor(name: str) -> GameDescriptor:
    """The game folder called `name`, or the one whose envs ask `name`'s questions (under their
    name or an older one, `EnvEntry.game_aliases`)."""
    for game in descriptors():
        if name in _names(game):
            return game
    known = ", ".join(g.name for g in descriptors())
    raise KeyError(f"no game {name!r}; games: {known}")


def env_entries() -> list[tuple[GameDescriptor, EnvEntry]]:
    """Every registered env with the game it belongs to."""
    return [(game, entry) for game in descriptors() for entry in game.envs]


def policy_game(name: str) -> str:
    """The policy-grammar game `name` means: itself, or the game it is an older name of
    (`tetris-controls` -> `tetris-primitive`); KeyError for no game."""
    for entry in descriptor(name).envs:
        if name == entry.game or name in entry.game_aliases:
            return entry.game
    return name


def policy_games() -> list[str]:
    """Every policy-grammar game (what a policy can be built for), in order."""
    return list(dict.fromkeys(name for game in descriptors() for name in game.games))

"""What a `policies/<game>/` folder offers the policy grammar: one `GamePolicies` per game it plays.

Each folder exports `POLICIES` (a tuple: a folder can play several games, e.g. Tetris placements
and Tetris controls). The grammar (`policies/specs.py`), the LLM lanes (`policies/llm/lanes.py`)
and the SB3 adapters (`policies/sb3/`) read them through `policies_for(game)`, which finds the
folder from the game's descriptor (`arcade_gym/games.py`), so no shared module keeps a table of
games. Prompt and SB3 entries are `module:attribute` strings, imported only when used.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from arcade_gym.games import descriptor, policy_game, policy_games

EngineFactory = Callable[[str, Any], Any]
"""`make(body, options)`: the policy of an engine spec (`bf:PATH`, `cmd:COMMAND`, `uci:...`)."""


@dataclass(frozen=True)
class GamePolicies:
    """The policies of one game.

    `builtins`: name -> factory (`NAME` and `NAME:ARG` in the grammar). `prompt`: the LLM lane's
    prompt factory, `module:function`, called with `prompt_game` (default `game`). `sb3`: the
    SB3 adapter, `module:attribute` (`policies/sb3/adapter.py`). `engines`: engine prefix ->
    factory for the engines that speak this game's text contract. `warmup`: `module:function`
    compiling the numba kernels the built-ins run (what `python -m policies.build_cache` calls),
    None when they run none.
    """

    game: str
    builtins: Mapping[str, Callable[..., Any]]
    prompt: str | None = None
    prompt_game: str | None = None
    sb3: str | None = None
    engines: Mapping[str, EngineFactory] = field(default_factory=dict)
    warmup: str | None = None


class UnknownGameError(ValueError):
    """No policies play this game: the message names the games that have some."""


def policies_for(game: str) -> GamePolicies:
    """The policies of `game` (its folder imported on first use); an older name of a game
    (`tetris-controls`) finds the game's entry (`tetris-primitive`)."""
    try:
        module_name = descriptor(game).policies
        game = policy_game(game)
    except KeyError:
        raise UnknownGameError(
            f"no policies for game {game!r}; games: {', '.join(policy_games())}"
        ) from None
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise UnknownGameError(f"the {game} policies are not available ({exc})") from None
    for entry in getattr(module, "POLICIES", ()):
        if isinstance(entry, GamePolicies) and entry.game == game:
            return entry
    raise UnknownGameError(f"{module_name} exports no POLICIES entry for {game!r}")


def load(target: str) -> Any:
    """The attribute a `module:attribute` string names."""
    module_name, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module_name), attribute)

"""The SB3 adapter of a game, found through the game's policies (`policies/game_policies.py`).

Each game's adapter lives in its own folder (`policies/<game>/sb3.py`); this module names none.
"""

from __future__ import annotations

from policies.game_policies import UnknownGameError, load, policies_for
from policies.sb3.adapter import GameAdapter, Observed, grid_space


def adapter_for(game: str) -> GameAdapter | None:
    """The adapter that lets an SB3 model answer `game`'s questions (None: no env route)."""
    try:
        target = policies_for(game).sb3
    except UnknownGameError:
        return None
    if target is None:
        return None
    adapter = load(target)
    if not isinstance(adapter, GameAdapter):
        raise TypeError(f"{target} is not a GameAdapter")
    return adapter


def sb3_games() -> list[str]:
    """The games an SB3 model can play (those whose policies name an adapter)."""
    from arcade_gym.games import policy_games

    return [game for game in policy_games() if _names_adapter(game)]


def _names_adapter(game: str) -> bool:
    try:
        return policies_for(game).sb3 is not None
    except UnknownGameError:
        return False


__all__ = ["GameAdapter", "Observed", "adapter_for", "grid_space", "sb3_games"]

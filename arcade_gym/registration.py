"""Registers every game's environments with Gymnasium, and every game's warmup (idempotent).

Both come from the games' descriptors (`arcade_gym/games.py`), so a new game adds nothing here.
The envs enforce the call order themselves (`arcade_gym/core/env.py`), so Gymnasium's
`OrderEnforcing` wrapper is left out: `step()` before `reset()` is the env's own RuntimeError.
Each spec's `max_episode_steps` is its descriptor's (`EnvEntry.max_episode_steps`, each value
explained there): `gym.make` wraps the env in `TimeLimit` at that value, which never ends an
episode before the env's own caps at their defaults. Raising a cap (e.g. `max_decisions=5000`)
means raising the limit too: `gym.make(id, max_decisions=5000, max_episode_steps=5000)`, or
`max_episode_steps=-1` for no wrapper.
"""

from __future__ import annotations

from gymnasium.envs.registration import register, registry

from arcade_gym.core.warmup import register_warmup
from arcade_gym.games import descriptors, env_entries

NAMESPACE = "arcade_gym"


def env_entry_points() -> dict[str, str]:
    """Full env id -> entry point. Episode caps live in the envs themselves (truncation)."""
    return {f"{NAMESPACE}/{entry.id}": entry.entry_point for _, entry in env_entries()}


def vector_entry_points() -> dict[str, str]:
    """Full env id -> entry point of its native batched env (`gym.make_vec(...,
    vectorization_mode="vector_entry_point")`), for the envs that have one."""
    return {
        f"{NAMESPACE}/{entry.id}": entry.vector_entry_point
        for _, entry in env_entries()
        if entry.vector_entry_point is not None
    }


ENVS: dict[str, str] = env_entry_points()
"""The built-in games' env ids -> entry points, as registered at import (see `env_entry_points`)."""

VECTOR_ENVS: dict[str, str] = vector_entry_points()
"""The built-in games' env ids -> native vector entry points, as registered at import."""


def first_use_targets(game: str | None = None) -> list[str]:
    """What a user first meets of `game` (every game when None), as `arcade_gym/core/coldstart.py`
    runs it: each env (`env:ID`), each native vector env (`vector:ID`), the PettingZoo env
    (`aec:NAME`); the order is every game's envs, then vector envs, then PettingZoo envs."""
    entries = [(g, e) for g, e in env_entries() if game in (None, g.name)]
    targets = [f"env:{NAMESPACE}/{entry.id}" for _, entry in entries]
    targets += [
        f"vector:{NAMESPACE}/{entry.id}" for _, entry in entries if entry.vector_entry_point
    ]
    targets += [
        f"aec:{g.aec.name}" for g in descriptors() if g.aec is not None and game in (None, g.name)
    ]
    return targets


def register_envs() -> None:
    """Register every game's env ids that Gymnasium does not know yet, and its warmup."""
    for _, entry in env_entries():
        env_id = f"{NAMESPACE}/{entry.id}"
        if env_id not in registry:
            register(
                id=env_id,
                entry_point=entry.entry_point,
                vector_entry_point=entry.vector_entry_point,
                max_episode_steps=entry.max_episode_steps,
                order_enforce=False,
            )
    for game in descriptors():
        register_warmup(game.name, game.warmup)

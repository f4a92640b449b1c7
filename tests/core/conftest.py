"""The registered env ids and their variants, read from the registry so new games join the tests."""

from __future__ import annotations

from typing import Any

import gymnasium as gym

import arcade_gym  # noqa: F401  (registers the envs)
from arcade_gym.registration import NAMESPACE


def env_ids() -> list[str]:
    """Every env id registered under the arcade_gym namespace."""
    return sorted(k for k in gym.registry if k.startswith(f"{NAMESPACE}/"))


def env_variants() -> list[tuple[str, dict[str, Any]]]:
    """(id, constructor keywords) for every id and each of its boards (`ArcadeEnv.variants`)."""
    out: list[tuple[str, dict[str, Any]]] = []
    for env_id in env_ids():
        cls = gym.registry[env_id].entry_point
        if isinstance(cls, str):
            module, _, name = cls.partition(":")
            cls = getattr(__import__(module, fromlist=[name]), name)
        variants: tuple[dict[str, Any], ...] = getattr(cls, "variants", ({},))
        out.extend((env_id, dict(kw)) for kw in variants)
    return out

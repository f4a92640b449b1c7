"""The SB3 adapter of the native vector envs, now `arcade_gym.sb3.NativeVecEnv` (this path is
kept so older imports and examples still work)."""

from __future__ import annotations

from arcade_gym.sb3 import NativeVecEnv

__all__ = ["NativeVecEnv"]

"""arcade-gym: game benchmarks as fast Gymnasium and PettingZoo environments.

`import arcade_gym` registers the envs, so `gymnasium.make("arcade_gym/Tetris-v3")` works after it;
`gymnasium.make("arcade_gym:arcade_gym/Tetris-v3")` imports and registers in one go.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from arcade_gym.registration import ENVS, register_envs

try:
    __version__ = version("arcade-gym")
except PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0.0.0+source"

register_envs()

__all__ = ["ENVS", "__version__", "register_envs"]

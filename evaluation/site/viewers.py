"""The site's viewer registry: each game's replay viewer, found through its descriptor.

A game's descriptor names its viewer as `package:file` (`arcade_gym/core/descriptor.py`,
`viewer`); the site copies it to `assets/viewers/<game>.js`, where a replay page drawn by that
game's viewer loads it (`SiteBuild.replay`). So adding a game adds its viewer, and this package
names no game. What a viewer is given and how it registers: `docs/frames.md`.
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable

from arcade_gym.games import descriptors
from evaluation.core.rundir import safe_name


class ViewerError(ValueError):
    """A descriptor names a viewer that is not a script inside its package."""


def viewer_script(name: str) -> str:
    """The site path (under `assets/`) of the viewer of the game `name`."""
    return f"viewers/{name}.js"


def _resource(game: str, spec: str) -> Traversable:
    package, _, file = spec.partition(":")
    stem, dot, suffix = file.rpartition(".")
    if not package or not dot or suffix != "js" or stem != safe_name(stem):
        raise ViewerError(
            f"game {game!r}: viewer {spec!r} must be package:file.js, a script inside the package"
        )
    try:
        resource = resources.files(package).joinpath(file)
    except ModuleNotFoundError as error:
        raise ViewerError(f"game {game!r}: viewer {spec!r}: {error}") from None
    if not resource.is_file():
        raise ViewerError(f"game {game!r}: viewer {spec!r} does not exist")
    return resource


def viewers() -> dict[str, Traversable]:
    """Every registered game with a viewer: game name -> its script (in descriptor order)."""
    found: dict[str, Traversable] = {}
    for game in descriptors():
        if game.viewer is not None:
            found[game.name] = _resource(game.name, game.viewer)
    return found


def viewer_files() -> dict[str, bytes]:
    """The viewers as site files: `viewers/<game>.js` (under `assets/`) -> the script."""
    return {viewer_script(name): script.read_bytes() for name, script in viewers().items()}

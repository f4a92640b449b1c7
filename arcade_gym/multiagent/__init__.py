"""PettingZoo (AEC) environments of arcade-gym, importable the PettingZoo way:

from arcade_gym.multiagent import chess_v0, tictactoe_v0
env = tictactoe_v0.env(size=5)

Each env lives in its game's folder (`arcade_gym/<game>/aec.py`) and is named by the game's
descriptor (`GameDescriptor.aec`), so this package keeps no list of games: `tictactoe_v0` here is
the very module `arcade_gym.tictactoe.aec`, found on first use (attribute access, `from ... import`
and `import arcade_gym.multiagent.tictactoe_v0` alike) and imported only then.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from types import ModuleType

from arcade_gym.games import descriptors


def aec_modules() -> dict[str, str]:
    """Public PettingZoo name -> the module in a game folder that holds it, from the descriptors."""
    return {game.aec.name: game.aec.module for game in descriptors() if game.aec is not None}


def __getattr__(name: str) -> ModuleType:
    module = aec_modules().get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    found = importlib.import_module(module)
    globals()[name] = found
    return found


def __dir__() -> list[str]:
    return sorted({*globals(), *aec_modules()})


def _public_name(module: ModuleType) -> str:
    """The public name under which `module` (a game folder's AEC module) is known here."""
    return next(name for name, path in aec_modules().items() if path == module.__name__)


class _AecAliases(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Makes `import arcade_gym.multiagent.<name>` load the game folder's module under that name
    too (one module object, so its classes are the same under either path)."""

    def __init__(self) -> None:
        self._own_specs: dict[str, importlib.machinery.ModuleSpec | None] = {}

    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        parent, _, name = fullname.rpartition(".")
        if parent != __name__ or name not in aec_modules():
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module(aec_modules()[spec.name.rpartition(".")[2]])
        self._own_specs[spec.name] = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        # The import system stamped the alias's spec on the module: give it its own back.
        own = self._own_specs.pop(f"{__name__}.{_public_name(module)}", None)
        if own is not None:
            module.__spec__ = own


if not any(isinstance(finder, _AecAliases) for finder in sys.meta_path):
    sys.meta_path.append(_AecAliases())

__all__ = sorted(aec_modules())

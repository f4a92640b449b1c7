"""The `inspect_ai` entry point of this distribution (`pyproject.toml`): importing it registers the
five tasks under the `arcade_gym/` namespace, so `inspect eval arcade_gym/sudoku` finds them.

Inspect names a task after the top-level package of the module that defines it, and only when
that package is installed the way it recognises (`evaluation/sudoku` from a wheel, bare `sudoku`
from an editable install). The tasks live in `evaluation` (`arcade_gym` imports nothing from
`evaluation`), so each is registered again under `arcade_gym/<name>`, and the tasks it builds
carry that name too (logs, `inspect eval-retry`). This uses Inspect's registry module
(`inspect_ai._util.registry`), which `tests/evaluation/inspect_tasks/` exercises.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from inspect_ai import Task
from inspect_ai._util.registry import (
    RegistryInfo,
    registry_add,
    registry_info,
    set_registry_info,
)

from evaluation.inspect_tasks.task_arena import arena
from evaluation.inspect_tasks.task_chess import chess
from evaluation.inspect_tasks.task_narcade import narcade
from evaluation.inspect_tasks.task_sudoku import sudoku
from evaluation.inspect_tasks.task_tetris import tetris_bench

NAMESPACE = "arcade_gym"


def _namespaced(factory: Callable[..., Task], name: str) -> Callable[..., Task]:
    """`factory` registered as `arcade_gym/<name>`, its tasks tagged with that name."""
    full = f"{NAMESPACE}/{name}"
    metadata = dict(registry_info(factory).metadata)

    @functools.wraps(factory)
    def make(*args: Any, **kwargs: Any) -> Task:
        built = factory(*args, **kwargs)
        set_registry_info(built, RegistryInfo(type="task", name=full, metadata=metadata))
        return built

    registry_add(make, RegistryInfo(type="task", name=full, metadata=metadata))
    return make


TASKS: dict[str, Callable[..., Task]] = {
    name: _namespaced(factory, name)
    for name, factory in (
        ("tetris_bench", tetris_bench),
        ("narcade", narcade),
        ("arena", arena),
        ("sudoku", sudoku),
        ("chess", chess),
    )
}
"""Task name (without the namespace) -> its registered factory."""

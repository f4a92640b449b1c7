"""Observation buffers a `copy=True` vector env takes back once the caller has let them go.

A native vector env with `copy=True` hands out new observation arrays every step (the contract in
`arcade_gym/core/vector.py`). For a large observation (Snake-v0's planes: 2.9 KB a game, 12 MB at
4,096 games) a new array every step means drawing every game's planes in full into memory that
is not in any cache. Most callers drop the arrays of a step within a step or two (a training loop
copies them into its rollout buffer; `arcade-eval bench` keeps only the last one), so the env can
draw into an array it handed out earlier, changing only what changed since then.

Whether the caller still holds an array is read from its reference count (CPython): a view, a
`memoryview`, a torch tensor made by `torch.from_numpy`, a dict or list holding it all count, so
an array anyone can still read is never reused. A buffer comes back with its companion state
(the env's record of what it drew there), or, when every buffer is still held, a new one is made.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import numpy as np

POOL_SIZE = 3
"""Buffers kept: the one handed out last (still held by most callers), one or two before it."""

_OWN_REFS = sys.getrefcount(np.zeros(1)) + 2
"""References to a buffer nobody else holds, seen from `take`: the pool's tuple, the loop's
local name and `getrefcount`'s argument (measured, not assumed, for this interpreter)."""


class RecycledBuffers:
    """A few (array, companion) pairs; `take` returns one the caller no longer holds."""

    def __init__(self, make: Callable[[], tuple[np.ndarray, Any]], size: int = POOL_SIZE) -> None:
        self._make = make
        self._size = size
        self._entries: list[tuple[np.ndarray, Any]] = []

    def take(self, current: np.ndarray | None) -> tuple[np.ndarray, Any, bool]:
        """(array, companion, fresh): an array held by no one but the pool and not `current`
        (the one handed out last), or a new one (`fresh`: its contents are undefined). A new one
        replaces the oldest entry when the pool is full (that array is then the caller's alone)."""
        for k in range(len(self._entries)):
            array = self._entries[k][0]
            if array is not current and sys.getrefcount(array) <= _OWN_REFS:
                entry = self._entries.pop(k)
                self._entries.append(entry)  # most recently used last
                return entry[0], entry[1], False
        made = self._make()
        if len(self._entries) >= self._size:
            self._entries.pop(0)
        self._entries.append(made)
        return made[0], made[1], True

    def adopt(self, array: np.ndarray, companion: Any) -> None:
        """Keep `array` (made outside `take`, e.g. by a reset) as a pool entry."""
        if len(self._entries) >= self._size:
            self._entries.pop(0)
        self._entries.append((array, companion))

"""Faithful `pickle` / `copy.deepcopy` of objects that keep numpy views of their own arrays.

A game keeps live views (`board = flat.reshape(n, n)`, a Sudoku env's `(9, 9)` window on the
game's board) so a kernel's writes into one array show in the other. numpy pickles and
deep-copies every array on its own: a view comes back as a separate array, so the copy's
kernels write one array while its observation reads the other, which then stays frozen.

`KeepsViews` fixes that for every class that inherits it (the env bases in
`arcade_gym/core/env.py` and `arcade_gym/core/vector.py`, the action space in
`arcade_gym/core/spaces.py`, the games): its state names each view by the array that owns the
memory plus offset, shape, strides and dtype, and a copy rebuilds it as a view of that owner's
copy. pickle and deepcopy copy each object once per call (their memo), so views and owners held
by different objects of one env (the env and its game) stay linked. Views inside plain dicts,
lists and tuples of the state are covered too; a view whose owner is not a contiguous numpy
array (e.g. a buffer from `np.frombuffer` of bytes) is copied as numpy does.
"""

from __future__ import annotations

from typing import Any

import numpy as np


class _View:
    """A view in a copied state: rebuilt as `np.ndarray(..., buffer=owner)` by pickle/deepcopy."""

    __slots__ = ("args",)

    def __init__(self, view: np.ndarray, owner: np.ndarray) -> None:
        offset = view.__array_interface__["data"][0] - owner.__array_interface__["data"][0]
        self.args = (view.shape, view.dtype, owner, offset, view.strides, view.flags.writeable)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return _rebuild_view, self.args


def _rebuild_view(
    shape: tuple[int, ...],
    dtype: np.dtype[Any],
    owner: np.ndarray,
    offset: int,
    strides: tuple[int, ...],
    writeable: bool,
) -> np.ndarray:
    view: np.ndarray = np.ndarray(shape, dtype, buffer=owner, offset=offset, strides=strides)
    if not writeable:
        view.flags.writeable = False
    return view


def _owner(array: np.ndarray) -> np.ndarray | None:
    """The array that owns `array`'s memory when `array` is a view of one we can rebuild on."""
    owner = array.base
    if not isinstance(owner, np.ndarray):
        return None
    while isinstance(owner.base, np.ndarray):
        owner = owner.base
    if owner.base is not None or not owner.flags.c_contiguous:
        return None  # memory owned by a non-numpy buffer, or a layout a buffer cannot export
    return owner


def _linked(value: Any) -> Any:
    """`value` with every rebuildable view (also inside dicts, lists, tuples) as a `_View`."""
    if isinstance(value, np.ndarray):
        owner = _owner(value)
        return value if owner is None else _View(value, owner)
    if type(value) is dict:
        return {key: _linked(item) for key, item in value.items()}
    if type(value) is list:
        return [_linked(item) for item in value]
    if type(value) is tuple:
        return tuple(_linked(item) for item in value)
    return value


def linked_state(state: dict[str, Any]) -> dict[str, Any]:
    """An object's `__dict__` ready for pickle/deepcopy with its views kept as views."""
    return {key: _linked(value) for key, value in state.items()}


class KeepsViews:
    """Mixin: pickle and deepcopy rebuild the object's numpy views on their owners' copies."""

    def __getstate__(self) -> dict[str, Any]:
        return linked_state(self.__dict__)


__all__ = ["KeepsViews", "linked_state"]

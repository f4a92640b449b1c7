"""`KeepsViews`: a copied object's numpy views stay views of its copied owners (any layout)."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from arcade_gym.core.copying import KeepsViews

COPIES: dict[str, Callable[[Any], Any]] = {
    "pickle": lambda obj: pickle.loads(pickle.dumps(obj)),
    "deepcopy": copy.deepcopy,
}


class _Holder(KeepsViews):
    def __init__(self) -> None:
        self.flat = np.zeros(12, np.int8)
        self.grid = self.flat.reshape(3, 4)
        self.transposed = self.grid.T
        self.reversed = self.flat[::-1]
        self.nested = {"window": [self.flat[2:5]]}
        self.frozen = self.flat[:3]
        self.frozen.flags.writeable = False


class _Other(KeepsViews):
    def __init__(self, owner: _Holder) -> None:
        self.owner = owner
        self.window = owner.flat.reshape(4, 3)


@pytest.mark.parametrize("how", list(COPIES))
def test_views_follow_their_owner_in_the_copy(how: str) -> None:
    original = _Holder()
    twin = COPIES[how](COPIES[how](original))  # a copy of a copy too
    twin.flat[3] = 7
    twin.flat[2] = 5
    assert twin.grid[0, 3] == twin.transposed[3, 0] == twin.reversed[8] == 7
    assert twin.nested["window"][0][0] == 5
    assert twin.frozen[2] == 5 and not twin.frozen.flags.writeable
    assert not original.flat.any()  # independent of the original


@pytest.mark.parametrize("how", list(COPIES))
def test_a_view_held_by_another_object_follows_the_owner(how: str) -> None:
    holder = _Holder()
    other = COPIES[how](_Other(holder))
    other.owner.flat[5] = 9
    assert other.window[1, 2] == 9

"""`arcade_gym/core/prefetch.py`: a prefetch inside a kernel compiles, runs and changes nothing."""

from __future__ import annotations

import numpy as np
from numba import njit

from arcade_gym.core.prefetch import prefetch_write


@njit
def _prefetch_every_cell(array: np.ndarray) -> float:
    total = 0.0
    for row in range(array.shape[0]):
        for col in range(array.shape[1]):
            prefetch_write(array, row, col)
            total += array[row, col]
    return total


def test_prefetching_every_cell_reads_and_changes_nothing() -> None:
    array = np.arange(3 * 70, dtype=np.float32).reshape(3, 70)
    before = array.copy()
    assert _prefetch_every_cell(array) == before.sum()
    np.testing.assert_array_equal(array, before)

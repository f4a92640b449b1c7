"""The vector envs' action check as one pass over the batch (numba), instead of five numpy
passes a step: range first, then the masks, so the error names the same game either way."""

from __future__ import annotations

import numpy as np
from numba import njit

BAD_NONE, BAD_RANGE, BAD_MASKED = 0, 1, 2


@njit(cache=True)
def first_bad_action(
    acts: np.ndarray, masks: np.ndarray, resetting: np.ndarray, check_masks: bool
) -> tuple[int, int]:
    """(BAD_RANGE, i) for the first action outside [0, A), else (BAD_MASKED, i) for the first
    masked one of a game not resetting on this step (when `check_masks`), else (BAD_NONE, -1)."""
    n = masks.shape[1]
    for i in range(acts.shape[0]):
        if acts[i] < 0 or acts[i] >= n:
            return BAD_RANGE, i
    if check_masks:
        for i in range(acts.shape[0]):
            if not resetting[i] and masks[i, acts[i]] == 0:
                return BAD_MASKED, i
    return BAD_NONE, -1

"""The vector envs' episode statistics and time limit as one pass over the batch (numba): each
game's return, length and start time, Gymnasium's `TimeLimit` truncation, and the
`info["episode"]` arrays of `RecordEpisodeStatistics` (`arcade_gym/core/vector.py`)."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def tally(
    ret: np.ndarray,
    length: np.ndarray,
    start: np.ndarray,
    rewards: np.ndarray,
    resetting: np.ndarray,
    now: float,
    limit: int,
    terminations: np.ndarray,
    truncations: np.ndarray,
    needs_reset: np.ndarray,
) -> bool:
    """Add this step's reward and one step to every game (a game resetting on this step starts
    its episode at 0 from `now`); truncate the games at `limit` steps (0: none), ending or not,
    as `TimeLimit` does. Returns whether any game ended on this step."""
    ended = False
    for i in range(ret.shape[0]):
        if resetting[i]:
            ret[i] = 0.0
            length[i] = -1  # the reset step itself is no step of the new episode
            start[i] = now
        ret[i] += rewards[i]
        length[i] += 1
        if limit > 0 and length[i] >= limit:
            truncations[i] = True
            needs_reset[i] = True
        if terminations[i] or truncations[i]:
            ended = True
    return ended


@njit(cache=True)
def episode_arrays(
    ret: np.ndarray, length: np.ndarray, start: np.ndarray, done: np.ndarray, now: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`info["episode"]`'s "r", "l" and "t" (seconds, to the millisecond): the ended games'
    values, 0 elsewhere."""
    n = ret.shape[0]
    r = np.zeros(n, np.float64)
    steps = np.zeros(n, np.int64)
    t = np.zeros(n, np.float64)
    for i in range(n):
        if done[i]:
            r[i] = ret[i]
            steps[i] = length[i]
            t[i] = np.round(now - start[i], 3)
    return r, steps, t

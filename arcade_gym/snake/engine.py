"""numba kernels of the Snake engine: pure functions over numpy arrays, no Python objects.

The whole game lives in four arrays so one compiled call does a full step:

- `grid`: uint8 (rows * cols,), `rules.EMPTY` / `SNAKE` / `FOOD` per flat cell `row * cols + col`;
- `body`: int64 ring buffer (rows * cols,) of flat cells; the head is `body[st[S_HEAD]]` and segment
  `i` (0 = head) is `body[(st[S_HEAD] - i) mod rows*cols]`;
- `st`: int64 state vector indexed by the `S_*` constants below;
- `rng`: uint64 (1,), the splitmix64 state that places the food.

The per-step kernels (`move`, `observe` and their parts) are inlined into their callers: the
vector env calls them once per game per step, where a call costs as much as the work.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from arcade_gym.core.seeding import splitmix64
from arcade_gym.snake.rules import (
    DC,
    DR,
    EMPTY,
    END_BODY,
    END_DECISION_CAP,
    END_NONE,
    END_STARVED,
    END_WALL,
    END_WON,
    FOOD,
    N_PLANES,
    PLANE_BODY,
    PLANE_FOOD,
    PLANE_HEAD,
    PLANE_ORDER,
    PLANE_TAIL,
    RIGHT,
    SNAKE,
    START_LENGTH,
)

# --- the state vector -------------------------------------------------------------------------
S_ROWS = 0
S_COLS = 1
S_LENGTH = 2
S_HEAD = 3  # ring index of the head in `body`
S_HEADING = 4
S_FOOD = 5  # flat cell of the food, -1 when there is none (a full board)
S_SCORE = 6  # food eaten
S_DECISIONS = 7  # answers applied (the decision cap counts these)
S_MOVES = 8  # moves made, decisions and realtime ticks alike
S_SINCE_FOOD = 9  # moves since the last food (the RL env's starvation truncation)
S_END = 10  # rules.END_*
S_MAX_DECISIONS = 11  # 0 = no cap
S_STARVE_LIMIT = 12  # 0 = no cap
S_TICK_MS = 13
S_CLOCK_US = 14  # realtime: microseconds accumulated towards the next tick
STATE_LEN = 15


@njit(cache=True)
def place_food(grid: np.ndarray, st: np.ndarray, rng: np.ndarray) -> None:
    """Put the food on the k-th empty cell (row-major), k uniform over the empty cells."""
    free = grid.shape[0] - st[S_LENGTH]
    if free <= 0:
        st[S_FOOD] = -1
        return
    k = int(splitmix64(rng) % np.uint64(free))
    for cell in range(grid.shape[0]):
        if grid[cell] == EMPTY:
            if k == 0:
                grid[cell] = FOOD
                st[S_FOOD] = cell
                return
            k -= 1


@njit(cache=True)
def reset(
    grid: np.ndarray, body: np.ndarray, st: np.ndarray, rng: np.ndarray, seed: np.uint64
) -> None:
    """A new game on the board `st[S_ROWS] x st[S_COLS]`: length 3 heading right, the head on
    the middle cell `(rows // 2, cols // 2)`, the body to its left; then the first food."""
    rows = st[S_ROWS]
    cols = st[S_COLS]
    grid[:] = EMPTY
    row = rows // 2
    col = cols // 2
    for i in range(START_LENGTH):  # body[0] is the tail, body[START_LENGTH - 1] the head
        cell = row * cols + col - (START_LENGTH - 1 - i)
        body[i] = cell
        grid[cell] = SNAKE
    st[S_LENGTH] = START_LENGTH
    st[S_HEAD] = START_LENGTH - 1
    st[S_HEADING] = RIGHT
    st[S_SCORE] = 0
    st[S_DECISIONS] = 0
    st[S_MOVES] = 0
    st[S_SINCE_FOOD] = 0
    st[S_END] = END_NONE
    st[S_CLOCK_US] = 0
    rng[0] = np.uint64(seed)
    place_food(grid, st, rng)


@njit(cache=True)
def segment(body: np.ndarray, st: np.ndarray, i: int) -> int:
    """Flat cell of segment `i` (0 = head, length - 1 = tail)."""
    n = body.shape[0]
    return body[(st[S_HEAD] - i + n) % n]


@njit(cache=True, inline="always")
def move(
    grid: np.ndarray,
    body: np.ndarray,
    st: np.ndarray,
    rng: np.ndarray,
    direction: int,
    decision: bool,
) -> int:
    """Move one cell towards `direction` (a reversal keeps the heading). Returns the food eaten.

    The tail leaves its cell before the head arrives, so moving into it is legal; eating keeps the
    tail where it is (growth by one). `decision` says whether this move is an answer (counted
    against the decision cap) or a realtime tick.
    """
    if st[S_END] != END_NONE:
        return 0
    rows = st[S_ROWS]
    cols = st[S_COLS]
    n = grid.shape[0]
    heading = st[S_HEADING]
    if direction == (heading + 2) % 4:
        direction = heading
    st[S_HEADING] = direction
    st[S_MOVES] += 1
    if decision:
        st[S_DECISIONS] += 1
    head = body[st[S_HEAD]]
    row = head // cols + DR[direction]
    col = head % cols + DC[direction]
    if row < 0 or row >= rows or col < 0 or col >= cols:
        st[S_END] = END_WALL
        return 0
    cell = row * cols + col
    length = st[S_LENGTH]
    ate = grid[cell] == FOOD
    if not ate:
        tail = body[(st[S_HEAD] - length + 1 + n) % n]
        grid[tail] = EMPTY
        if grid[cell] == SNAKE:
            grid[tail] = SNAKE
            st[S_END] = END_BODY
            return 0
    st[S_HEAD] = (st[S_HEAD] + 1) % n
    body[st[S_HEAD]] = cell
    grid[cell] = SNAKE
    if ate:
        st[S_LENGTH] = length + 1
        st[S_SCORE] += 1
        st[S_SINCE_FOOD] = 0
        if length + 1 == n:
            st[S_FOOD] = -1
            st[S_END] = END_WON
            return 1
        place_food(grid, st, rng)
    else:
        st[S_SINCE_FOOD] += 1
    if st[S_MAX_DECISIONS] > 0 and st[S_DECISIONS] >= st[S_MAX_DECISIONS]:
        st[S_END] = END_DECISION_CAP
    elif st[S_STARVE_LIMIT] > 0 and st[S_SINCE_FOOD] >= st[S_STARVE_LIMIT]:
        st[S_END] = END_STARVED
    return 1 if ate else 0


@njit(cache=True)
def advance(
    grid: np.ndarray, body: np.ndarray, st: np.ndarray, rng: np.ndarray, elapsed_us: int
) -> tuple[int, int]:
    """Realtime: one move along the heading for every tick that fell inside `elapsed_us`; the
    remainder carries over to the next call. Returns (moves made, food eaten)."""
    tick_us = st[S_TICK_MS] * 1000
    total = st[S_CLOCK_US] + elapsed_us
    ticks = total // tick_us
    st[S_CLOCK_US] = total - ticks * tick_us
    moves = 0
    eaten = 0
    for _ in range(ticks):
        if st[S_END] != END_NONE:
            break
        eaten += move(grid, body, st, rng, st[S_HEADING], False)
        moves += 1
    return moves, eaten


@njit(cache=True, inline="always")
def fill_mask(st: np.ndarray, mask: np.ndarray) -> None:
    """1 for every direction but the reversal of the heading."""
    mask[:] = 1
    mask[(st[S_HEADING] + 2) % 4] = 0


@njit(cache=True, inline="always")
def mark_planes(body: np.ndarray, st: np.ndarray, planes: np.ndarray, record: np.ndarray) -> None:
    """Draw the RL observation's non-zero entries into `planes`, the flat C-order view of one
    game's (rows, cols, 5) planes, zero wherever this drawing marks: body, head, tail, food,
    and body order (the head 1.0 down to the tail 1/length), so a learner can tell which way
    every segment moves. `record`, unless empty, gets the cells marked (its count first): what
    a redraw into the same planes must clear (the vector env draws only what changed)."""
    length = st[S_LENGTH]
    n = body.shape[0]
    keep = record.shape[0] > 0
    at = st[S_HEAD]  # the ring index of segment s, from the head (s = 0) to the tail
    cell = body[at]
    planes[cell * N_PLANES + PLANE_HEAD] = 1.0
    for s in range(length):
        cell = body[at]
        planes[cell * N_PLANES + PLANE_BODY] = 1.0
        planes[cell * N_PLANES + PLANE_ORDER] = (length - s) / length
        if keep:
            record[s + 1] = cell
        at = at - 1 if at > 0 else n - 1
    planes[cell * N_PLANES + PLANE_TAIL] = 1.0
    count = length
    food = st[S_FOOD]
    if food >= 0:
        planes[food * N_PLANES + PLANE_FOOD] = 1.0
        count += 1
        if keep:
            record[count] = food
    if keep:
        record[0] = count


@njit(cache=True, inline="always")
def fill_planes(grid: np.ndarray, body: np.ndarray, st: np.ndarray, obs: np.ndarray) -> None:
    """The RL observation (rows, cols, 5), C-contiguous: cleared, then `mark_planes`."""
    planes = obs.reshape(obs.size)
    planes[:] = 0.0
    mark_planes(body, st, planes, planes[:0])  # an empty record: nothing to record


@njit(cache=True, inline="always")
def play(
    grid: np.ndarray, body: np.ndarray, st: np.ndarray, rng: np.ndarray, direction: int
) -> int:
    """One decision: the food eaten, or -1 (and nothing changes) when the game was already over."""
    if st[S_END] != END_NONE:
        return -1
    return move(grid, body, st, rng, direction, True)


@njit(cache=True, inline="always")
def step_observe(
    grid: np.ndarray,
    body: np.ndarray,
    st: np.ndarray,
    rng: np.ndarray,
    direction: int,
    obs: np.ndarray,
    length: np.ndarray,
    mask: np.ndarray,
) -> int:
    """The RL hot path: one decision (`play`), then the observation (planes and length) and the
    mask. Returns the food eaten, or -1 (and changes nothing) when the game was already over."""
    eaten = play(grid, body, st, rng, direction)
    if eaten >= 0:
        observe(grid, body, st, obs, length, mask)
    return eaten


@njit(cache=True)
def observe(
    grid: np.ndarray,
    body: np.ndarray,
    st: np.ndarray,
    obs: np.ndarray,
    length: np.ndarray,
    mask: np.ndarray,
) -> None:
    """Refresh the RL view: the planes, the length (float32 (1,)) and the action mask."""
    fill_planes(grid, body, st, obs)
    length[0] = st[S_LENGTH]
    fill_mask(st, mask)


# --- hashing ----------------------------------------------------------------------------------
@njit(cache=True)
def _fnv64(h: np.uint64, value: int) -> np.uint64:
    v = np.uint64(value)
    for _ in range(8):
        h = (h ^ (v & np.uint64(0xFF))) * np.uint64(0x100000001B3)
        v >>= np.uint64(8)
    return h


@njit(cache=True)
def state_hash(grid: np.ndarray, body: np.ndarray, st: np.ndarray, rng: np.ndarray) -> np.uint64:
    """FNV-1a (64-bit) over a canonical serialisation: the state vector without the ring offset
    and the episode caps (so the RL env and the harness agree on a position), the snake head to
    tail, the food PRNG, and the grid."""
    h = np.uint64(0xCBF29CE484222325)
    for i in range(STATE_LEN):
        if i != S_HEAD and i != S_MAX_DECISIONS and i != S_STARVE_LIMIT:
            h = _fnv64(h, st[i])
    for i in range(st[S_LENGTH]):
        h = _fnv64(h, segment(body, st, i))
    h = _fnv64(h, rng[0])
    for cell in range(grid.shape[0]):
        h = (h ^ np.uint64(grid[cell])) * np.uint64(0x100000001B3)
    return h

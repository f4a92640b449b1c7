"""numba kernels of the Tetris engine: pure functions over numpy arrays, no Python objects.

The whole game state lives in three arrays so one compiled call can do a full step:

- `board`: uint8 (20, 10), 0 empty, `type + 1` for a locked cell;
- `st`: int64 state vector indexed by the `S_*` constants below;
- `seq`: int8 piece sequence (seven-bag), consumed from `st[S_QPOS]`.

Candidate generation writes into preallocated `cinfo` (one row per candidate, columns `C_*`) and
`cfeat` (afterstate features: 10 heights then `rules.FEATURE_NAMES`).

A constant handed to a kernel also called with int64 goes through an int64 local: numba
compiles a kernel once per argument types, and a literal is a type of its own (`candidates.py`).
"""

from __future__ import annotations

import numpy as np
from numba import int64, njit

from arcade_gym.core.seeding import FNV32_OFFSET, fnv1a32_byte, fnv1a32_word, splitmix64
from arcade_gym.tetris.rules import (
    BOARD_HEIGHT,
    BOARD_WIDTH,
    CLASSIC_CLEAR,
    COMBO_STEP,
    DROP_POINTS_PER_ROW,
    EMPTY_HOLD,
    END_NONE,
    END_PIECE_CAP,
    END_TICK_CAP,
    END_TOP_OUT,
    GUIDELINE_CLEAR,
    KICKS,
    PERFECT_CLEAR,
    PLACEMENT_XS,
    PREVIEW,
    SCORING_CLASSIC,
    SHAPES,
    SOFT_DROP_POINTS_PER_ROW,
    SPAWN_X,
    SPAWN_Y,
    SPIN_FULL,
    SPIN_MINI,
    SPIN_NONE,
    T_CORNERS,
    T_FRONT_CORNERS,
    I,
    O,
    T,
)

W = BOARD_WIDTH
H = BOARD_HEIGHT

# --- the state vector -------------------------------------------------------------------------
S_ACTIVE = 0
S_X = 1
S_Y = 2
S_ROT = 3
S_HOLD = 4  # piece type or -1
S_CAN_HOLD = 5
S_QPOS = 6  # index in seq of the next piece
S_SCORE = 7
S_LINES = 8
S_LEVEL = 9
S_PIECES = 10
S_COMBO = 11
S_B2B = 12
S_TICK = 13
S_END = 14  # rules.END_*
S_LAST_ROT = 15  # 1 when the last successful move was a rotation
S_LAST_KICK = 16  # kick test index of that rotation
S_SCORING = 17  # rules.SCORING_*
S_START_LEVEL = 18
S_PIECE_CAP = 19
S_TICK_CAP = 20
S_GRAVITY_MS = 21  # ms accumulated towards the next gravity row (Blitz / realtime)
S_NCAND = 22  # candidates currently listed in cinfo
STATE_LEN = 23

# --- candidate rows ---------------------------------------------------------------------------
C_X = 0
C_ROT = 1
C_Y_START = 2
C_Y_LAND = 3
C_LINES = 4
C_SCORE_DELTA = 5
C_DROP = 6
C_CLEAR = 7
C_TOP_OUT = 8
C_SPIN = 9
C_ACTION = 10
CINFO_LEN = 11
MAX_CANDIDATES = 4 * PLACEMENT_XS
EXTENDED_FROM = 10  # featmat column of landingHeight (then erodedCells) in the extended layout

F_HEIGHTS = 0  # 10 columns
F_MAX_HEIGHT = 10
F_AGGREGATE = 11
F_HOLES = 12
F_BUMPINESS = 13
F_WELLS = 14
F_ROW_TRANSITIONS = 15
F_COL_TRANSITIONS = 16
FEATURES_LEN = 17

# Primitive controls (NARCADE order).
LEFT, RIGHT, ROTATE_CW, ROTATE_CCW, SOFT_DROP, HARD_DROP = range(6)

# Search box: piece origins with y in [Y_MIN, 19] and x in [-3, 10] (the candidate search never
# lifts a piece above row Y_MIN; `policies/tetris/controls.py` indexes its own search with these).
Y_MIN = -8
Y_SPAN = H - Y_MIN
X_OFF = 3
X_SPAN = W + 6


# --- sequence ---------------------------------------------------------------------------------
@njit(cache=True)
def fill_seven_bag(seed: np.uint64, seq: np.ndarray) -> None:
    """Fill `seq` with consecutive seven-bags, each a Fisher-Yates permutation of IJLOSTZ."""
    state = np.empty(1, np.uint64)
    state[0] = seed
    bag = np.empty(7, np.int8)
    pos = 0
    while pos < seq.shape[0]:
        for k in range(7):
            bag[k] = k
        for k in range(6, 0, -1):
            j = int(splitmix64(state) % np.uint64(k + 1))
            tmp = bag[k]
            bag[k] = bag[j]
            bag[j] = tmp
        for k in range(7):
            if pos < seq.shape[0]:
                seq[pos] = bag[k]
                pos += 1


@njit(cache=True)
def shuffled_order(seed: np.uint64, n: int) -> np.ndarray:
    """A permutation of range(n) drawn from `seed` (candidate order and ids in questions)."""
    state = np.empty(1, np.uint64)
    state[0] = seed
    order = np.arange(n)
    for k in range(n - 1, 0, -1):
        j = int(splitmix64(state) % np.uint64(k + 1))
        tmp = order[k]
        order[k] = order[j]
        order[j] = tmp
    return order


# --- geometry ---------------------------------------------------------------------------------
@njit(cache=True)
def collides(board: np.ndarray, t: int, x: int, y: int, r: int) -> bool:
    """True when piece `t` at `(x, y, r)` overlaps a wall, the floor or a locked cell."""
    for i in range(4):
        cx = x + SHAPES[t, r, i, 0]
        cy = y + SHAPES[t, r, i, 1]
        if cx < 0 or cx >= W or cy >= H:
            return True
        if cy >= 0 and board[cy, cx] != 0:
            return True
    return False


@njit(cache=True)
def try_rotate(board: np.ndarray, t: int, x: int, y: int, r: int, direction: int) -> tuple:
    """SRS rotation: the first of the kick tests that fits wins.

    Returns `(ok, x, y, rotation, kick_index)`; `direction` 0 = clockwise, 1 = counter-clockwise.
    """
    nr = (r + 1) % 4 if direction == 0 else (r + 3) % 4
    table = 1 if t == I else 0
    tests = 1 if t == O else 5
    for k in range(tests):
        nx = x + KICKS[table, r, direction, k, 0]
        ny = y + KICKS[table, r, direction, k, 1]
        if not collides(board, t, nx, ny, nr):
            return True, nx, ny, nr, k
    return False, x, y, r, -1


@njit(cache=True)
def drop_distance(board: np.ndarray, t: int, x: int, y: int, r: int) -> int:
    """Rows the piece falls on a hard drop."""
    d = 0
    while not collides(board, t, x, y + d + 1, r):
        d += 1
    return d


@njit(cache=True)
def _occupied(board: np.ndarray, cx: int, cy: int) -> bool:
    if cx < 0 or cx >= W or cy >= H:
        return True
    return cy >= 0 and board[cy, cx] != 0


@njit(cache=True)
def spin_kind(board: np.ndarray, t: int, x: int, y: int, r: int, last_kick: int) -> int:
    """T-spin class of a T resting at `(x, y, r)` whose last move was a rotation.

    Three of the four box corners occupied makes a spin; it is full when both corners the T points
    at are occupied or the rotation used the last kick test, otherwise a mini.
    """
    if t != T:
        return SPIN_NONE
    corners = 0
    for i in range(4):
        if _occupied(board, x + T_CORNERS[i, 0], y + T_CORNERS[i, 1]):
            corners += 1
    if corners < 3:
        return SPIN_NONE
    front = 0
    for i in range(2):
        if _occupied(board, x + T_FRONT_CORNERS[r, i, 0], y + T_FRONT_CORNERS[r, i, 1]):
            front += 1
    if front == 2 or last_kick == 4:
        return SPIN_FULL
    return SPIN_MINI


# --- board updates ----------------------------------------------------------------------------
@njit(cache=True)
def lock_cells(board: np.ndarray, t: int, x: int, y: int, r: int) -> bool:
    """Write the piece into the board; True when a cell lies above row 0 (a lock-out)."""
    above = False
    for i in range(4):
        cx = x + SHAPES[t, r, i, 0]
        cy = y + SHAPES[t, r, i, 1]
        if cy < 0:
            above = True
        else:
            board[cy, cx] = t + 1
    return above


@njit(cache=True)
def clear_lines(board: np.ndarray) -> int:
    """Remove full rows, shifting the rows above down; returns the count."""
    write = H - 1
    cleared = 0
    for read in range(H - 1, -1, -1):
        full = True
        for c in range(W):
            if board[read, c] == 0:
                full = False
                break
        if full:
            cleared += 1
            continue
        if write != read:
            for c in range(W):
                board[write, c] = board[read, c]
        write -= 1
    for row in range(write, -1, -1):
        for c in range(W):
            board[row, c] = 0
    return cleared


@njit(cache=True)
def board_empty(board: np.ndarray) -> bool:
    for row in range(H):
        for c in range(W):
            if board[row, c] != 0:
                return False
    return True


FULL_ROW = (1 << W) - 1
POPCOUNT = np.array([bin(i).count("1") for i in range(1 << (W + 2))], np.int64)


@njit(cache=True)
def row_masks(board: np.ndarray, out: np.ndarray) -> None:
    """Each board row as a W-bit mask (bit c = column c filled): the fast form for search."""
    for row in range(H):
        m = 0
        for c in range(W):
            if board[row, c] != 0:
                m |= 1 << c
        out[row] = m


@njit(cache=True)
def landing_features(rows: np.ndarray, t: int, x: int, r: int, y: int) -> tuple[float, int, int]:
    """(landing height, lines cleared, eroded piece cells) of piece `t` locked at origin (x, y),
    rotation r, on the board `rows` (`row_masks`, before the lock): the El-Tetris features.

    Landing height is the mean of the piece's highest and lowest cell heights (a bottom-row cell
    is at height 1); eroded cells are the cleared rows times the piece's cells in them.
    """
    top = H
    bottom = -1
    for i in range(4):
        cy = y + SHAPES[t, r, i, 1]
        top = min(top, cy)
        bottom = max(bottom, cy)
    lines = 0
    cells = 0
    for row in range(max(top, 0), bottom + 1):
        m = rows[row]
        own = 0
        for i in range(4):
            if y + SHAPES[t, r, i, 1] == row:
                m |= 1 << (x + SHAPES[t, r, i, 0])
                own += 1
        if m == FULL_ROW:
            lines += 1
            cells += own
    return (H - bottom + H - top) / 2.0, lines, lines * cells


@njit(cache=True, locals={"start": int64})
def mask_features(rows: np.ndarray, out: np.ndarray) -> None:
    """Heights, holes, bumpiness, wells and transitions as `docs/rules/tetris.md` defines them."""
    start = 0  # an int64 local, not a literal (candidates.py says why)
    mask_features_at(rows, start, out, start)


@njit(cache=True)
def mask_features_at(rows: np.ndarray, r0: int, out: np.ndarray, o0: int) -> None:
    """`mask_features` of `rows[r0 : r0 + H]` into `out[o0 : o0 + FEATURES_LEN]` (offsets rather
    than views, so a kernel can keep every buffer in one work array)."""
    covered = 0
    holes = 0
    row_transitions = 0
    col_transitions = 0
    for c in range(W):
        out[o0 + F_HEIGHTS + c] = 0
    previous = 0
    for row in range(H):
        m = rows[r0 + row]
        new_tops = m & ~covered
        if new_tops != 0:
            for c in range(W):
                if (new_tops >> c) & 1:
                    out[o0 + F_HEIGHTS + c] = H - row
        holes += POPCOUNT[covered & ~m & FULL_ROW]
        covered |= m
        walled = (m << 1) | 1 | (1 << (W + 1))  # both walls count as filled
        row_transitions += POPCOUNT[(walled ^ (walled >> 1)) & ((1 << (W + 1)) - 1)]
        if row > 0:
            col_transitions += POPCOUNT[m ^ previous]
        previous = m
    col_transitions += POPCOUNT[~previous & FULL_ROW]  # the floor counts as filled
    aggregate = 0
    max_height = 0
    bumpiness = 0
    wells = 0
    hb = o0 + F_HEIGHTS
    for c in range(W):
        h = out[hb + c]
        aggregate += h
        max_height = max(max_height, h)
        if c + 1 < W:
            bumpiness += abs(h - out[hb + c + 1])
        if c == 0:
            side = out[hb + 1]
        elif c == W - 1:
            side = out[hb + W - 2]
        else:
            side = min(out[hb + c - 1], out[hb + c + 1])
        if side > h:
            wells += side - h
    out[o0 + F_MAX_HEIGHT] = max_height
    out[o0 + F_AGGREGATE] = aggregate
    out[o0 + F_HOLES] = holes
    out[o0 + F_BUMPINESS] = bumpiness
    out[o0 + F_WELLS] = wells
    out[o0 + F_ROW_TRANSITIONS] = row_transitions
    out[o0 + F_COL_TRANSITIONS] = col_transitions


@njit(cache=True)
def board_features(board: np.ndarray, out: np.ndarray) -> None:
    """`mask_features` of a cell board."""
    rows = np.empty(H, np.int64)
    row_masks(board, rows)
    mask_features(rows, out)


@njit(cache=True)
def lock_and_clear_masks(rows: np.ndarray, t: int, x: int, y: int, r: int) -> tuple:
    """Lock a piece into row masks and clear full rows. Returns `(lines, locked above row 0)`."""
    above = False
    for i in range(4):
        cy = y + SHAPES[t, r, i, 1]
        if cy < 0:
            above = True
        else:
            rows[cy] |= 1 << (x + SHAPES[t, r, i, 0])
    write = H - 1
    for read in range(H - 1, -1, -1):
        if rows[read] != FULL_ROW:
            rows[write] = rows[read]
            write -= 1
    lines = write + 1
    for row in range(write, -1, -1):
        rows[row] = 0
    return lines, above


@njit(cache=True)
def _mask_collides(rows: np.ndarray, t: int, x: int, y: int, r: int) -> bool:
    for i in range(4):
        cx = x + SHAPES[t, r, i, 0]
        cy = y + SHAPES[t, r, i, 1]
        if cx < 0 or cx >= W or cy >= H:
            return True
        if cy >= 0 and (rows[cy] >> cx) & 1:
            return True
    return False


# --- scoring ----------------------------------------------------------------------------------
@njit(cache=True)
def level_for(scoring: int, start_level: int, lines: int) -> int:
    """Guideline: 1 + lines // 10. Classic: start level + lines // 10."""
    if scoring == SCORING_CLASSIC:
        return start_level + lines // 10
    return 1 + lines // 10


@njit(cache=True)
def clear_score(
    scoring: int, lines: int, spin: int, level: int, combo: int, b2b: int, perfect: bool
) -> tuple:
    """Points of one lock's clear (drop points excluded). Returns `(points, combo, b2b)`."""
    if scoring == SCORING_CLASSIC:
        return CLASSIC_CLEAR[lines] * (level + 1), combo, b2b
    points = GUIDELINE_CLEAR[spin, lines] * level
    if lines == 0:
        return points, -1, b2b
    difficult = lines == 4 or spin != SPIN_NONE
    b2b_applied = difficult and b2b == 1
    if b2b_applied:
        points = points * 3 // 2
    new_combo = combo + 1
    if new_combo >= 1:
        points += COMBO_STEP * new_combo * level
    if perfect:
        index = 5 if (lines == 4 and b2b_applied) else lines
        points += PERFECT_CLEAR[index] * level
    return points, new_combo, 1 if difficult else 0


# --- playing ----------------------------------------------------------------------------------
@njit(cache=True, locals={"x0": int64, "y0": int64, "r0": int64})
def spawn(board: np.ndarray, st: np.ndarray, t: int) -> None:
    """Put piece `t` at the spawn position; a collision there is a top-out."""
    st[S_ACTIVE] = t
    st[S_X] = SPAWN_X
    st[S_Y] = SPAWN_Y
    st[S_ROT] = 0
    st[S_LAST_ROT] = 0
    st[S_LAST_KICK] = -1
    st[S_GRAVITY_MS] = 0
    x0, y0, r0 = SPAWN_X, SPAWN_Y, 0  # int64 locals, not literals (the module docstring)
    if collides(board, t, x0, y0, r0):
        st[S_END] = END_TOP_OUT


@njit(cache=True, locals={"no_lines": int64})
def new_game(
    seed: np.uint64,
    board: np.ndarray,
    st: np.ndarray,
    seq: np.ndarray,
    scoring: int,
    start_level: int,
    piece_cap: int,
    tick_cap: int,
) -> None:
    """A whole new game in the given arrays: empty board, the seed's seven-bags, the first piece
    spawned (the candidates are left to the caller)."""
    board[:, :] = 0
    st[:] = 0
    fill_seven_bag(seed, seq)
    st[S_SCORING] = scoring
    st[S_START_LEVEL] = start_level
    st[S_PIECE_CAP] = piece_cap
    st[S_TICK_CAP] = tick_cap
    st[S_HOLD] = EMPTY_HOLD
    st[S_CAN_HOLD] = 1
    st[S_COMBO] = -1
    no_lines = 0
    st[S_LEVEL] = level_for(scoring, start_level, no_lines)
    spawn_next(board, st, seq)


@njit(cache=True, locals={"t": int64})
def spawn_next(board: np.ndarray, st: np.ndarray, seq: np.ndarray) -> None:
    """Take the next piece from the sequence."""
    t = seq[st[S_QPOS]]  # int64, as `hold_piece` spawns it: one `spawn` to compile
    st[S_QPOS] += 1
    spawn(board, st, t)


@njit(cache=True)
def lock_active(board: np.ndarray, st: np.ndarray, seq: np.ndarray, drop_points: int) -> int:
    """Lock the active piece where it is, score it, spawn the next one. Returns the score delta.

    A spin is credited when the last move was a rotation (the caller has not moved it down since).
    """
    t = st[S_ACTIVE]
    x = st[S_X]
    y = st[S_Y]
    r = st[S_ROT]
    spin = SPIN_NONE
    if st[S_LAST_ROT] == 1:
        spin = spin_kind(board, t, x, y, r, st[S_LAST_KICK])
    above = lock_cells(board, t, x, y, r)
    lines = clear_lines(board)
    perfect = lines > 0 and board_empty(board)
    points, combo, b2b = clear_score(
        st[S_SCORING], lines, spin, st[S_LEVEL], st[S_COMBO], st[S_B2B], perfect
    )
    delta = drop_points + points
    st[S_SCORE] += delta
    st[S_LINES] += lines
    st[S_LEVEL] = level_for(st[S_SCORING], st[S_START_LEVEL], st[S_LINES])
    st[S_COMBO] = combo
    st[S_B2B] = b2b
    st[S_PIECES] += 1
    st[S_CAN_HOLD] = 1
    if above:
        st[S_END] = END_TOP_OUT
    elif st[S_PIECES] >= st[S_PIECE_CAP]:
        st[S_END] = END_PIECE_CAP
    else:
        spawn_next(board, st, seq)
    return delta


@njit(cache=True)
def play_placement(board: np.ndarray, st: np.ndarray, seq: np.ndarray, row: np.ndarray) -> int:
    """Hard-drop the active piece to a listed candidate and lock it. Returns the score delta."""
    drop_rows = row[C_Y_LAND] - row[C_Y_START]
    # Replay the spin credit the search found for this placement (it credits reachable spins only).
    st[S_LAST_ROT] = 0 if row[C_SPIN] == SPIN_NONE else 1
    st[S_LAST_KICK] = 4 if row[C_SPIN] == SPIN_FULL else 0
    st[S_X] = row[C_X]
    st[S_ROT] = row[C_ROT]
    st[S_Y] = row[C_Y_LAND]
    drop = 0 if st[S_SCORING] == SCORING_CLASSIC else DROP_POINTS_PER_ROW * drop_rows
    return lock_active(board, st, seq, drop)


@njit(cache=True)
def hold_piece(board: np.ndarray, st: np.ndarray, seq: np.ndarray) -> None:
    """Swap the active piece into the hold slot (an empty slot brings the next piece)."""
    held = st[S_HOLD]
    st[S_HOLD] = st[S_ACTIVE]
    if held < 0:
        spawn_next(board, st, seq)
    else:
        spawn(board, st, held)
    st[S_CAN_HOLD] = 0


@njit(cache=True)
def end_tick(st: np.ndarray) -> None:
    """Count one answered question and apply the tick cap."""
    st[S_TICK] += 1
    if st[S_END] == END_NONE and st[S_TICK] >= st[S_TICK_CAP]:
        st[S_END] = END_TICK_CAP


@njit(cache=True, locals={"no_drop": int64})
def gravity_rows(board: np.ndarray, st: np.ndarray, seq: np.ndarray, rows: int) -> bool:
    """Apply `rows` gravity steps; a step that finds the piece resting locks it. True if locked."""
    no_drop = 0
    for _ in range(rows):
        if collides(board, st[S_ACTIVE], st[S_X], st[S_Y] + 1, st[S_ROT]):
            lock_active(board, st, seq, no_drop)
            return True
        st[S_Y] += 1
        st[S_LAST_ROT] = 0
    return False


# --- RL fast paths ----------------------------------------------------------------------------
@njit(cache=True, locals={"one_row": int64})
def primitive_step(board: np.ndarray, st: np.ndarray, seq: np.ndarray, control: int) -> int:
    """One lockstep decision with primitive controls: the control, then one gravity row.

    A hard drop locks at once (no gravity step that decision). Returns the score delta.
    """
    t = st[S_ACTIVE]
    x = st[S_X]
    y = st[S_Y]
    r = st[S_ROT]
    delta = 0
    one_row = 1  # an int64 local: Blitz's gravity calls `gravity_rows` with int64 too
    if control == LEFT or control == RIGHT:
        nx = x - 1 if control == LEFT else x + 1
        if not collides(board, t, nx, y, r):
            st[S_X] = nx
            st[S_LAST_ROT] = 0
    elif control == ROTATE_CW or control == ROTATE_CCW:
        ok, nx, ny, nr, kick = try_rotate(board, t, x, y, r, 0 if control == ROTATE_CW else 1)
        if ok:
            st[S_X] = nx
            st[S_Y] = ny
            st[S_ROT] = nr
            st[S_LAST_ROT] = 1
            st[S_LAST_KICK] = kick
    elif control == SOFT_DROP:
        if not collides(board, t, x, y + 1, r):
            st[S_Y] = y + 1
            st[S_LAST_ROT] = 0
            if st[S_SCORING] != SCORING_CLASSIC:
                delta += SOFT_DROP_POINTS_PER_ROW
                st[S_SCORE] += SOFT_DROP_POINTS_PER_ROW
    elif control == HARD_DROP:
        rows = drop_distance(board, t, x, y, r)
        if rows > 0:
            st[S_Y] = y + rows
            st[S_LAST_ROT] = 0
        drop = 0 if st[S_SCORING] == SCORING_CLASSIC else DROP_POINTS_PER_ROW * rows
        delta += lock_active(board, st, seq, drop)
        end_tick(st)
        return delta
    before = st[S_SCORE]
    gravity_rows(board, st, seq, one_row)
    delta += st[S_SCORE] - before
    end_tick(st)
    return delta


@njit(cache=True)
def primitive_view(board: np.ndarray, st: np.ndarray, out: np.ndarray) -> None:
    """Board with the stack as 1 and the falling piece as 2 (the primitive observation)."""
    for row in range(H):
        for c in range(W):
            out[row, c] = 1 if board[row, c] != 0 else 0
    if st[S_END] != END_NONE:
        return
    t = st[S_ACTIVE]
    for i in range(4):
        cx = st[S_X] + SHAPES[t, st[S_ROT], i, 0]
        cy = st[S_Y] + SHAPES[t, st[S_ROT], i, 1]
        if 0 <= cy < H and 0 <= cx < W:
            out[cy, cx] = 2


# --- hashing ----------------------------------------------------------------------------------
@njit(cache=True)
def state_hash(board: np.ndarray, st: np.ndarray, seq: np.ndarray) -> np.uint32:
    """FNV-1a over a canonical serialisation of the whole state, the tick included."""
    h = np.uint32(FNV32_OFFSET)
    for row in range(H):
        for c in range(W):
            h = fnv1a32_byte(h, board[row, c])
    for i in range(S_GRAVITY_MS + 1):
        h = fnv1a32_word(h, st[i])
    for k in range(PREVIEW):
        pos = st[S_QPOS] + k
        h = fnv1a32_word(h, seq[pos] if pos < seq.shape[0] else -1)
    return h


@njit(cache=True)
def primitive_step_view(
    board: np.ndarray, st: np.ndarray, seq: np.ndarray, control: int, view: np.ndarray
) -> int:
    """`primitive_step` then `primitive_view` in one call (the RL hot path)."""
    delta = primitive_step(board, st, seq, control)
    primitive_view(board, st, view)
    return delta


@njit(cache=True)
def afterstates(board: np.ndarray, st: np.ndarray, cinfo: np.ndarray, out: np.ndarray) -> None:
    """The board after each listed candidate (locked and cleared) into `out[k]`."""
    t = st[S_ACTIVE]
    for k in range(st[S_NCAND]):
        for row in range(H):  # loops: a slice copy compiles numba's shape-error message
            for col in range(W):
                out[k, row, col] = board[row, col]
        lock_cells(out[k], t, cinfo[k, C_X], cinfo[k, C_Y_LAND], cinfo[k, C_ROT])
        clear_lines(out[k])

"""numba kernels of the Tetris engine: pure functions over numpy arrays, no Python objects.

The whole game state lives in three arrays so one compiled call can do a full step:

- `board`: uint8 (20, 10), 0 empty, `type + 1` for a locked cell;
- `st`: int64 state vector indexed by the `S_*` constants below;
- `seq`: int8 piece sequence (seven-bag), consumed from `st[S_QPOS]`.

Candidate generation writes into preallocated `cinfo` (one row per candidate, columns `C_*`) and
`cfeat` (afterstate features: 10 heights then `rules.FEATURE_NAMES`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

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
    HOLD_ACTION,
    KICKS,
    MIN_X,
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


@njit(cache=True)
def mask_features(rows: np.ndarray, out: np.ndarray) -> None:
    """Heights, holes, bumpiness, wells and transitions as `docs/rules/tetris.md` defines them."""
    mask_features_at(rows, 0, out, 0)


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


# --- candidate search -------------------------------------------------------------------------
# Bitboards: a padded row is 16 bits, column c at bit c + 3, the walls at bits 0-2 and 13-15 (rows
# above the board are walls only, rows below it all ones). `_windows` packs the four padded rows
# from y down into one int64 (row y + dy at bits 16 dy ...), and a piece's cells are packed the
# same way, so "does the piece at (x, y) collide" is one AND. Origins with x outside [-2, 8]
# always collide (no piece fits there), which keeps every shifted mask inside its 16-bit field.
WIN_Y0 = -10  # window index 0 is origin row -10 (two kick rows above Y_MIN)
WIN_LEN = H + 2 - WIN_Y0  # origins up to row 21 (two kick rows below the lowest origin, 19)
PAD = 3
PADDED_WALLS = 0b111 | (0b111 << (PAD + W))
PADDED_FULL = (1 << 16) - 1
X_LO = MIN_X  # leftmost origin any piece fits at (-2)
X_HI = MIN_X + PLACEMENT_XS - 1  # rightmost (8)
N_XS = X_HI - X_LO + 1


def _piece_tables() -> tuple[np.ndarray, ...]:
    """Per (type, rotation): the packed cells and row masks; per box column dx the top and bottom
    cell's dy (-1 for none) and the cell count; the columns (dx range) and rows (dy range) the
    piece spans; and the earlier rotation (if any) that covers the same cells: `canon[t, r] =
    (r', dx, dy)` when `(r, x, y)` covers exactly what `(r', x + dx, y + dy)` covers."""
    packed = np.zeros((7, 4), np.int64)
    rowbits = np.zeros((7, 4, 4), np.int64)
    top = np.full((7, 4, 4), -1, np.int64)
    bottom = np.full((7, 4, 4), -1, np.int64)
    count = np.zeros((7, 4, 4), np.int64)
    dxs = np.zeros((7, 4, 2), np.int64)
    dys = np.zeros((7, 4, 2), np.int64)
    canon = np.zeros((7, 4, 3), np.int64)
    for t in range(7):
        for r in range(4):
            cells = [(int(dx), int(dy)) for dx, dy in SHAPES[t, r]]
            for dx, dy in cells:
                packed[t, r] |= 1 << (16 * dy + dx)
                rowbits[t, r, dy] |= 1 << dx
                count[t, r, dx] += 1
                if top[t, r, dx] < 0 or dy < top[t, r, dx]:
                    top[t, r, dx] = dy
                bottom[t, r, dx] = max(bottom[t, r, dx], dy)
            dxs[t, r] = min(dx for dx, _ in cells), max(dx for dx, _ in cells)
            dys[t, r] = min(dy for _, dy in cells), max(dy for _, dy in cells)
            canon[t, r] = r, 0, 0
            for earlier in range(r):
                base = sorted((int(dx), int(dy)) for dx, dy in SHAPES[t, earlier])
                ox, oy = base[0][0] - min(cells)[0], base[0][1] - min(cells)[1]
                if sorted((dx + ox, dy + oy) for dx, dy in cells) == base:
                    canon[t, r] = earlier, -ox, -oy
                    break
    return packed, rowbits, top, bottom, count, dxs, dys, canon


(
    PIECE_WINDOW,
    PIECE_ROWS,
    PIECE_TOP,
    PIECE_BOTTOM,
    PIECE_COUNT,
    PIECE_DX,
    PIECE_DY,
    PIECE_CANON,
) = _piece_tables()
SPAWN_LAST_ROW = SPAWN_Y + int(max(PIECE_DY[t, 0, 1] for t in range(7)))
"""The lowest board row a spawning piece covers: a lock below it cannot block the spawn."""

# Work buffer layout of `generate_candidates_into` (int64 slots).
_SEARCH_STATES = 4 * 32 * 16  # (rotation, origin row + 10, x + 2) packed as r << 9 | y << 4 | x
WK_QUEUE = 0
WK_WIN = WK_QUEUE + _SEARCH_STATES
WK_ROWS = WK_WIN + WIN_LEN
WK_ROW_TRANS = WK_ROWS + H  # per row: its row transitions
WK_COL_TRANS = WK_ROW_TRANS + H  # per row > 0: column transitions between it and the row above
WK_BUMP = WK_COL_TRANS + H  # per column pair: |h[c] - h[c + 1]|
WK_WELL = WK_BUMP + W  # per column: its well depth
WK_BASE = WK_WELL + W  # the board's features
WK_FLAGS = WK_BASE + FEATURES_LEN  # a full row on the board?, next piece blocked?, floor term
WK_BEST_Y = WK_FLAGS + 3
WK_BEST_MODE = WK_BEST_Y + 4 * N_XS
WK_SLOT = WK_BEST_MODE + 4 * N_XS
WK_SLOT_Y = WK_SLOT + 4 * 16
WK_HEIGHTS = WK_SLOT_Y + 4 * 16  # the board's heights, a wall (WALL_HEIGHT) on either side
WK_SAVED = WK_HEIGHTS + W + 2  # what `_afterstate` overwrites: 4 rows, 4 heights
WK_SCRATCH = WK_SAVED + 8
WORK_LEN = WK_SCRATCH + H
VISITED_LEN = _SEARCH_STATES
WALL_HEIGHT = 1 << 20  # a wall counts as infinitely high for wells


@njit(cache=True)
def _windows(work: np.ndarray) -> None:
    """The board's row masks (`work[WK_ROWS:]`) and the packed four-row windows of the padded
    board (`work[WK_WIN:]`) for every origin row the search can meet."""
    prev3 = 0
    prev2 = 0
    prev1 = 0
    for i in range(WIN_LEN + 3):
        y = i + WIN_Y0
        if y < 0:
            p = PADDED_WALLS
        elif y < H:
            p = PADDED_WALLS | (work[WK_ROWS + y] << PAD)
        else:
            p = PADDED_FULL
        if i >= 3:
            work[WK_WIN + i - 3] = prev3 | (prev2 << 16) | (prev1 << 32) | (p << 48)
        prev3 = prev2
        prev2 = prev1
        prev1 = p


@njit(cache=True)
def _open_air(work: np.ndarray, y0: int) -> bool:
    """Whether board rows 0 .. y0 + 3 (every row a piece at y0 or above covers) are empty and
    above the floor (a rotation there meets no floor either)."""
    if y0 + 3 >= H:
        return False
    for row in range(min(y0 + 4, H)):  # noqa: SIM110  (numba compiles no all() of a generator)
        if work[WK_ROWS + row] != 0:
            return False
    return True


@njit(cache=True)
def _search(
    work: np.ndarray, visited: np.ndarray, t: int, x0: int, y0: int, r0: int, mode0: int
) -> None:
    """Every state reachable by shifts and SRS rotations at or above row y0 (breadth-first).

    `work[WK_BEST_Y + r * N_XS + x - X_LO]` receives the lowest reachable origin row per
    (rotation, x), or Y_MIN - 1, and `work[WK_BEST_MODE + ...]` how that state was entered at
    best: 0 shift, 1 rotation, 2 rotation by the last kick (the spin credit: the best over every
    move into the state). `visited` (one int8 per state) is zero before and after.
    """
    for k in range(4 * N_XS):
        work[WK_BEST_Y + k] = Y_MIN - 1
    if _open_air(work, y0):
        # Nothing on the board at or above the piece's lowest row: shifts and kick-free
        # rotations reach every (rotation, x) that fits between the walls, at row y0. The spin
        # credit does not matter: a T there cannot rest where it is (the row below its box is
        # empty too), and only a T that does not drop can spin.
        for r in range(4):
            piece = PIECE_WINDOW[t, r]
            w = work[WK_WIN + y0 - WIN_Y0]
            for xi in range(N_XS):
                if (w & (piece << (xi + X_LO + PAD))) == 0:
                    work[WK_BEST_Y + r * N_XS + xi] = y0
                    work[WK_BEST_MODE + r * N_XS + xi] = 0
        return
    table = 1 if t == I else 0
    tests = 1 if t == O else 5
    start = (r0 << 9) | ((y0 - WIN_Y0) << 4) | (x0 - X_LO)
    visited[start] = 1 + mode0
    work[WK_QUEUE] = start
    head = 0
    tail = 1
    while head < tail:
        s = work[WK_QUEUE + head]
        head += 1
        r = s >> 9
        y = ((s >> 4) & 31) + WIN_Y0
        x = (s & 15) + X_LO
        w = work[WK_WIN + y - WIN_Y0]
        piece = PIECE_WINDOW[t, r]
        if x > X_LO and visited[s - 1] == 0 and (w & (piece << (x - 1 + PAD))) == 0:
            visited[s - 1] = 1
            work[WK_QUEUE + tail] = s - 1
            tail += 1
        if x < X_HI and visited[s + 1] == 0 and (w & (piece << (x + 1 + PAD))) == 0:
            visited[s + 1] = 1
            work[WK_QUEUE + tail] = s + 1
            tail += 1
        for direction in range(2):
            nr = (r + 1) & 3 if direction == 0 else (r + 3) & 3
            turned = PIECE_WINDOW[t, nr]
            kick = -1
            nx = x
            ny = y
            for k in range(tests):
                nx = x + KICKS[table, r, direction, k, 0]
                ny = y + KICKS[table, r, direction, k, 1]
                if (
                    X_LO <= nx <= X_HI
                    and (work[WK_WIN + ny - WIN_Y0] & (turned << (nx + PAD))) == 0
                ):
                    kick = k
                    break
            if kick < 0 or ny > y0 or ny < Y_MIN:
                continue
            m = 2 if kick == 4 else 1
            ns = (nr << 9) | ((ny - WIN_Y0) << 4) | (nx - X_LO)
            v = visited[ns]
            if v == 0:
                visited[ns] = 1 + m
                work[WK_QUEUE + tail] = ns
                tail += 1
            elif v - 1 < m:
                visited[ns] = 1 + m
    for k in range(tail):
        s = work[WK_QUEUE + k]
        y = ((s >> 4) & 31) + WIN_Y0
        slot = (s >> 9) * N_XS + (s & 15)
        if y > work[WK_BEST_Y + slot]:
            work[WK_BEST_Y + slot] = y
            work[WK_BEST_MODE + slot] = visited[s] - 1
        visited[s] = 0


@njit(cache=True)
def _row_transitions(m: int) -> int:
    walled = (m << 1) | 1 | (1 << (W + 1))  # both walls count as filled
    return POPCOUNT[(walled ^ (walled >> 1)) & ((1 << (W + 1)) - 1)]


@njit(cache=True)
def _base(work: np.ndarray, nt: int) -> None:
    """The board's features and their per-row and per-column terms, which a candidate that
    clears nothing changes only where it lands (`_afterstate`)."""
    mask_features_at(work, WK_ROWS, work, WK_BASE)
    full = 0
    work[WK_COL_TRANS] = 0
    for row in range(H):
        m = work[WK_ROWS + row]
        work[WK_ROW_TRANS + row] = _row_transitions(m)
        if row > 0:
            work[WK_COL_TRANS + row] = POPCOUNT[m ^ work[WK_ROWS + row - 1]]
        if m == FULL_ROW:
            full = 1
    hb = WK_BASE + F_HEIGHTS
    for c in range(W):
        h = work[hb + c]
        if c == 0:
            side = work[hb + 1]
        elif c == W - 1:
            side = work[hb + W - 2]
        else:
            side = min(work[hb + c - 1], work[hb + c + 1])
        work[WK_WELL + c] = side - h if side > h else 0
        if c + 1 < W:
            work[WK_BUMP + c] = abs(h - work[hb + c + 1])
    work[WK_FLAGS] = full
    work[WK_FLAGS + 2] = POPCOUNT[~work[WK_ROWS + H - 1] & FULL_ROW]
    work[WK_HEIGHTS] = WALL_HEIGHT
    work[WK_HEIGHTS + W + 1] = WALL_HEIGHT
    for c in range(W):
        work[WK_HEIGHTS + 1 + c] = work[hb + c]
    blocked = False
    if nt >= 0:
        for dy in range(4):
            row = SPAWN_Y + dy
            if row >= 0 and work[WK_ROWS + row] & (PIECE_ROWS[nt, 0, dy] << SPAWN_X):
                blocked = True
    work[WK_FLAGS + 1] = 1 if blocked else 0


@njit(cache=True)
def _afterstate(
    work: np.ndarray,
    t: int,
    x: int,
    y: int,
    r: int,
    nt: int,
    cfeat: np.ndarray,
    slot: int,
) -> tuple:
    """Lock piece `t` at `(x, y, r)` (resting) on the board (`work[WK_ROWS:]`, left as it was) and
    write the afterstate's features into `cfeat[slot]`; `nt` is the next piece (-1: none).
    Returns `(lines, top out, perfect clear)`.

    A lock that clears nothing and leaves every cell on the board (nearly all of them) changes the
    board only in the rows and columns it touches: the features are `_base`'s, updated there (the
    piece is written into the rows and padded heights in place, then taken out again). Indexes
    the buffers directly: an array view per candidate would cost reference counting.
    """
    a = y + PIECE_DY[t, r, 0]
    b = y + PIECE_DY[t, r, 1]
    lines = 0
    if a >= 0:
        for row in range(a, b + 1):
            m = work[WK_ROWS + row] | ((PIECE_ROWS[t, r, row - y] << (x + PAD)) >> PAD)
            work[WK_SAVED + row - a] = m
            if m == FULL_ROW:
                lines += 1
    if a < 0 or lines > 0 or work[WK_FLAGS] != 0:
        return _afterstate_full(work, t, x, y, r, nt, cfeat[slot])
    for row in range(a, b + 1):  # lock: the new rows in, the old ones saved
        old = work[WK_ROWS + row]
        work[WK_ROWS + row] = work[WK_SAVED + row - a]
        work[WK_SAVED + row - a] = old
    c0 = x + PIECE_DX[t, r, 0]
    c1 = x + PIECE_DX[t, r, 1]
    hp = WK_HEIGHTS + 1  # heights with a wall on either side: hp + c is column c
    holes = work[WK_BASE + F_HOLES]
    aggregate = work[WK_BASE + F_AGGREGATE]
    max_height = work[WK_BASE + F_MAX_HEIGHT]
    for c in range(c0, c1 + 1):
        old = work[hp + c]
        work[WK_SAVED + 4 + c - c0] = old
        h = H - y - PIECE_TOP[t, r, c - x]
        if h > old:
            work[hp + c] = h
            aggregate += h - old
            holes += h - old
            if h > max_height:
                max_height = h
        holes -= PIECE_COUNT[t, r, c - x]
    bumpiness = work[WK_BASE + F_BUMPINESS]
    for c in range(max(c0 - 1, 0), min(c1, W - 2) + 1):
        bumpiness += abs(work[hp + c] - work[hp + c + 1]) - work[WK_BUMP + c]
    wells = work[WK_BASE + F_WELLS]
    for c in range(max(c0 - 1, 0), min(c1 + 1, W - 1) + 1):
        depth = min(work[hp + c - 1], work[hp + c + 1]) - work[hp + c]
        wells += max(depth, 0) - work[WK_WELL + c]
    row_trans = work[WK_BASE + F_ROW_TRANSITIONS]
    for row in range(a, b + 1):
        row_trans += _row_transitions(work[WK_ROWS + row]) - work[WK_ROW_TRANS + row]
    col_trans = work[WK_BASE + F_COL_TRANSITIONS]
    for row in range(max(a, 1), min(b + 1, H - 1) + 1):
        col_trans += POPCOUNT[work[WK_ROWS + row] ^ work[WK_ROWS + row - 1]]
        col_trans -= work[WK_COL_TRANS + row]
    if b == H - 1:  # the floor counts as filled
        col_trans += POPCOUNT[~work[WK_ROWS + H - 1] & FULL_ROW] - work[WK_FLAGS + 2]
    for c in range(W):
        cfeat[slot, F_HEIGHTS + c] = work[hp + c]
    cfeat[slot, F_MAX_HEIGHT] = max_height
    cfeat[slot, F_AGGREGATE] = aggregate
    cfeat[slot, F_HOLES] = holes
    cfeat[slot, F_BUMPINESS] = bumpiness
    cfeat[slot, F_WELLS] = wells
    cfeat[slot, F_ROW_TRANSITIONS] = row_trans
    cfeat[slot, F_COL_TRANSITIONS] = col_trans
    top_out = work[WK_FLAGS + 1] != 0
    if a <= SPAWN_LAST_ROW and nt >= 0:
        top_out = False
        for dy in range(4):
            row = SPAWN_Y + dy
            if row >= 0 and work[WK_ROWS + row] & (PIECE_ROWS[nt, 0, dy] << SPAWN_X):
                top_out = True
    for c in range(c0, c1 + 1):  # take the piece out again
        work[hp + c] = work[WK_SAVED + 4 + c - c0]
    for row in range(a, b + 1):
        work[WK_ROWS + row] = work[WK_SAVED + row - a]
    return 0, top_out, False


@njit(cache=True)
def _afterstate_full(
    work: np.ndarray, t: int, x: int, y: int, r: int, nt: int, feat: np.ndarray
) -> tuple:
    """`_afterstate` the long way: lock and clear on a copy of the rows, features from scratch."""
    scratch = work[WK_SCRATCH : WK_SCRATCH + H]
    scratch[:] = work[WK_ROWS : WK_ROWS + H]
    lines, above = lock_and_clear_masks(scratch, t, x, y, r)
    perfect = False
    if lines > 0:
        perfect = True
        for row in range(H):
            if scratch[row] != 0:
                perfect = False
                break
    mask_features(scratch, feat)
    top_out = above or (nt >= 0 and _mask_collides(scratch, nt, SPAWN_X, SPAWN_Y, 0))
    return lines, top_out, perfect


@njit(cache=True)
def generate_candidates(
    board: np.ndarray, st: np.ndarray, seq: np.ndarray, cinfo: np.ndarray, cfeat: np.ndarray
) -> int:
    """List every distinct placement of the active piece from its current position.

    Candidates are in (rotation, x) order; identical outcomes keep the one that scores more (on a
    tie the lower rotation). Returns the count and stores it in `st[S_NCAND]`.
    """
    work = np.empty(WORK_LEN, np.int64)
    visited = np.zeros(VISITED_LEN, np.int8)
    return generate_candidates_into(board, st, seq, cinfo, cfeat, work, visited)


@njit(cache=True)
def generate_candidates_into(
    board: np.ndarray,
    st: np.ndarray,
    seq: np.ndarray,
    cinfo: np.ndarray,
    cfeat: np.ndarray,
    work: np.ndarray,
    visited: np.ndarray,
) -> int:
    """`generate_candidates` with caller-owned buffers (`WORK_LEN` int64, `VISITED_LEN` int8
    zeros, left zeroed), so a batch of games allocates nothing per step."""
    t = st[S_ACTIVE]
    nt = seq[st[S_QPOS]] if st[S_QPOS] < seq.shape[0] else -1
    for row in range(H):
        m = 0
        for c in range(W):
            if board[row, c] != 0:
                m |= 1 << c
        work[WK_ROWS + row] = m
    _windows(work)
    initial_mode = 0
    if st[S_LAST_ROT] == 1:
        initial_mode = 2 if st[S_LAST_KICK] == 4 else 1
    _search(work, visited, t, st[S_X], st[S_Y], st[S_ROT], initial_mode)
    _base(work, nt)
    for k in range(64):
        work[WK_SLOT + k] = -1
    scoring = st[S_SCORING]
    level = st[S_LEVEL]
    combo = st[S_COMBO]
    b2b = st[S_B2B]
    n = 0
    for r in range(4):
        piece = PIECE_WINDOW[t, r]
        for xi in range(N_XS):
            y = work[WK_BEST_Y + r * N_XS + xi]
            if y < Y_MIN:
                continue
            x = xi + X_LO
            # Hard drop: from the column heights when the piece is above the stack in every
            # column it spans, else row by row.
            fall = H
            for c in range(x + PIECE_DX[t, r, 0], x + PIECE_DX[t, r, 1] + 1):
                room = H - work[WK_BASE + F_HEIGHTS + c] - 1 - y - PIECE_BOTTOM[t, r, c - x]
                if room < 0:
                    fall = -1
                    break
                fall = min(fall, room)
            land = y + fall
            if fall < 0:
                shifted = piece << (x + PAD)
                land = y
                while (work[WK_WIN + land + 1 - WIN_Y0] & shifted) == 0:
                    land += 1
            drop_rows = land - y
            spin = SPIN_NONE
            mode = work[WK_BEST_MODE + r * N_XS + xi]
            if drop_rows == 0 and mode > 0:
                spin = spin_kind(board, t, x, land, r, 4 if mode == 2 else 0)
            drop = 0 if scoring == SCORING_CLASSIC else DROP_POINTS_PER_ROW * drop_rows
            # Same cells as an earlier placement? Only a rotation with the shape of an earlier one
            # can be (I, O, S, Z); it maps onto one (rotation, x, row) of that earlier rotation.
            key = PIECE_CANON[t, r, 0] * 16 + x + PIECE_CANON[t, r, 1] - X_LO + 1
            key_y = land + PIECE_CANON[t, r, 2]
            slot = work[WK_SLOT + key]
            if slot >= 0 and work[WK_SLOT_Y + key] == key_y:
                lines = cinfo[slot, C_LINES]
                perfect = lines > 0 and cfeat[slot, F_AGGREGATE] == 0
                points, _, _ = clear_score(scoring, lines, spin, level, combo, b2b, perfect)
                if drop + points <= cinfo[slot, C_SCORE_DELTA]:
                    continue
            else:
                slot = n
                n += 1
                if work[WK_SLOT + key] < 0:
                    work[WK_SLOT + key] = slot
                    work[WK_SLOT_Y + key] = key_y
                lines, top_out, perfect = _afterstate(work, t, x, land, r, nt, cfeat, slot)
                points, _, _ = clear_score(scoring, lines, spin, level, combo, b2b, perfect)
                cinfo[slot, C_LINES] = lines
                cinfo[slot, C_TOP_OUT] = 1 if top_out else 0
            cinfo[slot, C_X] = x
            cinfo[slot, C_ROT] = r
            cinfo[slot, C_Y_START] = y
            cinfo[slot, C_Y_LAND] = land
            cinfo[slot, C_SCORE_DELTA] = drop + points
            cinfo[slot, C_DROP] = drop
            cinfo[slot, C_CLEAR] = points
            cinfo[slot, C_SPIN] = spin
            cinfo[slot, C_ACTION] = r * PLACEMENT_XS + x - MIN_X
    st[S_NCAND] = n
    return n


# --- playing ----------------------------------------------------------------------------------
@njit(cache=True)
def spawn(board: np.ndarray, st: np.ndarray, t: int) -> None:
    """Put piece `t` at the spawn position; a collision there is a top-out."""
    st[S_ACTIVE] = t
    st[S_X] = SPAWN_X
    st[S_Y] = SPAWN_Y
    st[S_ROT] = 0
    st[S_LAST_ROT] = 0
    st[S_LAST_KICK] = -1
    st[S_GRAVITY_MS] = 0
    if collides(board, t, SPAWN_X, SPAWN_Y, 0):
        st[S_END] = END_TOP_OUT


@njit(cache=True)
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
    st[S_LEVEL] = level_for(scoring, start_level, 0)
    spawn_next(board, st, seq)


@njit(cache=True)
def spawn_next(board: np.ndarray, st: np.ndarray, seq: np.ndarray) -> None:
    """Take the next piece from the sequence."""
    t = seq[st[S_QPOS]]
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


@njit(cache=True)
def gravity_rows(board: np.ndarray, st: np.ndarray, seq: np.ndarray, rows: int) -> bool:
    """Apply `rows` gravity steps; a step that finds the piece resting locks it. True if locked."""
    for _ in range(rows):
        if collides(board, st[S_ACTIVE], st[S_X], st[S_Y] + 1, st[S_ROT]):
            lock_active(board, st, seq, 0)
            return True
        st[S_Y] += 1
        st[S_LAST_ROT] = 0
    return False


# --- RL fast paths ----------------------------------------------------------------------------
@njit(cache=True)
def fill_action_view(
    st: np.ndarray, cinfo: np.ndarray, cfeat: np.ndarray, mask: np.ndarray, featmat: np.ndarray
) -> None:
    """Project the listed candidates onto the fixed (rotation, x) + hold action layout.

    The new rows are written over the old (marked 2 meanwhile), then only the rows of old actions
    no longer listed are cleared: a row whose mask is 0 is zero already (this function is the
    only writer of both).
    """
    if st[S_END] == END_NONE:
        for k in range(st[S_NCAND]):
            a = cinfo[k, C_ACTION]
            mask[a] = 2
            featmat[a, 0] = cinfo[k, C_LINES]
            featmat[a, 1] = cinfo[k, C_SCORE_DELTA]
            featmat[a, 2] = cinfo[k, C_TOP_OUT]
            for f in range(7):
                featmat[a, 3 + f] = cfeat[k, F_MAX_HEIGHT + f]
    for a in range(mask.shape[0]):
        if mask[a] == 2:
            mask[a] = 1
        elif mask[a] != 0:
            mask[a] = 0
            for f in range(featmat.shape[1]):
                featmat[a, f] = 0.0
    if st[S_END] == END_NONE and st[S_CAN_HOLD] == 1:
        mask[HOLD_ACTION] = 1


@njit(cache=True)
def fill_landing_columns(
    board: np.ndarray, st: np.ndarray, cinfo: np.ndarray, featmat: np.ndarray
) -> None:
    """Columns 10 and 11 of an extended `featmat` (landingHeight, erodedCells) for the listed
    candidates, after `fill_action_view` (which zeroes the unlisted rows); a basic (10-column)
    `featmat` is left alone."""
    if featmat.shape[1] <= EXTENDED_FROM or st[S_END] != END_NONE:
        return
    rows = np.empty(H, np.int64)
    row_masks(board, rows)
    t = st[S_ACTIVE]
    for k in range(st[S_NCAND]):
        landing, _, eroded = landing_features(
            rows, t, cinfo[k, C_X], cinfo[k, C_ROT], cinfo[k, C_Y_LAND]
        )
        a = cinfo[k, C_ACTION]
        featmat[a, EXTENDED_FROM] = landing
        featmat[a, EXTENDED_FROM + 1] = eroded


@njit(cache=True)
def placement_step(
    board: np.ndarray,
    st: np.ndarray,
    seq: np.ndarray,
    action: int,
    cinfo: np.ndarray,
    cfeat: np.ndarray,
    mask: np.ndarray,
    featmat: np.ndarray,
) -> int:
    """One `Tetris-v3` step: play the placement (or hold) at `action`, list the next candidates.

    The caller has checked `mask[action]`. Returns the score delta.
    """
    work = np.empty(WORK_LEN, np.int64)
    visited = np.zeros(VISITED_LEN, np.int8)
    return placement_step_into(board, st, seq, action, cinfo, cfeat, mask, featmat, work, visited)


@njit(cache=True)
def placement_step_into(
    board: np.ndarray,
    st: np.ndarray,
    seq: np.ndarray,
    action: int,
    cinfo: np.ndarray,
    cfeat: np.ndarray,
    mask: np.ndarray,
    featmat: np.ndarray,
    work: np.ndarray,
    visited: np.ndarray,
) -> int:
    """`placement_step` with the search buffers of `generate_candidates_into`."""
    delta = 0
    if action == HOLD_ACTION:
        hold_piece(board, st, seq)
    else:
        for k in range(st[S_NCAND]):
            if cinfo[k, C_ACTION] == action:
                delta = play_placement(board, st, seq, cinfo[k])
                break
    end_tick(st)
    list_candidates_into(board, st, seq, cinfo, cfeat, work, visited)
    fill_action_view(st, cinfo, cfeat, mask, featmat)
    fill_landing_columns(board, st, cinfo, featmat)
    return delta


@njit(cache=True)
def list_candidates_into(
    board: np.ndarray,
    st: np.ndarray,
    seq: np.ndarray,
    cinfo: np.ndarray,
    cfeat: np.ndarray,
    work: np.ndarray,
    visited: np.ndarray,
) -> None:
    """The candidates of the piece in play (`generate_candidates_into`), none once it is over."""
    if st[S_END] == END_NONE:
        generate_candidates_into(board, st, seq, cinfo, cfeat, work, visited)
    else:
        st[S_NCAND] = 0


@njit(cache=True)
def primitive_step(board: np.ndarray, st: np.ndarray, seq: np.ndarray, control: int) -> int:
    """One lockstep decision with primitive controls: the control, then one gravity row.

    A hard drop locks at once (no gravity step that decision). Returns the score delta.
    """
    t = st[S_ACTIVE]
    x = st[S_X]
    y = st[S_Y]
    r = st[S_ROT]
    delta = 0
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
    gravity_rows(board, st, seq, 1)
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
        out[k, :, :] = board
        lock_cells(out[k], t, cinfo[k, C_X], cinfo[k, C_Y_LAND], cinfo[k, C_ROT])
        clear_lines(out[k])

"""The Tetris candidate search and the placement env's step: numba kernels over the engine's arrays.

`generate_candidates_into` lists every placement the piece in play can reach (shifts and SRS
rotations at or above its row, then a hard drop) with its outcome row (`engine.C_*`) and afterstate
features, on bitboards (one AND per collision test). `placement_step_into` is one `Tetris-v3`
step: play the chosen placement or hold, list the next candidates, project them onto the fixed
action layout. The state layout, geometry, scoring and play kernels are `engine.py`'s.

Compile time: numba compiles a kernel once per argument types, and a literal constant passed to
another kernel is a type of its own (`Literal[int](0)`): where a kernel is also called with
int64, the constant goes through an int64 local (`locals=`), so the callee compiles once. Array
copies are loops (a slice copy compiles a shape-error message).
"""

from __future__ import annotations

import threading

import numpy as np
from numba import int64, njit

from arcade_gym.tetris.engine import (
    C_ACTION,
    C_CLEAR,
    C_DROP,
    C_LINES,
    C_ROT,
    C_SCORE_DELTA,
    C_SPIN,
    C_TOP_OUT,
    C_X,
    C_Y_LAND,
    C_Y_START,
    EXTENDED_FROM,
    F_AGGREGATE,
    F_BUMPINESS,
    F_COL_TRANSITIONS,
    F_HEIGHTS,
    F_HOLES,
    F_MAX_HEIGHT,
    F_ROW_TRANSITIONS,
    F_WELLS,
    FEATURES_LEN,
    FULL_ROW,
    POPCOUNT,
    S_ACTIVE,
    S_B2B,
    S_CAN_HOLD,
    S_COMBO,
    S_END,
    S_LAST_KICK,
    S_LAST_ROT,
    S_LEVEL,
    S_NCAND,
    S_QPOS,
    S_ROT,
    S_SCORING,
    S_X,
    S_Y,
    Y_MIN,
    H,
    W,
    _mask_collides,
    clear_score,
    end_tick,
    hold_piece,
    landing_features,
    lock_and_clear_masks,
    mask_features,
    mask_features_at,
    play_placement,
    row_masks,
    spin_kind,
)
from arcade_gym.tetris.rules import (
    DROP_POINTS_PER_ROW,
    END_NONE,
    HOLD_ACTION,
    KICKS,
    MIN_X,
    PLACEMENT_XS,
    SCORING_CLASSIC,
    SHAPES,
    SPAWN_X,
    SPAWN_Y,
    SPIN_NONE,
    I,
    O,
)

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

_SCRATCH = threading.local()


def scratch() -> tuple[np.ndarray, np.ndarray]:
    """This thread's search buffers for the `_into` kernels (`WORK_LEN` int64, `VISITED_LEN` int8,
    zero between calls). Python callers pass them rather than call the allocating wrappers
    (`generate_candidates`, `placement_step`), each a kernel of its own to compile."""
    pair: tuple[np.ndarray, np.ndarray] | None = getattr(_SCRATCH, "pair", None)
    if pair is None:
        pair = (np.empty(WORK_LEN, np.int64), np.zeros(VISITED_LEN, np.int8))
        _SCRATCH.pair = pair
    return pair


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


@njit(cache=True, locals={"rows_at": int64, "base_at": int64})
def _base(work: np.ndarray, nt: int) -> None:
    """The board's features and their per-row and per-column terms, which a candidate that
    clears nothing changes only where it lands (`_afterstate`)."""
    rows_at = WK_ROWS  # int64 locals, not literals (the module docstring says why)
    base_at = WK_BASE
    mask_features_at(work, rows_at, work, base_at)
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
    for row in range(H):  # a loop, not a slice copy: that compiles a shape-error message
        scratch[row] = work[WK_ROWS + row]
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


@njit(cache=True, locals={"n": int64})
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
    n = 0  # an int64 local: a literal 0 would compile `_afterstate` for 0, then for int64
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
    if st[S_END] == END_NONE:  # `list_candidates_into`, inline: one kernel fewer to compile
        generate_candidates_into(board, st, seq, cinfo, cfeat, work, visited)
    else:
        st[S_NCAND] = 0
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

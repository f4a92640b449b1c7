"""The candidate generator as it was before the bitboard search: the exactness oracle.

`arcade_gym/tetris/candidates.py: generate_candidates` must list exactly what this breadth-first
search over cell collisions lists (same rows, same order, same features); kept only for the
tests in `tests/tetris/test_candidate_search.py`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

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
    CINFO_LEN,
    FEATURES_LEN,
    MAX_CANDIDATES,
    S_ACTIVE,
    S_B2B,
    S_COMBO,
    S_LAST_KICK,
    S_LAST_ROT,
    S_LEVEL,
    S_NCAND,
    S_QPOS,
    S_ROT,
    S_SCORING,
    S_X,
    S_Y,
    X_OFF,
    X_SPAN,
    Y_MIN,
    Y_SPAN,
    H,
    W,
    _mask_collides,
    clear_score,
    collides,
    lock_and_clear_masks,
    mask_features,
    row_masks,
    spin_kind,
    try_rotate,
)
from arcade_gym.tetris.rules import (
    DROP_POINTS_PER_ROW,
    MIN_X,
    PLACEMENT_XS,
    SCORING_CLASSIC,
    SHAPES,
    SPAWN_X,
    SPAWN_Y,
    SPIN_NONE,
)


# --- candidate search -------------------------------------------------------------------------
@njit
def _reachable(
    board: np.ndarray,
    t: int,
    x0: int,
    y0: int,
    r0: int,
    mode0: int,
    best_y: np.ndarray,
    mode: np.ndarray,
) -> None:
    """Breadth-first search over shifts and rotations at or above row y0.

    `best_y[r, x + X_OFF]` receives the lowest reachable origin row per (rotation, x), or Y_MIN - 1,
    and `mode` how that state was last entered: 0 shift, 1 rotation, 2 rotation by the last kick.
    """
    visited = np.zeros((4, Y_SPAN, X_SPAN), np.int8)
    qx = np.empty(4 * Y_SPAN * X_SPAN, np.int64)
    qy = np.empty_like(qx)
    qr = np.empty_like(qx)
    best_y[:, :] = Y_MIN - 1
    head = 0
    tail = 0
    visited[r0, y0 - Y_MIN, x0 + X_OFF] = 1 + mode0
    qx[tail] = x0
    qy[tail] = y0
    qr[tail] = r0
    tail += 1
    while head < tail:
        x = qx[head]
        y = qy[head]
        r = qr[head]
        head += 1
        if y > best_y[r, x + X_OFF]:
            best_y[r, x + X_OFF] = y
        for move in range(4):
            nx, ny, nr, m = x, y, r, 0
            if move < 2:
                nx = x - 1 if move == 0 else x + 1
                if collides(board, t, nx, ny, nr):
                    continue
            else:
                ok, nx, ny, nr, kick = try_rotate(board, t, x, y, r, move - 2)
                if not ok:
                    continue
                m = 2 if kick == 4 else 1
            if ny > y0 or ny < Y_MIN or nx + X_OFF < 0 or nx + X_OFF >= X_SPAN:
                continue
            v = visited[nr, ny - Y_MIN, nx + X_OFF]
            if v == 0:
                visited[nr, ny - Y_MIN, nx + X_OFF] = 1 + m
                qx[tail] = nx
                qy[tail] = ny
                qr[tail] = nr
                tail += 1
            elif v - 1 < m:
                visited[nr, ny - Y_MIN, nx + X_OFF] = 1 + m  # same state, better spin credit
    for r in range(4):
        for xi in range(X_SPAN):
            if best_y[r, xi] >= Y_MIN:
                mode[r, xi] = visited[r, best_y[r, xi] - Y_MIN, xi] - 1


@njit
def _first_filled_below(board: np.ndarray) -> np.ndarray:
    """`out[c, row]` = the first filled row at or below `row` in column c (H for the floor)."""
    out = np.empty((W, H + 1), np.int64)
    for c in range(W):
        nearest = H
        out[c, H] = H
        for row in range(H - 1, -1, -1):
            if board[row, c] != 0:
                nearest = row
            out[c, row] = nearest
    return out


@njit
def _drop_rows(below: np.ndarray, t: int, x: int, y: int, r: int) -> int:
    """Hard-drop distance of a piece that does not collide where it is (table lookup)."""
    rows = H
    for i in range(4):
        cx = x + SHAPES[t, r, i, 0]
        cy = y + SHAPES[t, r, i, 1]
        gap = below[cx, max(cy + 1, 0)] - cy - 1
        if gap < rows:
            rows = gap
    return rows


@njit
def _cells_key(t: int, x: int, y: int, r: int) -> int:
    """Order-free key of the four cells a piece covers (to dedupe identical outcomes).

    Cells are indexed in the search box, sorted with a five-comparator network (no allocation).
    """
    base_x = x + X_OFF
    base_y = y - Y_MIN
    a = (base_y + SHAPES[t, r, 0, 1]) * X_SPAN + base_x + SHAPES[t, r, 0, 0]
    b = (base_y + SHAPES[t, r, 1, 1]) * X_SPAN + base_x + SHAPES[t, r, 1, 0]
    c = (base_y + SHAPES[t, r, 2, 1]) * X_SPAN + base_x + SHAPES[t, r, 2, 0]
    d = (base_y + SHAPES[t, r, 3, 1]) * X_SPAN + base_x + SHAPES[t, r, 3, 0]
    if a > b:
        a, b = b, a
    if c > d:
        c, d = d, c
    if a > c:
        a, c = c, a
    if b > d:
        b, d = d, b
    if b > c:
        b, c = c, b
    return ((a * 512 + b) * 512 + c) * 512 + d


@njit
def simulate_lock(
    rows: np.ndarray,
    scratch: np.ndarray,
    st: np.ndarray,
    seq: np.ndarray,
    t: int,
    x: int,
    y_land: int,
    r: int,
    drop_rows: int,
    spin: int,
    row: np.ndarray,
    feat: np.ndarray,
) -> None:
    """Play a lock on a copy of the row masks; fill one candidate row and its afterstate features.

    Scores exactly as `lock_active` will when the placement is played.
    """
    scratch[:] = rows
    lines, above = lock_and_clear_masks(scratch, t, x, y_land, r)
    perfect = lines > 0 and not scratch.any()
    points, _, _ = clear_score(
        st[S_SCORING], lines, spin, st[S_LEVEL], st[S_COMBO], st[S_B2B], perfect
    )
    drop = 0 if st[S_SCORING] == SCORING_CLASSIC else DROP_POINTS_PER_ROW * drop_rows
    top_out = above
    if not top_out and st[S_QPOS] < seq.shape[0]:
        top_out = _mask_collides(scratch, seq[st[S_QPOS]], SPAWN_X, SPAWN_Y, 0)
    row[C_LINES] = lines
    row[C_DROP] = drop
    row[C_CLEAR] = points
    row[C_SCORE_DELTA] = drop + points
    row[C_TOP_OUT] = 1 if top_out else 0
    row[C_SPIN] = spin
    mask_features(scratch, feat)


@njit
def oracle_candidates(
    board: np.ndarray, st: np.ndarray, seq: np.ndarray, cinfo: np.ndarray, cfeat: np.ndarray
) -> int:
    """List every distinct placement of the active piece from its current position.

    Candidates are in (rotation, x) order; identical outcomes keep the one that scores more (on a
    tie the lower rotation). Returns the count and stores it in `st[S_NCAND]`.
    """
    t = st[S_ACTIVE]
    best_y = np.empty((4, X_SPAN), np.int64)
    mode = np.zeros((4, X_SPAN), np.int64)
    initial_mode = 0
    if st[S_LAST_ROT] == 1:
        initial_mode = 2 if st[S_LAST_KICK] == 4 else 1
    _reachable(board, t, st[S_X], st[S_Y], st[S_ROT], initial_mode, best_y, mode)
    keys = np.empty(MAX_CANDIDATES, np.int64)
    rows = np.empty(H, np.int64)
    row_masks(board, rows)
    below = _first_filled_below(board)
    scratch = np.empty(H, np.int64)
    spare_row = np.empty(CINFO_LEN, np.int64)
    spare_feat = np.empty(FEATURES_LEN, np.int64)
    n = 0
    for r in range(4):
        for xi in range(X_SPAN):
            y = best_y[r, xi]
            if y < Y_MIN:
                continue
            x = xi - X_OFF
            drop_rows = _drop_rows(below, t, x, y, r)
            y_land = y + drop_rows
            spin = SPIN_NONE
            if drop_rows == 0 and mode[r, xi] > 0:
                spin = spin_kind(board, t, x, y_land, r, 4 if mode[r, xi] == 2 else 0)
            key = _cells_key(t, x, y_land, r)
            slot = n
            for k in range(n):
                if keys[k] == key:
                    slot = k
                    break
            target = cinfo[slot]
            if slot < n:
                # Same outcome as an earlier (lower-rotation) placement: keep the higher score.
                simulate_lock(
                    rows, scratch, st, seq, t, x, y_land, r, drop_rows, spin, spare_row, spare_feat
                )
                if spare_row[C_SCORE_DELTA] <= target[C_SCORE_DELTA]:
                    continue
                target[:] = spare_row
                cfeat[slot, :] = spare_feat
            else:
                simulate_lock(
                    rows, scratch, st, seq, t, x, y_land, r, drop_rows, spin, target, cfeat[slot]
                )
                keys[n] = key
                n += 1
            target[C_X] = x
            target[C_ROT] = r
            target[C_Y_START] = y
            target[C_Y_LAND] = y_land
            target[C_ACTION] = r * PLACEMENT_XS + x - MIN_X
    st[S_NCAND] = n
    return n

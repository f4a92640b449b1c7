"""numba kernels behind the Tetris heuristic and search brains.

Boards are 20 row masks (bit c = column c filled, row 0 at the top), the form `engine.row_masks`
makes, because a lock, a line clear and every feature below are a few integer operations per row
on them. The search expands one beam layer per call so the Python side can watch the clock
between layers; everything inside a layer (placements, locks, evaluation, selection) stays here,
as do the perfect-clear search and the El-Tetris features of the heuristic brain.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from arcade_gym.tetris.engine import clear_score, landing_features, lock_and_clear_masks
from arcade_gym.tetris.rules import (
    BOARD_HEIGHT,
    BOARD_WIDTH,
    PERFECT_CLEAR,
    SHAPES,
    SPAWN_X,
    SPAWN_Y,
    I,
    O,
    S,
    Z,
)

W = BOARD_WIDTH
H = BOARD_HEIGHT
FULL = (1 << W) - 1
EMPTY = -1
DEAD = -1.0e9
"""Value of a line that tops out: below anything a living board can score."""


def _geometry() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per (piece, rotation): first and last column offsets and each column's lowest cell, so a
    hard drop's landing row is a min over a few columns."""
    col_min = np.zeros((7, 4), np.int64)
    col_max = np.zeros((7, 4), np.int64)
    bottom = np.full((7, 4, 4), -1, np.int64)
    for t in range(7):
        for r in range(4):
            dxs = SHAPES[t, r, :, 0]
            col_min[t, r] = dxs.min()
            col_max[t, r] = dxs.max()
            for dx, dy in SHAPES[t, r]:
                k = dx - col_min[t, r]
                bottom[t, r, k] = max(bottom[t, r, k], dy)
    n_rot = np.full(7, 4, np.int64)
    n_rot[[I, S, Z]] = 2  # rotations 2 and 3 drop to the same cells as 0 and 1
    n_rot[O] = 1
    return col_min, col_max, bottom, n_rot


COL_MIN, COL_MAX, BOTTOM, N_ROT = _geometry()

# --- evaluation weights (indices into the weight vector) -------------------------------------
W_HOLES = 0  # per covered empty cell
W_COVER = 1  # per filled cell above a hole (capped per hole)
W_BUMP = 2  # |h[c] - h[c+1]| over the stack, the well left out
W_BUMP2 = 3  # the same, squared
W_ROW_TRANS = 4  # row transitions with the well counted as filled
W_MAX_HEIGHT = 5  # tallest non-well column
W_AGG_HEIGHT = 6  # summed non-well heights
W_TOP_HALF = 7  # column height above 10 rows, summed
W_TOP_QUARTER = 8  # column height above 15 rows, summed
W_READY = 9  # per ready row (full but for the well) up to four
W_READY_EXTRA = 10  # per ready row beyond four
W_DEP2 = 11  # non-well pits two deep
W_DEP3 = 12  # non-well pits three or more deep (only an I fills them)
W_HOLD_I = 13  # an I kept in hold
W_B2B_STATE = 14  # back-to-back still alive at the leaf
W_TETRIS = 15  # a tetris
W_B2B_CLEAR = 16  # extra for a back-to-back tetris
W_CLEAR1 = 17  # single
W_CLEAR2 = 18  # double
W_CLEAR3 = 19  # triple
W_PERFECT = 20  # back-to-back tetris perfect clear (others get their share of the bonus table)
W_WELL_EDGE = 21  # well column at an edge (0 or 9)
W_WELL_DEPTH = 22  # well depth beyond the ready rows (min neighbour height - well height)
W_DANGER = 23  # height above which non-tetris clears stop being punished
W_HOLD_BAD = 24  # an S or Z kept in hold
W_COVER_CAP = 25  # cap of W_COVER per hole
W_SPAWN = 26  # cells in the spawn rows (0-3) of columns 3-6
W_ABOVE_FOUR = 27  # non-well column height above four rows (what keeps perfect clears possible)
W_PC_READY = 28  # the whole stack inside four rows, hole-free and tileable by tetrominoes
N_WEIGHTS = 29


@njit(cache=True)
def popcount(m: int) -> int:
    """Set bits of a small mask."""
    n = 0
    while m:
        m &= m - 1
        n += 1
    return n


@njit(cache=True)
def heights_of(rows: np.ndarray, h: np.ndarray) -> None:
    """Column heights (20 - top filled row, 0 when empty)."""
    for c in range(W):
        h[c] = 0
    seen = 0
    for row in range(H):
        new = rows[row] & ~seen
        if new:
            for c in range(W):
                if (new >> c) & 1:
                    h[c] = H - row
            seen |= new
            if seen == FULL:
                break


@njit(cache=True)
def landing_y(h: np.ndarray, t: int, r: int, x: int) -> int:
    """Origin row where piece `t` at rotation `r`, column `x` comes to rest after a hard drop from
    above the stack (only column tops matter on the way down)."""
    y = 1 << 20
    for k in range(COL_MAX[t, r] - COL_MIN[t, r] + 1):
        c = x + COL_MIN[t, r] + k
        cand = H - h[c] - 1 - BOTTOM[t, r, k]
        if cand < y:
            y = cand
    return y


@njit(cache=True)
def drop_placements(h: np.ndarray, t: int, xs: np.ndarray, rs: np.ndarray, ys: np.ndarray) -> int:
    """Distinct hard-drop placements of piece `t` reachable by shifting at spawn height.

    A placement needs every column between the spawn column and its own to be free at the spawn
    row, which is all the search needs: the root uses the engine's exact candidate list.
    """
    n = 0
    for r in range(N_ROT[t]):
        lo = -COL_MIN[t, r]
        hi = W - 1 - COL_MAX[t, r]
        # walk out from the spawn column in both directions while the piece fits at spawn height
        for direction in range(2):
            x = SPAWN_X if direction == 0 else SPAWN_X + 1
            step = -1 if direction == 0 else 1
            while lo <= x <= hi:
                y = landing_y(h, t, r, x)
                if y < SPAWN_Y:
                    break
                xs[n] = x
                rs[n] = r
                ys[n] = y
                n += 1
                x += step
    return n


@njit(cache=True)
def spawn_blocked(rows: np.ndarray, next_piece: int) -> bool:
    """Whether the next piece collides at its spawn position (a top-out)."""
    for i in range(4):
        cy = SPAWN_Y + SHAPES[next_piece, 0, i, 1]
        if cy >= 0 and (rows[cy] >> (SPAWN_X + SHAPES[next_piece, 0, i, 0])) & 1:
            return True
    return False


@njit(cache=True)
def well_column(h: np.ndarray) -> int:
    """The well: the lowest column; ties go to the right edge, the left edge, then right to left."""
    best = W - 1
    for c in (0, 8, 7, 6, 5, 4, 3, 2, 1):
        if h[c] < h[best]:
            best = c
    return best


@njit(cache=True)
def _tileable(h: np.ndarray, limit: int) -> bool:
    """Every stretch of columns between full-height ones leaves a multiple of four empty cells
    below `limit` (a piece can never straddle a full column, and line clears keep the counts)."""
    empty = 0
    for c in range(W):
        if h[c] > limit:
            return False
        if h[c] == limit:
            if empty % 4:
                return False
            empty = 0
        else:
            empty += limit - h[c]
    return empty % 4 == 0


@njit(cache=True)
def evaluate(rows: np.ndarray, hold: int, b2b: int, wt: np.ndarray, h: np.ndarray) -> float:
    """Static value of a board for building back-to-back tetrises (higher is better).

    One open well (the lowest column) collects rows that are full but for it; the rest of the
    stack should be flat, hole-free and low enough to stay away from the spawn rows. A stack that
    fits in four tileable rows earns a bonus: from there a perfect clear stays possible.
    """
    heights_of(rows, h)
    w = well_column(h)
    wbit = 1 << w
    # holes and the cells covering them (the column walk only when there are holes)
    holes = 0
    covered = 0
    for row in range(H):
        holes += popcount(covered & ~rows[row] & FULL)
        covered |= rows[row]
    cover = 0
    if holes:
        cap = wt[W_COVER_CAP]
        for c in range(W):
            filled = 0
            for row in range(H - h[c], H):
                if (rows[row] >> c) & 1:
                    filled += 1
                else:
                    cover += min(filled, cap)
    # the stack without the well
    bump = 0
    bump2 = 0
    max_h = 0
    agg = 0
    top_half = 0
    top_quarter = 0
    above_four = 0
    dep2 = 0
    dep3 = 0
    prev = -1
    for c in range(W):
        hc = h[c]
        if hc > 10:
            top_half += hc - 10
        if hc > 15:
            top_quarter += hc - 15
        if c == w:
            continue
        agg += hc
        if hc > 4:
            above_four += hc - 4
        if hc > max_h:
            max_h = hc
        if prev >= 0:
            d = abs(hc - h[prev])
            bump += d
            bump2 += d * d
        prev = c
        left = 99 if (c == 0 or c - 1 == w) else h[c - 1]
        right = 99 if (c == W - 1 or c + 1 == w) else h[c + 1]
        depth = min(left, right) - hc
        if depth >= 3:
            dep3 += 1
        elif depth == 2:
            dep2 += 1
    # row transitions, the well counted as filled, over the occupied rows
    row_trans = 0
    for row in range(H - max_h, H):
        m = rows[row] | wbit
        walled = (m << 1) | 1 | (1 << (W + 1))
        row_trans += popcount((walled ^ (walled >> 1)) & ((1 << (W + 1)) - 1))
    # rows an I in the well would clear
    ready = 0
    row = H - 1 - h[w]
    while row >= 0 and rows[row] == FULL ^ wbit:
        ready += 1
        row -= 1
    min_side = 99
    if w > 0:
        min_side = h[w - 1]
    if w < W - 1 and h[w + 1] < min_side:
        min_side = h[w + 1]
    well_depth = min_side - h[w]
    spawn = 0
    for row in range(4):
        spawn += popcount(rows[row] & 0b1111000)
    v = (
        wt[W_HOLES] * holes
        + wt[W_COVER] * cover
        + wt[W_BUMP] * bump
        + wt[W_BUMP2] * bump2
        + wt[W_ROW_TRANS] * row_trans
        + wt[W_MAX_HEIGHT] * max_h
        + wt[W_AGG_HEIGHT] * agg
        + wt[W_TOP_HALF] * top_half
        + wt[W_TOP_QUARTER] * top_quarter
        + wt[W_READY] * min(ready, 4)
        + wt[W_READY_EXTRA] * max(ready - 4, 0)
        + wt[W_DEP2] * dep2
        + wt[W_DEP3] * dep3
        + wt[W_WELL_DEPTH] * max(well_depth - ready, 0)
        + wt[W_SPAWN] * spawn
        + wt[W_ABOVE_FOUR] * above_four
    )
    if w == 0 or w == W - 1:
        v += wt[W_WELL_EDGE]
    if holes == 0 and h[w] <= 4 and max_h <= 4 and _tileable(h, 4):
        v += wt[W_PC_READY]
    if hold == I:
        v += wt[W_HOLD_I]
    elif hold == S or hold == Z:  # noqa: SIM109  (numba: plain comparisons compile everywhere)
        v += wt[W_HOLD_BAD]
    if b2b:
        v += wt[W_B2B_STATE]
    return v


@njit(cache=True)
def move_reward(
    lines: int, b2b: int, max_h_before: int, empty_after: bool, wt: np.ndarray
) -> float:
    """Shaped reward of one lock: tetrises (more when back-to-back), other clears cost unless the
    stack is in danger, where any clear is welcome."""
    if lines == 0:
        return 0.0
    if lines == 4:
        v = wt[W_TETRIS]
        if b2b:
            v += wt[W_B2B_CLEAR]
    else:
        v = wt[W_CLEAR1 + lines - 1]
        if max_h_before >= wt[W_DANGER]:
            v = 0.0
    if empty_after:
        kind = 5 if (lines == 4 and b2b) else lines
        v += wt[W_PERFECT] * PERFECT_CLEAR[kind] / PERFECT_CLEAR[5]
    return v


@njit(cache=True)
def _board_hash(rows: np.ndarray, hold: int, b2b: int) -> np.uint64:
    """A 64-bit key of a beam state, to keep one copy of boards reached in different orders."""
    k = np.uint64(1469598103934665603)
    for row in range(H):
        k = (k ^ np.uint64(rows[row])) * np.uint64(1099511628211)
        k ^= k >> np.uint64(29)
    k = (k ^ np.uint64(hold + 2)) * np.uint64(1099511628211)
    k = (k ^ np.uint64(b2b)) * np.uint64(1099511628211)
    return k


@njit(cache=True)
def _max_height(rows: np.ndarray) -> int:
    for row in range(H):
        if rows[row]:
            return H - row
    return 0


@njit(cache=True)
def _best_first(values: np.ndarray, n: int, limit: int) -> np.ndarray:
    """Indices of the best values, best first (stable); at least the best `limit` when n is
    larger, found by a partition so a layer does not pay for sorting all its children."""
    neg = -values[:n]
    if n <= 2 * limit:
        return np.argsort(neg, kind="mergesort")
    kth = np.partition(neg, limit)[limit]
    idx = np.nonzero(neg <= kth)[0]
    return idx[np.argsort(neg[idx], kind="mergesort")]


@njit(cache=True)
def _select(values: np.ndarray, keys: np.ndarray, n: int, width: int, chosen: np.ndarray) -> int:
    """Indices of the best `width` values with distinct keys, best first."""
    size = 1
    while size < 4 * width:
        size *= 2
    for limit in (3 * width, n):
        order = _best_first(values, n, limit)
        table = np.zeros(size, np.uint64)
        used = np.zeros(size, np.bool_)
        count = 0
        for j in range(order.shape[0]):
            i = order[j]
            if values[i] <= DEAD:
                break
            key = keys[i]
            slot = np.int64(key >> np.uint64(40)) & (size - 1)
            dup = False
            while used[slot]:
                if table[slot] == key:
                    dup = True
                    break
                slot = (slot + 1) & (size - 1)
            if dup:
                continue
            used[slot] = True
            table[slot] = key
            chosen[count] = i
            count += 1
            if count == width:
                return count
        if order.shape[0] == n:
            break
    return count


@njit(cache=True)
def root_layer(
    rows: np.ndarray,
    hold: int,
    queue: np.ndarray,
    n_queue: int,
    b2b: int,
    moves: np.ndarray,
    n_moves: int,
    wt: np.ndarray,
    width: int,
    root_values: np.ndarray,
    o_rows: np.ndarray,
    o_state: np.ndarray,
    o_acc: np.ndarray,
    o_val: np.ndarray,
) -> int:
    """Play each root move (exact engine candidates) and keep the best `width` as the first beam.

    `moves[k]` = (piece, x, rotation, landing row, uses hold). `o_state[k]` = (hold, next queue
    index, back-to-back, root move). `root_values[k]` gets the one-ply value of move k.
    """
    h = np.empty(W, np.int64)
    scratch = np.empty(H, np.int64)
    keys = np.empty(n_moves, np.uint64)
    max_h = _max_height(rows)
    for k in range(n_moves):
        t, x, r, y, uses_hold = moves[k, 0], moves[k, 1], moves[k, 2], moves[k, 3], moves[k, 4]
        new_hold, qi = hold, 1
        if uses_hold:
            new_hold = queue[0]
            qi = 1 if hold != EMPTY else 2
        scratch[:] = rows
        lines, above = lock_and_clear_masks(scratch, t, x, y, r)
        if above or (qi < n_queue and spawn_blocked(scratch, queue[qi])):
            root_values[k] = DEAD
            keys[k] = np.uint64(k)
            continue
        empty = lines > 0 and _max_height(scratch) == 0
        reward = move_reward(lines, b2b, max_h, empty, wt)
        new_b2b = b2b if lines == 0 else (1 if lines == 4 else 0)
        root_values[k] = reward + evaluate(scratch, new_hold, new_b2b, wt, h)
        keys[k] = _board_hash(scratch, new_hold, new_b2b)
    chosen = np.empty(width, np.int64)
    n = _select(root_values, keys, n_moves, width, chosen)
    for j in range(n):
        k = chosen[j]
        t, x, r, y, uses_hold = moves[k, 0], moves[k, 1], moves[k, 2], moves[k, 3], moves[k, 4]
        new_hold, qi = hold, 1
        if uses_hold:
            new_hold = queue[0]
            qi = 1 if hold != EMPTY else 2
        o_rows[j, :] = rows
        lines, _ = lock_and_clear_masks(o_rows[j], t, x, y, r)
        empty = lines > 0 and _max_height(o_rows[j]) == 0
        o_state[j, 0] = new_hold
        o_state[j, 1] = qi
        o_state[j, 2] = b2b if lines == 0 else (1 if lines == 4 else 0)
        o_state[j, 3] = k
        o_acc[j] = move_reward(lines, b2b, max_h, empty, wt)
        o_val[j] = root_values[k]
    return n


@njit(cache=True)
def expand_layer(
    b_rows: np.ndarray,
    b_state: np.ndarray,
    b_acc: np.ndarray,
    b_val: np.ndarray,
    n_beam: int,
    queue: np.ndarray,
    n_queue: int,
    wt: np.ndarray,
    width: int,
    o_rows: np.ndarray,
    o_state: np.ndarray,
    o_acc: np.ndarray,
    o_val: np.ndarray,
) -> int:
    """One beam layer: every state places its current piece or swaps in its held one; the best
    `width` distinct children (and states that have used up the preview) form the next beam."""
    cap = n_beam * 2 * 48 + n_beam
    c_parent = np.empty(cap, np.int64)
    c_move = np.empty((cap, 5), np.int64)  # piece, x, rotation, landing row, uses hold
    c_val = np.empty(cap, np.float64)
    c_key = np.empty(cap, np.uint64)
    h = np.empty(W, np.int64)
    h2 = np.empty(W, np.int64)
    scratch = np.empty(H, np.int64)
    xs = np.empty(48, np.int64)
    rs = np.empty(48, np.int64)
    ys = np.empty(48, np.int64)
    n = 0
    for b in range(n_beam):
        hold, qi, b2b = b_state[b, 0], b_state[b, 1], b_state[b, 2]
        if qi >= n_queue:  # nothing left to place: carry the state over as it is
            c_parent[n] = b
            c_move[n, 0] = -1
            c_val[n] = b_val[b]
            c_key[n] = _board_hash(b_rows[b], hold, b2b)
            n += 1
            continue
        heights_of(b_rows[b], h)
        max_h = 0
        for c in range(W):
            if h[c] > max_h:
                max_h = h[c]
        for uses_hold in range(2):
            if uses_hold == 0:
                t, new_hold, nqi = queue[qi], hold, qi + 1
            elif hold != EMPTY:
                if hold == queue[qi]:
                    continue
                t, new_hold, nqi = hold, queue[qi], qi + 1
            else:
                if qi + 1 >= n_queue:
                    continue
                t, new_hold, nqi = queue[qi + 1], queue[qi], qi + 2
            m = drop_placements(h, t, xs, rs, ys)
            for j in range(m):
                scratch[:] = b_rows[b]
                lines, above = lock_and_clear_masks(scratch, t, xs[j], ys[j], rs[j])
                if above:
                    continue
                if nqi < n_queue:
                    if spawn_blocked(scratch, queue[nqi]):
                        continue
                elif scratch[0] & 0b1111000:
                    continue
                empty = lines > 0 and _max_height(scratch) == 0
                reward = move_reward(lines, b2b, max_h, empty, wt)
                new_b2b = b2b if lines == 0 else (1 if lines == 4 else 0)
                c_parent[n] = b
                c_move[n, 0] = t
                c_move[n, 1] = xs[j]
                c_move[n, 2] = rs[j]
                c_move[n, 3] = ys[j]
                c_move[n, 4] = uses_hold
                c_val[n] = b_acc[b] + reward + evaluate(scratch, new_hold, new_b2b, wt, h2)
                c_key[n] = _board_hash(scratch, new_hold, new_b2b)
                n += 1
    chosen = np.empty(width, np.int64)
    count = _select(c_val, c_key, n, width, chosen)
    for j in range(count):
        i = chosen[j]
        b = c_parent[i]
        o_rows[j, :] = b_rows[b]
        o_state[j, :] = b_state[b]
        o_val[j] = c_val[i]
        o_acc[j] = b_acc[b]
        t = c_move[i, 0]
        if t < 0:
            continue
        hold, qi, b2b = b_state[b, 0], b_state[b, 1], b_state[b, 2]
        if c_move[i, 4] == 0:
            new_hold, nqi = hold, qi + 1
        elif hold != EMPTY:
            new_hold, nqi = queue[qi], qi + 1
        else:
            new_hold, nqi = queue[qi], qi + 2
        max_h = _max_height(b_rows[b])
        lines, _ = lock_and_clear_masks(o_rows[j], t, c_move[i, 1], c_move[i, 3], c_move[i, 2])
        empty = lines > 0 and _max_height(o_rows[j]) == 0
        o_acc[j] += move_reward(lines, b2b, max_h, empty, wt)
        o_state[j, 0] = new_hold
        o_state[j, 1] = nqi
        o_state[j, 2] = b2b if lines == 0 else (1 if lines == 4 else 0)
    return count


# --- perfect clears ----------------------------------------------------------------------------
PC_MAX_DEPTH = 8
PC_MAX_MOVES = 96


@njit(cache=True)
def _fits_flat(h: np.ndarray, t: int, r: int, x: int, y: int) -> bool:
    """Whether the piece rests on every column it covers (it leaves no gap under itself)."""
    for k in range(COL_MAX[t, r] - COL_MIN[t, r] + 1):
        if y + BOTTOM[t, r, k] != H - 1 - h[x + COL_MIN[t, r] + k]:
            return False
    return True


@njit(cache=True)
def _gen_pc_moves(
    h: np.ndarray,
    hold: int,
    qi: int,
    queue: np.ndarray,
    n_queue: int,
    moves: np.ndarray,
    xs: np.ndarray,
    rs: np.ndarray,
    ys: np.ndarray,
) -> int:
    """Gap-free hard drops of the current piece and of the one a hold would bring."""
    n = 0
    for uses_hold in range(2):
        if uses_hold == 0:
            t = queue[qi]
        elif hold != EMPTY:
            if hold == queue[qi]:
                continue
            t = hold
        else:
            if qi + 1 >= n_queue:
                continue
            t = queue[qi + 1]
        m = drop_placements(h, t, xs, rs, ys)
        for j in range(m):
            if _fits_flat(h, t, rs[j], xs[j], ys[j]):
                moves[n, 0] = t
                moves[n, 1] = xs[j]
                moves[n, 2] = rs[j]
                moves[n, 3] = ys[j]
                moves[n, 4] = uses_hold
                n += 1
    return n


@njit(cache=True)
def find_perfect_clear(
    rows: np.ndarray,
    hold: int,
    queue: np.ndarray,
    n_queue: int,
    root_moves: np.ndarray,
    n_root: int,
    b2b: int,
    combo: int,
    lines: int,
    max_nodes: int,
    max_pieces: int,
) -> tuple[int, float, int]:
    """Depth-first search for a sequence of the known pieces that empties the board.

    Pieces must stay inside the rows the clear will remove and never leave a gap, so the search is
    small; it uses at most `max_pieces` placements and `max_nodes` nodes. Returns `(root move
    index or -1, points per line of the best clear found, nodes)`; points are the guideline clear
    points along the way (combos and the bonus included).
    """
    cells = 0
    holes = 0
    covered = 0
    for row in range(H):
        cells += popcount(rows[row])
        holes += popcount(covered & ~rows[row] & FULL)
        covered |= rows[row]
    if holes:
        return -1, 0.0, 0
    max_h = _max_height(rows)
    available = n_queue + (1 if hold != EMPTY else 0)
    depth_cap = min(PC_MAX_DEPTH, max_pieces)
    f_rows = np.empty((PC_MAX_DEPTH + 1, H), np.int64)
    f_state = np.empty((PC_MAX_DEPTH + 1, 6), np.int64)  # hold, qi, lines, combo, b2b, cleared
    f_points = np.empty(PC_MAX_DEPTH + 1, np.float64)
    f_moves = np.empty((PC_MAX_DEPTH + 1, PC_MAX_MOVES, 5), np.int64)
    f_n = np.empty(PC_MAX_DEPTH + 1, np.int64)
    f_idx = np.empty(PC_MAX_DEPTH + 1, np.int64)
    f_first = np.empty(PC_MAX_DEPTH + 1, np.int64)
    h = np.empty(W, np.int64)
    xs = np.empty(48, np.int64)
    rs = np.empty(48, np.int64)
    ys = np.empty(48, np.int64)
    seen_size = 1 << 16
    seen = np.zeros(seen_size, np.uint64)
    best_first = -1
    best_rate = 0.0
    nodes = 0
    for target in range(max(max_h, 1), 7):
        missing = 10 * target - cells
        if missing <= 0 or missing % 4 or missing // 4 > min(available, depth_cap):
            continue
        seen[:] = 0
        heights_of(rows, h)
        if not _tileable(h, target):
            continue
        f_rows[0, :] = rows
        f_state[0, 0] = hold
        f_state[0, 1] = 0
        f_state[0, 2] = lines
        f_state[0, 3] = combo
        f_state[0, 4] = b2b
        f_state[0, 5] = 0
        f_points[0] = 0.0
        n0 = 0
        for k in range(n_root):
            t, x, r, y = root_moves[k, 0], root_moves[k, 1], root_moves[k, 2], root_moves[k, 3]
            if COL_MIN[t, r] + x >= 0 and _fits_flat(h, t, r, x, y):
                f_moves[0, n0, :] = root_moves[k]
                f_moves[0, n0, 4] = k  # the root keeps the index of its move
                n0 += 1
        f_n[0] = n0
        f_idx[0] = 0
        d = 0
        while d >= 0:
            if f_idx[d] >= f_n[d] or nodes >= max_nodes:
                d -= 1
                continue
            j = f_idx[d]
            f_idx[d] += 1
            nodes += 1
            t, x, r, y = f_moves[d, j, 0], f_moves[d, j, 1], f_moves[d, j, 2], f_moves[d, j, 3]
            hold_d, qi_d = f_state[d, 0], f_state[d, 1]
            uses_hold = root_moves[f_moves[0, j, 4], 4] if d == 0 else f_moves[d, j, 4]
            if uses_hold == 0:
                new_hold, nqi = hold_d, qi_d + 1
            elif hold_d != EMPTY:
                new_hold, nqi = queue[qi_d], qi_d + 1
            else:
                new_hold, nqi = queue[qi_d], qi_d + 2
            child = f_rows[d + 1]
            child[:] = f_rows[d]
            cleared, above = lock_and_clear_masks(child, t, x, y, r)
            if above:
                continue
            total_lines = f_state[d, 2] + cleared
            level = 1 + f_state[d, 2] // 10
            empty = cleared > 0 and _max_height(child) == 0
            points, new_combo, new_b2b = clear_score(
                0, cleared, 0, level, f_state[d, 3], f_state[d, 4], empty
            )
            value = f_points[d] + points
            if empty:
                rate = value / (f_state[d, 5] + cleared)
                if rate > best_rate:
                    best_rate = rate
                    best_first = f_moves[0, j if d == 0 else f_first[d], 4]
                continue
            limit = target - f_state[d, 5] - cleared
            heights_of(child, h)
            if not _tileable(h, limit):
                continue
            empty_cells = 0
            for c in range(W):
                empty_cells += limit - h[c]
            left = n_queue - nqi + (1 if new_hold != EMPTY else 0)
            if nqi > n_queue or empty_cells // 4 > left or d + 1 >= depth_cap:
                continue
            key = _board_hash(child, new_hold, nqi)
            slot = np.int64(key >> np.uint64(48)) & (seen_size - 1)
            if seen[slot] == key:
                continue
            seen[slot] = key
            if nqi >= n_queue and new_hold == EMPTY:
                continue
            # an exhausted queue leaves only the held piece: play it as the current one
            if nqi >= n_queue:
                f_n[d + 1] = _gen_pc_moves(
                    h, EMPTY, 0, np.array([new_hold]), 1, f_moves[d + 1], xs, rs, ys
                )
                f_state[d + 1, 0] = EMPTY
                f_state[d + 1, 1] = nqi
            else:
                f_n[d + 1] = _gen_pc_moves(
                    h, new_hold, nqi, queue, n_queue, f_moves[d + 1], xs, rs, ys
                )
                f_state[d + 1, 0] = new_hold
                f_state[d + 1, 1] = nqi
            f_state[d + 1, 2] = total_lines
            f_state[d + 1, 3] = new_combo
            f_state[d + 1, 4] = new_b2b
            f_state[d + 1, 5] = f_state[d, 5] + cleared
            f_points[d + 1] = value
            f_idx[d + 1] = 0
            f_first[d + 1] = j if d == 0 else f_first[d]
            d += 1
    return best_first, best_rate, nodes


# --- the El-Tetris features of the heuristic brain -------------------------------------------
@njit(cache=True)
def eltetris_features(rows: np.ndarray, t: int, cinfo: np.ndarray, n: int, out: np.ndarray) -> None:
    """Dellacherie / El-Tetris features of each listed candidate's afterstate.

    `cinfo` rows are the engine's candidate table (x at 0, rotation at 1, landing row at 3).
    Columns of `out`: landing height, eroded piece cells, row transitions, column transitions,
    holes, cumulative wells, new holes, top-out.
    """
    scratch = np.empty(H, np.int64)
    before = 0
    covered = 0
    for row in range(H):
        before += popcount(covered & ~rows[row] & FULL)
        covered |= rows[row]
    for k in range(n):
        x, r, y = cinfo[k, 0], cinfo[k, 1], cinfo[k, 3]
        # landing height and eroded cells: the engine's (`Tetris-v3`'s extended columns)
        landing, lines, eroded = landing_features(rows, t, x, r, y)
        scratch[:] = rows
        above = False
        for i in range(4):
            cy = y + SHAPES[t, r, i, 1]
            if cy < 0:
                above = True
            else:
                scratch[cy] |= 1 << (x + SHAPES[t, r, i, 0])
        write = H - 1
        for read in range(H - 1, -1, -1):
            if scratch[read] != FULL:
                scratch[write] = scratch[read]
                write -= 1
        for row in range(write, -1, -1):
            scratch[row] = 0
        row_trans = 0
        col_trans = 0
        holes = 0
        covered = 0
        for row in range(H):
            m = scratch[row]
            walled = (m << 1) | 1 | (1 << (W + 1))
            row_trans += popcount((walled ^ (walled >> 1)) & ((1 << (W + 1)) - 1))
            if row > 0:
                col_trans += popcount(m ^ scratch[row - 1])
            holes += popcount(covered & ~m & FULL)
            covered |= m
        col_trans += popcount(~scratch[H - 1] & FULL)
        # cumulative wells: a well cell has both neighbours filled (walls count)
        wells = 0
        for c in range(W):
            depth = 0
            for row in range(H):
                m = scratch[row]
                left = c == 0 or (m >> (c - 1)) & 1
                right = c == W - 1 or (m >> (c + 1)) & 1
                if not (m >> c) & 1 and left and right:
                    depth += 1
                    wells += depth
                else:
                    depth = 0
                    if (m >> c) & 1:
                        break
        out[k, 0] = landing
        out[k, 1] = eroded
        out[k, 2] = row_trans
        out[k, 3] = col_trans
        out[k, 4] = holes
        out[k, 5] = wells
        out[k, 6] = max(holes - before, 0) if lines == 0 else 0
        out[k, 7] = 1.0 if above else 0.0

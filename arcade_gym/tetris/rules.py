"""Constants of the Tetris rulesets: `tetris-bench@3` (guideline) and NARCADE classic scoring.

Everything a kernel needs is a numpy array or an int here, so numba reads it as a compile-time
constant. Coordinates follow `docs/rules/tetris.md`: `grid[row][col]`, row 0 at the top, a piece at
`(x, y)` is the top-left of its bounding box, rotation 0 = spawn, 1 = R (clockwise), 2, 3 = L.
"""

from __future__ import annotations

import numpy as np

RULESET_ID = "tetris-bench@3"
CLASSIC_RULES_VERSION = "0.4.0"

BOARD_WIDTH = 10
BOARD_HEIGHT = 20
PREVIEW = 5
PIECE_CAP = 500
TICK_CAP = 10_000
SPAWN_X = 3
SPAWN_Y = -1

PIECE_LETTERS = "IJLOSTZ"
"""Piece type index -> letter: the one piece order. A board cell stores `type + 1` (0 is empty), in
the engine, in replay frames (`render.py:frame`) and in the site's viewer (`viewer.js`)."""

I, J, L, O, S, T, Z = range(7)  # noqa: E741  (the pieces are called that)
EMPTY_HOLD = -1

# SHAPES[type, rotation, cell] = (dx, dy) inside the bounding box (SRS cells).
SHAPES = np.array(
    [
        # I (4x4)
        [
            [(0, 1), (1, 1), (2, 1), (3, 1)],
            [(2, 0), (2, 1), (2, 2), (2, 3)],
            [(0, 2), (1, 2), (2, 2), (3, 2)],
            [(1, 0), (1, 1), (1, 2), (1, 3)],
        ],
        # J
        [
            [(0, 0), (0, 1), (1, 1), (2, 1)],
            [(1, 0), (2, 0), (1, 1), (1, 2)],
            [(0, 1), (1, 1), (2, 1), (2, 2)],
            [(1, 0), (1, 1), (0, 2), (1, 2)],
        ],
        # L
        [
            [(2, 0), (0, 1), (1, 1), (2, 1)],
            [(1, 0), (1, 1), (1, 2), (2, 2)],
            [(0, 1), (1, 1), (2, 1), (0, 2)],
            [(0, 0), (1, 0), (1, 1), (1, 2)],
        ],
        # O (drawn at (1,0) (2,0) (1,1) (2,1) in every rotation)
        [
            [(1, 0), (2, 0), (1, 1), (2, 1)],
            [(1, 0), (2, 0), (1, 1), (2, 1)],
            [(1, 0), (2, 0), (1, 1), (2, 1)],
            [(1, 0), (2, 0), (1, 1), (2, 1)],
        ],
        # S
        [
            [(1, 0), (2, 0), (0, 1), (1, 1)],
            [(1, 0), (1, 1), (2, 1), (2, 2)],
            [(1, 1), (2, 1), (0, 2), (1, 2)],
            [(0, 0), (0, 1), (1, 1), (1, 2)],
        ],
        # T
        [
            [(1, 0), (0, 1), (1, 1), (2, 1)],
            [(1, 0), (1, 1), (2, 1), (1, 2)],
            [(0, 1), (1, 1), (2, 1), (1, 2)],
            [(1, 0), (0, 1), (1, 1), (1, 2)],
        ],
        # Z
        [
            [(0, 0), (1, 0), (1, 1), (2, 1)],
            [(2, 0), (1, 1), (2, 1), (1, 2)],
            [(0, 1), (1, 1), (1, 2), (2, 2)],
            [(1, 0), (0, 1), (1, 1), (0, 2)],
        ],
    ],
    dtype=np.int64,
)


def _to_screen(tests: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """SRS tables are written y-up; our rows grow downwards."""
    return [(dx, -dy) for dx, dy in tests]


# KICKS[table, from_rotation, direction, test] = (dx, dy); table 0 = JLSTZ, 1 = I;
# direction 0 = clockwise (rotation + 1), 1 = counter-clockwise (rotation - 1).
_JLSTZ_CW = [
    [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)],  # 0 -> R
    [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)],  # R -> 2
    [(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)],  # 2 -> L
    [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)],  # L -> 0
]
_JLSTZ_CCW = [
    [(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)],  # 0 -> L
    [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)],  # R -> 0
    [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)],  # 2 -> R
    [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)],  # L -> 2
]
_I_CW = [
    [(0, 0), (-2, 0), (1, 0), (-2, -1), (1, 2)],  # 0 -> R
    [(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)],  # R -> 2
    [(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)],  # 2 -> L
    [(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)],  # L -> 0
]
_I_CCW = [
    [(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)],  # 0 -> L
    [(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)],  # R -> 0
    [(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)],  # 2 -> R
    [(0, 0), (-2, 0), (1, 0), (-2, -1), (1, 2)],  # L -> 2
]
KICKS = np.array(
    [
        [[_to_screen(a), _to_screen(b)] for a, b in zip(_JLSTZ_CW, _JLSTZ_CCW, strict=True)],
        [[_to_screen(a), _to_screen(b)] for a, b in zip(_I_CW, _I_CCW, strict=True)],
    ],
    dtype=np.int64,
)
KICK_TESTS = 5

# T-spin corners of the 3x3 box, and the two "front" corners the T points at per rotation.
T_CORNERS = np.array([(0, 0), (2, 0), (0, 2), (2, 2)], dtype=np.int64)
T_FRONT_CORNERS = np.array(
    [[(0, 0), (2, 0)], [(2, 0), (2, 2)], [(0, 2), (2, 2)], [(0, 0), (0, 2)]], dtype=np.int64
)

# Spin kinds.
SPIN_NONE, SPIN_MINI, SPIN_FULL = 0, 1, 2

# Guideline clear points (x level): rows = spin kind, columns = lines cleared 0..4.
GUIDELINE_CLEAR = np.array(
    [
        [0, 100, 300, 500, 800],
        [100, 200, 400, 400, 400],  # a mini clears at most two lines; guard the table anyway
        [400, 800, 1200, 1600, 1600],
    ],
    dtype=np.int64,
)
# Perfect-clear bonus (x level) by lines cleared; index 5 = back-to-back tetris.
PERFECT_CLEAR = np.array([0, 800, 1200, 1800, 2000, 3200], dtype=np.int64)
COMBO_STEP = 50
DROP_POINTS_PER_ROW = 2
SOFT_DROP_POINTS_PER_ROW = 1

# NARCADE classic line-clear points, x (level + 1).
CLASSIC_CLEAR = np.array([0, 40, 100, 300, 1200], dtype=np.int64)
SCORING_GUIDELINE, SCORING_CLASSIC = 0, 1
SCORING_MODES = {"guideline": SCORING_GUIDELINE, "classic": SCORING_CLASSIC}

# Difficulty -> classic start level (NARCADE).
CLASSIC_START_LEVEL = {"easy": 0, "medium": 4, "hard": 9}

# End reasons (the log strings are the seed's).
END_NONE, END_TOP_OUT, END_PIECE_CAP, END_TICK_CAP, END_ADAPTER_FAILURE = range(5)
END_REASONS = {
    END_NONE: None,
    END_TOP_OUT: "top-out",
    END_PIECE_CAP: "piece cap",
    END_TICK_CAP: "tick cap",
    END_ADAPTER_FAILURE: "adapter failure",
}

# The fixed RL action layout: index = rotation * PLACEMENT_XS + (x - MIN_X), then hold.
MIN_X = -2
MAX_X = 8
PLACEMENT_XS = MAX_X - MIN_X + 1
N_PLACEMENTS = 4 * PLACEMENT_XS
HOLD_ACTION = N_PLACEMENTS
N_ACTIONS = N_PLACEMENTS + 1

FEATURE_NAMES = (
    "maxHeight",
    "aggregateHeight",
    "holes",
    "bumpiness",
    "wells",
    "rowTransitions",
    "colTransitions",
)
"""Board summary order in the feature arrays; `heights` (10 columns) precede them."""

PLACEMENT_FEATURE_NAMES = ("linesCleared", "scoreDelta", "topOut", *FEATURE_NAMES)
"""Columns of the RL observation's per-placement feature matrix (`placement_features="basic"`)."""

EXTENDED_PLACEMENT_FEATURE_NAMES = (*PLACEMENT_FEATURE_NAMES, "landingHeight", "erodedCells")
"""`placement_features="extended"`: the basic columns plus the two El-Tetris features the
heuristic weighs most (the piece's mean cell height as it lands; cleared rows times the piece's
cells in them)."""

PLACEMENT_FEATURE_SETS = {
    "basic": PLACEMENT_FEATURE_NAMES,
    "extended": EXTENDED_PLACEMENT_FEATURE_NAMES,
}
"""The `placement_features` option of `Tetris-v3`: its column names."""


def gravity_interval_ms(level: int) -> int:
    """Milliseconds per gravity row at guideline level `level` (>= 1)."""
    return max(16, round(1000 * 0.8 ** (level - 1)))

"""NARCADE Tetris baselines with primitive controls: a seeded random presser and a planner.

`HeuristicTetrisControls` plans a placement with the El-Tetris heuristic brain (the same
evaluation `make_brain("heuristic")` uses for placements) and emits the first control of the
shortest control sequence that reaches it. Reachability is checked with the engine's own kernels
(`collides`, `try_rotate`, `drop_distance`) under lockstep dynamics, where every control is
followed by one gravity row: a placement the piece can no longer reach before it lands is skipped
for the next best. Both policies are stateless: the answer depends only on the question, so they
re-plan from wherever the piece is (realtime gravity may have moved it) and replays reproduce them.
"""

from __future__ import annotations

import hashlib

import numpy as np
from numba import njit

from arcade_gym.tetris import engine as E
from arcade_gym.tetris.game import TetrisGame
from arcade_gym.tetris.primitive_contract import (
    CONTROLS,
    TetrisControlAnswer,
    TetrisControlQuestion,
)
from arcade_gym.tetris.rules import (
    CLASSIC_START_LEVEL,
    END_NONE,
    PIECE_LETTERS,
    SHAPES,
)
from policies.base import DecisionContext, PolicyIdentity
from policies.tetris.heuristic import HeuristicBrain

_W = E.W
_MAX_OUTCOMES = 4 * E.Y_SPAN * E.X_SPAN


@njit(cache=True)
def cells_key(t: int, x: int, y: int, r: int) -> int:
    """Order-free key of the four cells a piece covers (rows from `engine.Y_MIN` up)."""
    cells = np.empty(4, np.int64)
    for i in range(4):
        cells[i] = (y + SHAPES[t, r, i, 1] - E.Y_MIN) * _W + x + SHAPES[t, r, i, 0]
    cells.sort()
    return ((cells[0] * 512 + cells[1]) * 512 + cells[2]) * 512 + cells[3]


@njit(cache=True)
def lockstep_outcomes(
    board: np.ndarray,
    t: int,
    x0: int,
    y0: int,
    r0: int,
    keys: np.ndarray,
    first: np.ndarray,
    depth: np.ndarray,
) -> int:
    """Every lock the piece can reach under lockstep dynamics (a control, then a gravity row; a
    hard drop locks at once), breadth first. Writes each distinct locked-cell key with the first
    control of a shortest sequence and its length; returns the number of outcomes."""
    visited = np.zeros((4, E.Y_SPAN, E.X_SPAN), np.bool_)
    size = 4 * E.Y_SPAN * E.X_SPAN
    qx = np.empty(size, np.int64)
    qy = np.empty(size, np.int64)
    qr = np.empty(size, np.int64)
    qf = np.empty(size, np.int64)
    qd = np.empty(size, np.int64)
    n = 0
    head = 0
    tail = 0
    if E.collides(board, t, x0, y0, r0):
        return 0
    visited[r0, y0 - E.Y_MIN, x0 + E.X_OFF] = True
    qx[0], qy[0], qr[0], qf[0], qd[0] = x0, y0, r0, -1, 0
    tail = 1
    while head < tail:
        x, y, r, f, d = qx[head], qy[head], qr[head], qf[head], qd[head]
        head += 1
        for control in range(6):
            ctrl_first = control if f < 0 else f
            nx, ny, nr = x, y, r
            lock = False
            if control == E.HARD_DROP:
                ny = y + E.drop_distance(board, t, x, y, r)
                lock = True
            else:
                if control == E.LEFT or control == E.RIGHT:
                    mx = x - 1 if control == E.LEFT else x + 1
                    if not E.collides(board, t, mx, y, r):
                        nx = mx
                elif control == E.ROTATE_CW or control == E.ROTATE_CCW:
                    ok, rx, ry, rr, _ = E.try_rotate(
                        board, t, x, y, r, 0 if control == E.ROTATE_CW else 1
                    )
                    if ok:
                        nx, ny, nr = rx, ry, rr
                elif not E.collides(board, t, x, y + 1, r):  # soft drop
                    ny = y + 1
                if E.collides(board, t, nx, ny + 1, nr):
                    lock = True  # the gravity row finds it resting
                else:
                    ny += 1
            if lock:
                key = cells_key(t, nx, ny, nr)
                seen = False
                for k in range(n):
                    if keys[k] == key:
                        seen = True
                        break
                if not seen:
                    keys[n] = key
                    first[n] = ctrl_first
                    depth[n] = d + 1
                    n += 1
                continue
            yi = ny - E.Y_MIN
            xi = nx + E.X_OFF
            if yi < 0 or yi >= E.Y_SPAN or xi < 0 or xi >= E.X_SPAN or visited[nr, yi, xi]:
                continue
            visited[nr, yi, xi] = True
            qx[tail], qy[tail], qr[tail], qf[tail], qd[tail] = nx, ny, nr, ctrl_first, d + 1
            tail += 1
    return n


def game_from_question(question: TetrisControlQuestion) -> TetrisGame:
    """The position a question describes, as a placement game to plan on (classic scoring).
    Pieces beyond the preview are unknown; a fixed seed fills them."""
    difficulty = question.difficulty if question.difficulty in CLASSIC_START_LEVEL else "easy"
    game = TetrisGame("controls", scoring="classic", difficulty=difficulty)
    game.board[:] = [[0 if ch == "." else 1 for ch in row] for row in question.board]
    queue = [PIECE_LETTERS.index(p) for p in question.next]
    game.seq[: len(queue)] = queue
    st = game.st
    st[E.S_QPOS] = 0
    st[E.S_SCORE] = question.score
    st[E.S_LINES] = question.lines
    st[E.S_LEVEL] = question.level
    st[E.S_PIECES] = question.pieces
    piece = question.piece
    E.spawn(game.board, st, PIECE_LETTERS.index(piece.type))
    st[E.S_X], st[E.S_Y], st[E.S_ROT] = piece.x, piece.y, piece.rotation
    st[E.S_END] = END_NONE
    game.refresh()
    return game


class HeuristicTetrisControls(PolicyIdentity):
    """Plans the El-Tetris best placement that is still reachable and presses its first control."""

    def __init__(self, brain: HeuristicBrain | None = None) -> None:
        super().__init__(
            slug="heuristic",
            name="Heuristic",
            description="El-Tetris placement plan, reached by the shortest control sequence",
            kind="heuristic",
            adapter_version="1",
        )
        self.brain = brain or HeuristicBrain()
        self._keys = np.zeros(_MAX_OUTCOMES, np.int64)
        self._first = np.zeros(_MAX_OUTCOMES, np.int64)
        self._depth = np.zeros(_MAX_OUTCOMES, np.int64)

    def plan(self, question: TetrisControlQuestion) -> tuple[int, int, int] | None:
        """`(x, rotation, first control index)` of the chosen placement, or None when the piece
        can reach no listed placement (then any press is as good as another)."""
        game = game_from_question(question)
        t, x, y, r = game.active
        n = int(lockstep_outcomes(game.board, t, x, y, r, self._keys, self._first, self._depth))
        if n == 0 or game.n_candidates == 0:
            return None
        reach = dict(zip(self._keys[:n].tolist(), self._first[:n].tolist(), strict=True))
        values = self.brain.scores(game)
        rows = game.candidate_rows()
        order = sorted(
            range(len(values)),
            key=lambda k: (-float(values[k]), int(rows[k, E.C_X]), int(rows[k, E.C_ROT])),
        )
        for k in order:
            cx, cr, cy = int(rows[k, E.C_X]), int(rows[k, E.C_ROT]), int(rows[k, E.C_Y_LAND])
            control = reach.get(int(cells_key(t, cx, cy, cr)))
            if control is not None:
                return cx, cr, int(control)
        return None

    def act(
        self, question: TetrisControlQuestion, ctx: DecisionContext | None = None
    ) -> TetrisControlAnswer:
        """The first control towards the best reachable placement (hard drop if there is none)."""
        planned = self.plan(question)
        control = CONTROLS[-1] if planned is None else CONTROLS[planned[2]]
        return TetrisControlAnswer(action=control)


class RandomTetrisControls(PolicyIdentity):
    """Uniform over the six controls, keyed by (seed, decision, state hash): stateless and
    deterministic, so a replay reproduces the game."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(
            slug="random",
            name="Random",
            description="Uniform random control, seeded per decision",
            kind="baseline",
            adapter_version="1",
        )
        self.seed = int(seed)

    def act(
        self, question: TetrisControlQuestion, ctx: DecisionContext | None = None
    ) -> TetrisControlAnswer:
        """Draw one of the six controls in canonical order (independent of the listed order)."""
        key = f"tetris-random:{self.seed}:{question.decision}:{question.state_hash}".encode()
        draw = int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big")
        return TetrisControlAnswer(action=CONTROLS[draw % len(CONTROLS)])


BUILTINS: dict[str, type[RandomTetrisControls] | type[HeuristicTetrisControls]] = {
    "random": RandomTetrisControls,
    "heuristic": HeuristicTetrisControls,
}
"""Policy slug -> class, for Tetris with primitive controls (NARCADE)."""


def warmup() -> None:
    """Compile the planner's kernels (`python -m policies.build_cache`): the heuristic presser
    answers one question."""
    from arcade_gym.tetris.primitive_game import TetrisControlGame

    HeuristicTetrisControls().act(TetrisControlGame("warmup").question(), None)

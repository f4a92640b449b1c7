"""numba kernels of the linear Tetris controller: score the listed placements, pick one the way
`GreedyBrain.act` does, and play whole games with hold lookahead for training.

A placement's features are the `Tetris-v3` `placements` row of that candidate (the env's
`fill_action_view` / `fill_landing_columns`): lines cleared, score delta, top-out, the seven
afterstate board features, and with twelve weights landing height and eroded cells. A placement
that tops out is pushed below every other (`TOP_OUT_PENALTY`), whatever the weights say.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from arcade_gym.tetris import candidates as C
from arcade_gym.tetris import engine as E
from arcade_gym.tetris.rules import END_NONE

TOP_OUT_PENALTY = 1.0e9
"""Subtracted from a topping-out placement's score: below every placement that survives."""


@njit(cache=True)
def linear_scores(
    board: np.ndarray,
    st: np.ndarray,
    cinfo: np.ndarray,
    cfeat: np.ndarray,
    weights: np.ndarray,
    rows: np.ndarray,
    out: np.ndarray,
) -> None:
    """`out[k]` = weights . features of listed candidate k (`rows`: a scratch `H` int64 array)."""
    extended = weights.shape[0] > E.EXTENDED_FROM
    if extended:
        E.row_masks(board, rows)
    for k in range(st[E.S_NCAND]):
        s = (
            weights[0] * cinfo[k, E.C_LINES]
            + weights[1] * cinfo[k, E.C_SCORE_DELTA]
            + weights[2] * cinfo[k, E.C_TOP_OUT]
        )
        for f in range(7):
            s += weights[3 + f] * cfeat[k, E.F_MAX_HEIGHT + f]
        if extended:
            landing, _, eroded = E.landing_features(
                rows, st[E.S_ACTIVE], cinfo[k, E.C_X], cinfo[k, E.C_ROT], cinfo[k, E.C_Y_LAND]
            )
            s += weights[E.EXTENDED_FROM] * landing + weights[E.EXTENDED_FROM + 1] * eroded
        if cinfo[k, E.C_TOP_OUT] > 0:
            s -= TOP_OUT_PENALTY
        out[k] = s


@njit(cache=True)
def best_placement(st: np.ndarray, cinfo: np.ndarray, scores: np.ndarray) -> int:
    """Index of the best-scoring candidate; ties go to the lower x, then the lower rotation
    (`GreedyBrain.act`'s rule)."""
    pick = 0
    for k in range(1, st[E.S_NCAND]):
        if scores[k] > scores[pick] or (
            scores[k] == scores[pick]
            and (
                cinfo[k, E.C_X] < cinfo[pick, E.C_X]
                or (
                    cinfo[k, E.C_X] == cinfo[pick, E.C_X]
                    and cinfo[k, E.C_ROT] < cinfo[pick, E.C_ROT]
                )
            )
        ):
            pick = k
    return pick


@njit(cache=True)
def play_linear(
    board: np.ndarray,
    st: np.ndarray,
    seq: np.ndarray,
    cinfo: np.ndarray,
    cfeat: np.ndarray,
    weights: np.ndarray,
    hold_margin: float,
) -> int:
    """Play a game to its end as `LinearBrain(weights, hold_margin)` answers it; returns the
    number of holds. Holding is tried on a copy: taken when the other piece's best placement
    beats the active piece's by more than `hold_margin` (`np.inf`: never hold)."""
    rows = np.empty(E.H, np.int64)
    scores = np.empty(cinfo.shape[0], np.float64)
    other_board, other_st = board.copy(), st.copy()
    other_cinfo, other_cfeat = cinfo.copy(), cfeat.copy()
    holds = 0
    while st[E.S_END] == END_NONE:
        linear_scores(board, st, cinfo, cfeat, weights, rows, scores)
        pick = best_placement(st, cinfo, scores)
        best = scores[pick]
        if hold_margin < np.inf and st[E.S_CAN_HOLD] == 1 and st[E.S_HOLD] != st[E.S_ACTIVE]:
            other_board[:] = board
            other_st[:] = st
            E.hold_piece(other_board, other_st, seq)
            E.end_tick(other_st)
            if other_st[E.S_END] == END_NONE:
                C.generate_candidates(other_board, other_st, seq, other_cinfo, other_cfeat)
                if other_st[E.S_NCAND] > 0:
                    linear_scores(
                        other_board, other_st, other_cinfo, other_cfeat, weights, rows, scores
                    )
                    other_best = scores[best_placement(other_st, other_cinfo, scores)]
                    if other_best > best + hold_margin:
                        board[:] = other_board
                        st[:] = other_st
                        cinfo[:] = other_cinfo
                        cfeat[:] = other_cfeat
                        holds += 1
                        continue
        E.play_placement(board, st, seq, cinfo[pick])
        E.end_tick(st)
        if st[E.S_END] == END_NONE:
            C.generate_candidates(board, st, seq, cinfo, cfeat)
    return holds


def warmup() -> None:
    """Compile (or load from numba's cache) these kernels: a short game, with and without
    hold, on the extended weights."""
    from arcade_gym.tetris.game import TetrisGame

    for margin in (0.0, np.inf):
        game = TetrisGame("warmup", piece_cap=3)
        weights = -np.ones(E.EXTENDED_FROM + 2)
        play_linear(game.board, game.st, game.seq, game.cinfo, game.cfeat, weights, margin)

"""Beam search over the preview and the hold slot, with an evaluation that builds back-to-back
tetrises: one open well, a flat hole-free stack, clears only by tetrises unless the stack is high.

Two additions pay for themselves many times over in score. A perfect clear is worth up to 3200 x
level on top of the clear, so before the beam runs a small exhaustive search looks for a sequence of
the known pieces that empties the board, and takes it when it pays more per line than tetrises do;
the evaluation also rewards stacks that stay inside four tileable rows, where such a clear stays
possible. When the piece cap is within reach only the points before it count.

The root moves are the question's exact candidates (the engine's reachability and kicks); deeper
plies use hard drops from spawn height, which is what a low stack allows anyway. Each layer is one
numba call, so the search stops deepening and answers with its best line when the clock runs low.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from arcade_gym.tetris import engine as E
from arcade_gym.tetris.contract import AgentAnswer, AgentInput
from arcade_gym.tetris.game import TetrisGame
from arcade_gym.tetris.rules import EMPTY_HOLD, PIECE_CAP
from policies.base import DecisionContext, PolicyIdentity
from policies.tetris import search_kernels as K
from policies.tetris.answer import ranked_answer

DEFAULT_WEIGHTS: Mapping[str, float] = {
    "holes": -180.0,
    "cover": -15.0,
    "bump": -20.0,
    "bump2": -6.0,
    "row_trans": -6.0,
    "max_height": -10.0,
    "agg_height": -1.0,
    "top_half": -60.0,
    "top_quarter": -300.0,
    "ready": 60.0,
    "ready_extra": 10.0,
    "dep2": -40.0,
    "dep3": -200.0,
    "hold_i": 80.0,
    "b2b_state": 100.0,
    "tetris": 600.0,
    "b2b_clear": 300.0,
    "clear1": -400.0,
    "clear2": -350.0,
    "clear3": -300.0,
    "perfect": 2400.0,
    "well_edge": 30.0,
    "well_depth": -10.0,
    "danger": 14.0,
    "hold_bad": -10.0,
    "cover_cap": 4.0,
    "spawn": -500.0,
    "above_four": 0.0,
    "pc_ready": 300.0,
}
"""Evaluation weights, in rough units of 'one tetris is worth about 900'."""

ENDGAME_WEIGHTS: Mapping[str, float] = {
    **{name: 0.0 for name in DEFAULT_WEIGHTS},
    "tetris": 800.0,
    "b2b_clear": 400.0,
    "clear1": 100.0,
    "clear2": 300.0,
    "clear3": 500.0,
    "perfect": 3200.0,
    "danger": 99.0,
}
"""When the piece cap is within the search, only the points before it count: every clear is
rewarded by its guideline points and the board left behind is worth nothing."""

WEIGHT_INDEX = {
    "holes": K.W_HOLES,
    "cover": K.W_COVER,
    "bump": K.W_BUMP,
    "bump2": K.W_BUMP2,
    "row_trans": K.W_ROW_TRANS,
    "max_height": K.W_MAX_HEIGHT,
    "agg_height": K.W_AGG_HEIGHT,
    "top_half": K.W_TOP_HALF,
    "top_quarter": K.W_TOP_QUARTER,
    "ready": K.W_READY,
    "ready_extra": K.W_READY_EXTRA,
    "dep2": K.W_DEP2,
    "dep3": K.W_DEP3,
    "hold_i": K.W_HOLD_I,
    "b2b_state": K.W_B2B_STATE,
    "tetris": K.W_TETRIS,
    "b2b_clear": K.W_B2B_CLEAR,
    "clear1": K.W_CLEAR1,
    "clear2": K.W_CLEAR2,
    "clear3": K.W_CLEAR3,
    "perfect": K.W_PERFECT,
    "well_edge": K.W_WELL_EDGE,
    "well_depth": K.W_WELL_DEPTH,
    "danger": K.W_DANGER,
    "hold_bad": K.W_HOLD_BAD,
    "cover_cap": K.W_COVER_CAP,
    "spawn": K.W_SPAWN,
    "above_four": K.W_ABOVE_FOUR,
    "pc_ready": K.W_PC_READY,
}

STOP_MARGIN_MS = 250.0
"""Stop deepening when fewer milliseconds than this remain before the deadline."""


def weight_vector(weights: Mapping[str, float] | None = None) -> np.ndarray:
    """The kernel's weight vector from named weights (defaults for those left out)."""
    merged = dict(DEFAULT_WEIGHTS)
    if weights is not None:
        unknown = set(weights) - set(WEIGHT_INDEX)
        if unknown:
            raise ValueError(
                f"unknown search weights {sorted(unknown)}; use {sorted(WEIGHT_INDEX)}"
            )
        merged.update(weights)
    out = np.zeros(K.N_WEIGHTS, np.float64)
    for name, value in merged.items():
        out[WEIGHT_INDEX[name]] = value
    return out


class SearchBrain(PolicyIdentity):
    """Beam search (width `beam_width`) over up to `depth` placements of the known pieces, after
    a perfect-clear search (`perfect_clears`) that wins when it beats `pc_min_rate` x level points
    per cleared line."""

    def __init__(
        self,
        beam_width: int = 80,
        depth: int = 6,
        weights: Mapping[str, float] | None = None,
        *,
        temperature: float = 100.0,
        perfect_clears: bool = True,
        pc_nodes: int = 20_000,
        pc_min_rate: float = 400.0,
        piece_cap: int = PIECE_CAP,
    ) -> None:
        super().__init__(
            slug="search",
            name="Beam search (B2B tetris)",
            description=(
                f"Beam search, width {beam_width}, depth {depth}, over preview and hold; "
                "builds back-to-back tetrises and takes perfect clears in reach"
            ),
            kind="search",
            adapter_version="1",
        )
        if beam_width < 1 or depth < 1:
            raise ValueError("beam_width and depth must be >= 1")
        self.beam_width = beam_width
        self.depth = depth
        self.weights = weight_vector(weights)
        self.temperature = temperature
        self.perfect_clears = perfect_clears
        self.pc_nodes = pc_nodes
        self.pc_min_rate = pc_min_rate
        self.piece_cap = piece_cap
        self.endgame_weights = weight_vector(ENDGAME_WEIGHTS)

    def plan(
        self, game: TetrisGame, ctx: DecisionContext | None = None
    ) -> tuple[np.ndarray, np.ndarray, int]:
        """Search from `game`. Returns the root moves (piece, x, rotation, landing row, uses
        hold), their one-ply values, and the index of the move the best line starts with.

        Moves that add a hole are not searched when some move adds none (hole discipline: the
        probe's rule, and rarely worth breaking with a five-piece preview).
        """
        all_moves = _root_moves(game)
        keep = hole_free_moves(game.board, all_moves)
        moves, root_values, best = self._plan(game, np.ascontiguousarray(all_moves[keep]), ctx)
        all_values = np.full(len(all_moves), K.DEAD, np.float64)
        all_values[keep] = root_values
        return all_moves, all_values, int(np.flatnonzero(keep)[best]) if len(moves) else 0

    def _plan(
        self, game: TetrisGame, moves: np.ndarray, ctx: DecisionContext | None
    ) -> tuple[np.ndarray, np.ndarray, int]:
        queue = np.array([game.active[0], *game.next_pieces], np.int64)
        hold = EMPTY_HOLD if game.hold_piece is None else game.hold_piece
        rows = np.empty(E.H, np.int64)
        E.row_masks(game.board, rows)
        root_values = np.full(len(moves), K.DEAD, np.float64)
        left = self.piece_cap - game.pieces
        endgame = left <= self.depth
        weights = self.endgame_weights if endgame else self.weights
        depth = min(self.depth, max(left, 1))
        cur, nxt = _beam_buffers(self.beam_width), _beam_buffers(self.beam_width)
        n = K.root_layer(
            rows,
            hold,
            queue,
            len(queue),
            int(game.back_to_back),
            moves,
            len(moves),
            weights,
            self.beam_width,
            root_values,
            *cur,
        )
        if self.perfect_clears and n:
            found, rate, _ = K.find_perfect_clear(
                rows,
                hold,
                queue,
                len(queue),
                moves,
                len(moves),
                int(game.back_to_back),
                game.combo,
                game.lines,
                self.pc_nodes,
                left,
            )
            if found >= 0 and (endgame or rate >= self.pc_min_rate * game.level):
                return moves, root_values, int(found)
        for _ in range(depth - 1):
            if n == 0 or _out_of_time(ctx):
                break
            if int(cur[1][:n, 1].min()) >= len(queue):
                break
            m = K.expand_layer(*cur, n, queue, len(queue), weights, self.beam_width, *nxt)
            if m == 0:
                break
            cur, nxt, n = nxt, cur, m
        if n == 0:
            return moves, root_values, int(np.argmax(root_values))
        best = int(np.argmax(cur[3][:n]))
        return moves, root_values, int(cur[1][best, 3])

    def act(self, question: AgentInput, ctx: DecisionContext | None = None) -> AgentAnswer:
        """Search, then answer with the best line's first move (a hold or a placement)."""
        game = TetrisGame.from_question(question)
        moves, root_values, best = self.plan(game, ctx)
        n_active = game.n_candidates
        hold = bool(moves[best, 4]) if len(moves) else False
        index = {placement: i for i, placement in enumerate(game.legal_placements())}
        scores = [float(root_values[index[(p.x, p.rotation)]]) for p in question.legal]
        if hold:
            legal = question.legal
            pick = max(
                range(len(scores)), key=lambda i: (scores[i], -legal[i].x, -legal[i].rotation)
            )
        else:
            x, rotation = int(moves[best, 1]), int(moves[best, 2])
            pick = next(
                i for i, p in enumerate(question.legal) if (p.x, p.rotation) == (x, rotation)
            )
            scores[pick] = max(scores[pick], float(root_values[:n_active].max()))
        return ranked_answer(question, scores, pick, hold=hold, temperature=self.temperature)


def _beam_buffers(width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One beam: row masks, (hold, next queue index, back-to-back, root move), reward, value.

    Allocated per decision (a few kB) so one brain can serve games on several threads."""
    return (
        np.zeros((width, E.H), np.int64),
        np.zeros((width, 4), np.int64),
        np.zeros(width, np.float64),
        np.zeros(width, np.float64),
    )


def _out_of_time(ctx: DecisionContext | None) -> bool:
    if ctx is None:
        return False
    remaining = ctx.remaining_ms()
    return remaining is not None and remaining < STOP_MARGIN_MS


def hole_free_moves(board: np.ndarray, moves: np.ndarray) -> np.ndarray:
    """Mask of the moves to search: those adding no hole (and locking below the top) when there
    is one, else every move."""
    rows = np.empty(E.H, np.int64)
    E.row_masks(board, rows)
    features = np.empty(E.FEATURES_LEN, np.int64)
    E.mask_features(rows, features)
    holes_now = features[E.F_HOLES]
    clean = np.zeros(len(moves), bool)
    for i, (piece, x, rotation, y_land, _) in enumerate(moves):
        scratch = rows.copy()
        _, above = E.lock_and_clear_masks(scratch, piece, x, y_land, rotation)
        E.mask_features(scratch, features)
        clean[i] = not above and features[E.F_HOLES] <= holes_now
    return clean if clean.any() else np.ones(len(moves), bool)


def _root_moves(game: TetrisGame) -> np.ndarray:
    """The active piece's listed candidates, then (when a hold is possible and changes the
    piece) the candidates of the piece a hold would bring, as kernel move rows."""
    parts = [_move_rows(game, 0)]
    active = game.active[0]
    if game.can_hold and game.hold_piece != active:
        other = game.copy()
        other.hold()
        if not other.over:
            parts.append(_move_rows(other, 1))
    return np.ascontiguousarray(np.concatenate(parts))


def _move_rows(game: TetrisGame, uses_hold: int) -> np.ndarray:
    rows = game.candidate_rows()
    out = np.empty((len(rows), 5), np.int64)
    out[:, 0] = game.active[0]
    out[:, 1] = rows[:, E.C_X]
    out[:, 2] = rows[:, E.C_ROT]
    out[:, 3] = rows[:, E.C_Y_LAND]
    out[:, 4] = uses_hold
    return out

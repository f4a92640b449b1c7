"""The bitboard candidate search lists exactly what the previous search listed.

`tests/tetris/candidates_oracle.py` keeps the generator as it was before the bitboard rewrite (a
breadth-first search over cell collisions, every afterstate's features recomputed from scratch).
On random boards, pieces, positions and scoring states the new `generate_candidates` must give
the same count, the same candidate rows in the same order and the same features.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_gym.tetris import candidates as C
from arcade_gym.tetris import engine as E
from arcade_gym.tetris.game import TetrisGame
from arcade_gym.tetris.rules import SCORING_CLASSIC, SCORING_GUIDELINE, SHAPES
from tests.tetris.candidates_oracle import oracle_candidates


def _random_board(rng: np.random.Generator, full_rows: bool) -> np.ndarray:
    """A stack up to a random height, of random density, with random holes and overhangs."""
    board = np.zeros((E.H, E.W), np.uint8)
    top = int(rng.integers(0, E.H + 1))
    density = rng.uniform(0.3, 0.95)
    for row in range(E.H - top, E.H):
        cells = rng.random(E.W) < density
        if not full_rows or rng.random() > 0.1:
            cells[rng.integers(E.W)] = False  # a game never leaves a full row
        board[row] = np.where(cells, rng.integers(1, 8, E.W), 0)
    return board


def _fits(board: np.ndarray, t: int, x: int, y: int, r: int) -> bool:
    for dx, dy in SHAPES[t, r]:
        cx, cy = x + int(dx), y + int(dy)
        if not 0 <= cx < E.W or cy >= E.H or (cy >= 0 and board[cy, cx] != 0):
            return False
    return True


def _random_state(seed: int, full_rows: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """A random board with the active piece somewhere it fits (None when the draw has no room)."""
    rng = np.random.default_rng(seed)
    board = _random_board(rng, full_rows)
    t = int(rng.integers(7))
    spots = [
        (x, y, r)
        for r in range(4)
        for y in range(-2, E.H - 1)
        for x in range(-2, 9)
        if _fits(board, t, x, y, r)
    ]
    if not spots:
        return None
    if rng.random() < 0.5 and _fits(board, t, 3, -1, 0):
        x, y, r = 3, -1, 0  # the spawn: where IQ questions are asked
    else:
        x, y, r = spots[int(rng.integers(len(spots)))]
    state = np.zeros(E.STATE_LEN, np.int64)
    state[E.S_ACTIVE], state[E.S_X], state[E.S_Y], state[E.S_ROT] = t, x, y, r
    state[E.S_SCORING] = SCORING_CLASSIC if rng.random() < 0.25 else SCORING_GUIDELINE
    state[E.S_LEVEL] = int(rng.integers(0, 20))
    state[E.S_COMBO] = int(rng.integers(-1, 6))
    state[E.S_B2B] = int(rng.integers(0, 2))
    state[E.S_LAST_ROT] = int(rng.integers(0, 2))
    state[E.S_LAST_KICK] = int(rng.integers(-1, 5))
    seq = rng.integers(0, 7, 8).astype(np.int8)
    state[E.S_QPOS] = int(rng.integers(0, seq.shape[0] + 1))  # at the end: no next piece
    return board, state, seq


def _both(
    board: np.ndarray, state: np.ndarray, seq: np.ndarray
) -> tuple[tuple[int, np.ndarray, np.ndarray], tuple[int, np.ndarray, np.ndarray]]:
    results = []
    for generate in (C.generate_candidates, oracle_candidates):
        st_copy = state.copy()
        cinfo = np.full((E.MAX_CANDIDATES, E.CINFO_LEN), -7, np.int64)
        cfeat = np.full((E.MAX_CANDIDATES, E.FEATURES_LEN), -7, np.int64)
        n = int(generate(board, st_copy, seq, cinfo, cfeat))
        assert st_copy[E.S_NCAND] == n
        results.append((n, cinfo[:n], cfeat[:n]))
    return results[0], results[1]


def _assert_same(board: np.ndarray, state: np.ndarray, seq: np.ndarray) -> None:
    (n, cinfo, cfeat), (n_old, cinfo_old, cfeat_old) = _both(board, state, seq)
    assert n == n_old
    assert cinfo.tolist() == cinfo_old.tolist()
    assert cfeat.tolist() == cfeat_old.tolist()


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_bitboard_search_matches_the_previous_generator_on_random_states(seed, full_rows) -> None:
    drawn = _random_state(seed, full_rows)
    if drawn is not None:
        _assert_same(*drawn)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**62), st.lists(st.integers(0, 10**6), min_size=1, max_size=60))
def test_bitboard_search_matches_the_previous_generator_along_played_games(seed, picks) -> None:
    game = TetrisGame(seed)
    for pick in picks:
        if game.over:
            break
        _assert_same(game.board, game.st, game.seq)
        x, r = game.legal_placements()[pick % game.n_candidates]
        game.play(x, r)


def test_caller_buffers_are_left_clean_and_give_the_same_candidates() -> None:
    work = np.empty(C.WORK_LEN, np.int64)
    visited = np.zeros(C.VISITED_LEN, np.int8)
    for seed in range(40):
        drawn = _random_state(seed, full_rows=False)
        if drawn is None:
            continue
        board, state, seq = drawn
        cinfo = np.zeros((E.MAX_CANDIDATES, E.CINFO_LEN), np.int64)
        cfeat = np.zeros((E.MAX_CANDIDATES, E.FEATURES_LEN), np.int64)
        n = C.generate_candidates_into(board, state.copy(), seq, cinfo, cfeat, work, visited)
        assert not visited.any()
        (n_fresh, cinfo_fresh, cfeat_fresh), _ = _both(board, state, seq)
        assert n == n_fresh
        assert cinfo[:n].tolist() == cinfo_fresh.tolist()
        assert cfeat[:n].tolist() == cfeat_fresh.tolist()


def test_pieces_low_over_a_shallow_stack_or_the_floor_match() -> None:
    """Nothing above the piece, but the floor (or a stack) within reach of a rotation: the kicks
    must lift it as the full search does."""
    for rows in ([], ["#........#"], ["##.######."]):
        for t in range(7):
            for y in range(12, 19):
                for x in range(-2, 9):
                    for r in range(4):
                        base = TetrisGame.from_position(rows, "IJLOSTZ"[t], "TIOLJSZ")
                        if not _fits(base.board, t, x, y, r):
                            continue
                        state = base.st.copy()
                        state[E.S_X], state[E.S_Y], state[E.S_ROT] = x, y, r
                        _assert_same(base.board, state, base.seq)


def test_spin_credit_and_duplicate_outcomes_match_on_a_t_slot() -> None:
    """A T-spin slot (the rotation credit decides the score) and an S with duplicate outcomes."""
    for active in "TSZIO":
        game = TetrisGame.from_position(
            ["#......###", "##....####", "###..#####", "####.#####"], active, "TIOLJSZ"
        )
        _assert_same(game.board, game.st, game.seq)
        game.st[E.S_LAST_ROT], game.st[E.S_LAST_KICK] = 1, 4
        _assert_same(game.board, game.st, game.seq)


@pytest.mark.slow
@settings(max_examples=5000, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_bitboard_search_matches_the_previous_generator_on_many_random_states(
    seed, full_rows
) -> None:
    drawn = _random_state(seed, full_rows)
    if drawn is not None:
        _assert_same(*drawn)

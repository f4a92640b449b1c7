"""The vector env's own move and partner kernels agree with the engine the single env plays:
the bit-mask win test with `engine.apply_move`'s line walk, the partners' batched choice with
`engine.seeded_empty`, on every board size."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_gym.tictactoe import engine as E
from arcade_gym.tictactoe import vector as V
from arcade_gym.tictactoe.rules import SIZES, line_length


@settings(max_examples=60, deadline=None)
@given(size=st.sampled_from(SIZES), order_seed=st.integers(0, 2**32 - 1))
def test_play_reports_what_apply_move_reports(size: int, order_seed: int) -> None:
    n2, k = size * size, line_length(size)
    masks = V.window_masks(size)
    flat = np.zeros((1, n2), np.int8)
    state = np.zeros((1, V.STATE_LEN), np.int64)
    obs = np.zeros((1, 2 * n2), np.int8)
    mask = np.ones((1, n2), np.int8)
    board = np.zeros(n2, np.int8)
    for placed, cell in enumerate(np.random.default_rng(order_seed).permutation(n2)):
        side = 1 + placed % 2
        expected = E.apply_move(board, size, k, int(cell), side, placed)
        got = V._play(flat, state, obs, mask, 0, int(cell), side, side - 1, size, k, masks)
        assert got == expected
        assert (flat[0] == board).all() and state[0, V.S_PLACED] == placed + 1
        assert obs[0, 2 * cell + side - 1] == 1 and mask[0, cell] == 0
        if expected != 0:
            break


@settings(max_examples=40, deadline=None)
@given(
    size=st.sampled_from(SIZES),
    boards_seed=st.integers(0, 2**32 - 1),
    seeds=st.lists(st.integers(0, 2**63 - 1), min_size=1, max_size=12),
)
def test_batched_random_choice_is_seeded_empty(
    size: int, boards_seed: int, seeds: list[int]
) -> None:
    n2 = size * size
    rng = np.random.default_rng(boards_seed)
    games = len(seeds)
    flat = np.zeros((games, n2), np.int8)
    state = np.zeros((games, V.STATE_LEN), np.int64)
    for i, seed in enumerate(seeds):
        stones = int(rng.integers(0, n2))  # at least one empty cell
        for placed, cell in enumerate(rng.permutation(n2)[:stones]):
            flat[i, cell] = 1 + placed % 2
            state[i, V.S_BITS + placed % 2] |= 1 << int(cell) if n2 <= V.MAX_BIT_CELLS else 0
        state[i, V.S_PLACED] = stones
        state[i, V.S_SEED] = seed
    cells = np.empty(games, np.int64)
    V._random_cells(flat, state, np.arange(games), games, cells, n2 <= V.MAX_BIT_CELLS)
    expected = [E.seeded_empty(flat[i], np.uint64(seeds[i])) for i in range(games)]
    assert cells.tolist() == expected

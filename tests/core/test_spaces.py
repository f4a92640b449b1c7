"""The masked samplers: every draw is legal, every legal action can be drawn, empty rows give 0."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from arcade_gym.core.spaces import BatchMaskedDiscrete, MaskedDiscrete, sample_rows


@settings(max_examples=60, deadline=None)
@given(
    arrays(np.int8, st.tuples(st.integers(1, 6), st.integers(1, 12)), elements=st.integers(0, 1))
)
def test_sample_rows_draws_a_legal_index_per_row(masks: np.ndarray) -> None:
    rng = np.random.default_rng(0)
    seen = np.zeros_like(masks, dtype=bool)
    for _ in range(200):
        picks = sample_rows(masks, rng)
        for i, a in enumerate(picks):
            if masks[i].any():
                assert masks[i, a] == 1
                seen[i, a] = True
            else:
                assert a == 0
    np.testing.assert_array_equal(seen[masks.any(axis=1)], masks[masks.any(axis=1)] == 1)


def test_the_batched_space_follows_its_live_masks_and_explicit_ones() -> None:
    live = np.array([[0, 1, 0], [1, 0, 0]], np.int8)
    space = BatchMaskedDiscrete(3, live, seed=1)
    assert [tuple(space.sample()) for _ in range(5)] == [(1, 0)] * 5
    live[1] = [0, 0, 1]
    assert tuple(space.sample()) == (1, 2)
    assert tuple(space.sample(mask=np.array([[1, 0, 0], [0, 1, 0]]))) == (0, 1)
    assert tuple(space.sample(mask=(np.array([0, 0, 1]), np.array([1, 0, 0])))) == (2, 0)


def test_the_single_space_samples_the_live_mask() -> None:
    live = np.zeros(5, np.int8)
    space = MaskedDiscrete(5, live, seed=0)
    live[3] = 1
    assert {int(space.sample()) for _ in range(20)} == {3}
    live[:] = 0  # nothing legal (an ended game): an unmasked draw rather than an error
    assert 0 <= int(space.sample()) < 5

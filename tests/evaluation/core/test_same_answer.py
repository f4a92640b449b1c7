"""`verify` compares a re-derived answer with the recorded one up to float rounding across CPUs
(`evaluation/core/same_answer.py`): the last bits of a probability may differ, anything else not."""

from __future__ import annotations

import math

import pytest

from evaluation.core.same_answer import REL_TOL, same_answer


def test_the_last_bits_of_a_float_do_not_count() -> None:
    recorded = {"choice": [{"x": 5, "rotation": 2, "p": 5.6640520568654775e-96}], "hold": False}
    derived = {"choice": [{"x": 5, "rotation": 2, "p": 5.664052056865478e-96}], "hold": False}
    assert derived != recorded and same_answer(derived, recorded)
    assert same_answer(0.1 + 0.2, 0.3)
    assert same_answer(math.nan, math.nan)


@pytest.mark.parametrize(
    ("derived", "recorded"),
    [
        (0.5, 0.5 * (1 + 10 * REL_TOL)),  # a real difference
        (0.0, 1e-300),
        (1, True),
        (True, 1.0),
        (1.0, "1.0"),
        ([1, 2], [1, 2, 3]),
        ({"x": 1}, {"x": 1, "y": 2}),
        ({"x": 1}, {"y": 1}),
        ({"x": [1.0]}, {"x": 1.0}),
        ("a", "b"),
        (None, 0),
        (math.nan, 0.0),
    ],
)
def test_anything_else_differs(derived: object, recorded: object) -> None:
    assert not same_answer(derived, recorded)


def test_integers_compare_exactly() -> None:
    assert same_answer(3, 3) and same_answer(3, 3.0)
    assert not same_answer(10**17, 10**17 + 1)

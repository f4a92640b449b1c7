"""One money formatter for every table (`evaluation/core/money.py`): a cost under a cent keeps
its digits, an unknown cost is n/a, never zero."""

from __future__ import annotations

import pytest

from evaluation.core.money import usd


@pytest.mark.parametrize(
    ("amount", "text"),
    [
        (0.0011, "$0.0011"),
        (0.00109, "$0.0011"),
        (0.0099, "$0.0099"),
        (0.009999, "$0.01"),  # rounds up to a cent: shown as cents
        (4e-6, "$0.0000040"),
        (0.0, "$0.00"),
        (0.01, "$0.01"),
        (1234.5, "$1,234.50"),
        (-0.0011, "-$0.0011"),
    ],
)
def test_amounts_keep_two_significant_digits_under_a_cent(amount: float, text: str) -> None:
    assert usd(amount) == text


@pytest.mark.parametrize("amount", [None, float("nan"), float("inf")])
def test_an_unknown_amount_is_not_a_number_of_dollars(amount: float | None) -> None:
    assert usd(amount) == "n/a"
    assert usd(amount, none="-") == "-"

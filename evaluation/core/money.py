"""Dollar amounts as every table shows them: one formatter, so a cost under a cent never reads as
`$0.00` and an unknown cost (a local model without a list price) reads `n/a`, never zero."""

from __future__ import annotations

import math

SIGNIFICANT = 2
"""Significant digits kept for an amount under a cent ($0.0011, $0.000042)."""


def usd(amount: float | None, *, none: str = "n/a") -> str:
    """`$12.34` for a cent or more (thousands separated), enough digits below a cent to show
    `SIGNIFICANT` of them (`$0.0011`), `$0.00` for exactly zero, `none` for an unknown amount
    (None or not finite)."""
    if amount is None or isinstance(amount, bool) or not math.isfinite(amount):
        return none
    sign = "-" if amount < 0 else ""
    value = abs(float(amount))
    if value == 0 or value >= 0.01:
        return f"{sign}${value:,.2f}"
    decimals = SIGNIFICANT - 1 - math.floor(math.log10(value))
    text = f"{value:.{decimals}f}"
    if float(text) >= 0.01:  # rounding carried it up to a cent
        return f"{sign}${value:,.2f}"
    return f"{sign}${text}"

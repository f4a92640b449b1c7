"""How NARCADE's pages name and format things: the section, the games of the published table and
their score names, the closing table's mark, numbers and links to a policy's page."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from evaluation.core.rundir import safe_name
from evaluation.site.build import relative
from evaluation.site.html import Markup, link

SECTION = "narcade"
TABLE_GAMES = ("tetris", "snake", "minesweeper")
"""Column order of the published table."""
SCORE_NAMES = {
    "tetris": "Tetris points",
    "snake": "Snake food",
    "minesweeper": "Minesweeper safe squares",
}
INCOMPLETE_NOTE = "* incomplete: the model failed or was stopped; not comparable"
"""The closing table's footnote (`report.py`), for the same mark."""


def mean_cell(entry: Mapping[str, Any] | None) -> str:
    """The closing table's cell: the mean, `*` when the result is not complete, `-` without."""
    if entry is None or entry.get("meanScore") is None:
        return "-"
    text = number(entry["meanScore"])
    return text + ("*" if entry.get("status") != "complete" else "")


def number(value: Any) -> str:
    if value is None:
        return "\u2014"
    number = float(value)
    if number == int(number):
        return f"{int(number):,}"
    return f"{number:,.2f}"


def policy_link(page: str, model: str, name: Any = None) -> Markup:
    target = f"{SECTION}/policies/{safe_name(model)}.html"
    return link(relative(page, target), name or model, title=model)

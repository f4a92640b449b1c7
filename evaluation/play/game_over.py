"""The screen a person sees when a game of `arcade-eval play` ends: the final board kept in place,
the result said in words and where the game was saved, each wrapped to the terminal's width (never
a raw record cut at its edge).

The board is the frame of the last question the person answered, drawn by the game's own keys (a
puzzle grid as handed in, with the person's digits in their style); the words come from the result
line of the log, whatever benchmark wrote it.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from evaluation.play.screen import Span, View

HEADLINE = ("outcome", "winner", "result", "endReason")
"""Result fields that say how a game ended, the first present one leading the words."""
LONGEST = 40
"""A value longer than this (a grid, a list) is left to the log, not spelled out."""


def words(name: str) -> str:
    """`cellsRight` -> `cells right`, `end_reason` -> `end reason`."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("_", " ").lower()


def _scalar(value: object) -> bool:
    return isinstance(value, int | float | str | bool) and len(str(value)) <= LONGEST


def _number(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:,.3f}".rstrip("0").rstrip(".")
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def result_words(result: Mapping[str, Any]) -> tuple[str, str]:
    """The headline (`Game over: solved.`) and the other figures of a result line
    (`score 1, cells right 81, ...`), scalars only."""
    fields = {k: v for k, v in result.items() if k != "type" and _scalar(v)}
    lead = next((k for k in HEADLINE if k in fields), None)
    headline = "Game over." if lead is None else f"Game over: {_number(fields.pop(lead))}."
    figures = ", ".join(f"{words(k)} {_number(v)}" for k, v in fields.items())
    return headline, figures


def wrapped(text: str, width: int) -> list[str]:
    """`text` in lines of at most `width` characters; a word longer than that (a path) is cut
    into pieces, never lost."""
    return textwrap.wrap(text, max(width, 10), break_long_words=True, break_on_hyphens=False)


def game_over_view(
    board: View | None, result: Mapping[str, Any], log: Path, width: int, title: str
) -> View:
    """The final frame: the board (without its cursor) above the words."""
    headline, figures = result_words(result)
    board_lines = list(board.lines) if board is not None else [title]
    spans = list(board.spans) if board is not None else [Span(0, 0, len(title), "title")]
    lines = [*board_lines, ""]
    good = str(result.get("outcome", result.get("winner", ""))) in ("solved", "win", "human")
    spans.append(Span(len(lines), 0, len(headline), "good" if good else "title"))
    lines += wrapped(headline, width)
    lines += wrapped(figures, width) if figures else []
    lines += ["", *wrapped("Your game is saved in the log:", width), *wrapped(str(log), width)]
    lines += ["", "press any key to leave"]
    return View(lines, None, spans)

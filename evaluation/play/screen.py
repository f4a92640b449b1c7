"""The curses terminal a person plays in: whole-screen text frames, styled spans, one highlighted
cell, keys.

A frame names what a span *means* (`given`, `entry`, `label`, ...: `STYLES`), never a colour: the
screen draws each meaning in colour where the terminal has it (curses `has_colors`, and neither
`NO_COLOR` set nor `TERM` dumb) and as a monochrome attribute (bold, underline, dim) otherwise,
so a person's digits stand apart from the givens either way.

Keys are read with a short timeout so a waiting read notices when its call was cancelled (the game
was quit or interrupted) and returns. Key names are plain: `left`, `right`, `up`, `down`, `enter`,
`space`, `backspace`, `escape`, or the character typed.
"""

from __future__ import annotations

import curses
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass

POLL_MS = 100
"""How often a waiting key read checks whether it is still wanted."""

_SPECIAL = {
    curses.KEY_LEFT: "left",
    curses.KEY_RIGHT: "right",
    curses.KEY_UP: "up",
    curses.KEY_DOWN: "down",
    curses.KEY_ENTER: "enter",
    curses.KEY_BACKSPACE: "backspace",
    curses.KEY_DC: "backspace",
}
_CHARS = {"\n": "enter", "\r": "enter", " ": "space", "\x7f": "backspace", "\b": "backspace"}
_CHARS["\x1b"] = "escape"


def key_name(key: int | str) -> str:
    """The plain name of what `get_wch` returned."""
    if isinstance(key, int):
        return _SPECIAL.get(key, f"key-{key}")
    return _CHARS.get(key, key)


STYLES: dict[str, tuple[int, int]] = {
    # meaning: (colour, monochrome attribute); colour -1 keeps the terminal's own
    "title": (-1, curses.A_BOLD),
    "given": (-1, curses.A_BOLD),
    "entry": (curses.COLOR_CYAN, curses.A_UNDERLINE),
    "label": (curses.COLOR_YELLOW, curses.A_DIM),
    "good": (curses.COLOR_GREEN, curses.A_BOLD),
    "bad": (curses.COLOR_RED, curses.A_BOLD),
    "ask": (curses.COLOR_MAGENTA, curses.A_REVERSE),
}
"""What a span of a frame means, and how it is drawn in colour and without."""


@dataclass(frozen=True)
class Span:
    """`length` characters of line `line` from column `col`, drawn as `style` (`STYLES`)."""

    line: int
    col: int
    length: int
    style: str


@dataclass(frozen=True)
class View:
    """One frame: its text lines, the (line, column) of the cell under the cursor, if any, and
    the styled spans over the text."""

    lines: Sequence[str]
    mark: tuple[int, int] | None = None
    spans: Sequence[Span] = ()


def wants_colour(has_colors: bool, environ: dict[str, str] | None = None) -> bool:
    """Whether to draw in colour: the terminal has it, `NO_COLOR` is not set
    (https://no-color.org) and `TERM` is not `dumb`."""
    env = os.environ if environ is None else environ
    return has_colors and "NO_COLOR" not in env and env.get("TERM", "") not in ("", "dumb")


def beside(picture: Sequence[str], side: Sequence[str], gap: int = 3) -> list[str]:
    """Text lines of `side` to the right of a board `picture` (a board's score panel)."""
    width = max((len(line) for line in picture), default=0) + gap
    return [
        (line.ljust(width) + (side[i] if i < len(side) else "")).rstrip()
        for i, line in enumerate(picture)
    ]


class Screen:
    """A curses window that shows `View`s and reads keys; a lock keeps the policy's thread and
    the main thread (the last frame after a game) from drawing at once."""

    def __init__(self, window: curses.window) -> None:
        self.window = window
        self.lock = threading.Lock()
        curses.curs_set(0)
        window.keypad(True)
        window.timeout(POLL_MS)
        self.attributes = {name: mono for name, (_, mono) in STYLES.items()}
        self.colour = wants_colour(curses.has_colors())
        if self.colour:
            self._start_colour()

    def _start_colour(self) -> None:
        """A colour pair per style that has a colour; bold stays where monochrome had it."""
        curses.start_color()
        try:
            curses.use_default_colors()
            background = -1
        except curses.error:
            background = curses.COLOR_BLACK
        for pair, (name, (colour, mono)) in enumerate(STYLES.items(), start=1):
            if colour < 0:
                continue
            try:
                curses.init_pair(pair, colour, background)
            except curses.error:
                continue  # keep the monochrome attribute
            bold = mono & (curses.A_BOLD | curses.A_REVERSE)
            self.attributes[name] = curses.color_pair(pair) | bold

    def width(self) -> int:
        """The columns a line may fill (one short of the edge, which curses cannot write)."""
        return int(self.window.getmaxyx()[1]) - 1

    def show(self, view: View) -> None:
        """Draw a frame (lines longer or more than the terminal holds are cut)."""
        with self.lock:
            self._draw(view)

    def _draw(self, view: View) -> None:
        window = self.window
        window.erase()
        height, width = window.getmaxyx()
        for y, line in enumerate(view.lines[: height - 1]):
            window.addnstr(y, 0, line, width - 1)
        for span in view.spans:
            y, x = span.line, span.col
            if 0 <= y < min(height - 1, len(view.lines)) and 0 <= x < width - 1:
                text = view.lines[y][x : x + span.length]
                if text:
                    window.addnstr(y, x, text, width - 1 - x, self.attributes.get(span.style, 0))
        if view.mark is not None:
            y, x = view.mark
            if 0 <= y < height - 1 and 0 <= x < width - 1 and y < len(view.lines):
                line = view.lines[y]
                char = line[x] if x < len(line) else " "
                window.addnstr(y, x, char, 1, curses.A_REVERSE)
        window.refresh()

    def key(self, cancelled: threading.Event | None = None) -> str | None:
        """The next key, or None once `cancelled` is set."""
        while cancelled is None or not cancelled.is_set():
            try:
                with self.lock:
                    key = self.window.get_wch()
            except curses.error:  # no key within POLL_MS
                continue
            if key == curses.KEY_RESIZE:
                continue
            return key_name(key)
        return None

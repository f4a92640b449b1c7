"""The curses terminal a person plays in: whole-screen text frames, one highlighted cell, keys.

Keys are read with a short timeout so a waiting read notices when its call was cancelled (the game
was quit or interrupted) and returns. Key names are plain: `left`, `right`, `up`, `down`, `enter`,
`space`, `backspace`, `escape`, or the character typed.
"""

from __future__ import annotations

import curses
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


@dataclass(frozen=True)
class View:
    """One frame: its text lines and the (line, column) of the cell under the cursor, if any."""

    lines: Sequence[str]
    mark: tuple[int, int] | None = None


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

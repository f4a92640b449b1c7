"""A person at the keyboard as a policy: each question is drawn, keys are read until they make an
answer, and the answer goes back to the benchmark's episode loop like any policy's.

`q` asks first (`y` quits, any other key plays on, so a stray key never throws a game away);
quitting interrupts the main thread (where the loop waits for the answer) exactly as Ctrl-C would,
so the loop ends the log with its `interrupted` result line, which `verify` reports as a game cut
short. `?` shows the game's keys. The last question asked is kept (`last`): the game-over screen
draws its board.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Sequence
from typing import Any, Protocol

from evaluation.play.screen import Screen, Span, View
from policies.base import DecisionContext, PolicyKind

QUIT = "q"
HELP = "?"
CONFIRM = "quit? the game is not counted (y: quit, any other key: play on)"


class Keys(Protocol):
    """One game's keyboard: how a question is drawn and how keys become its answer."""

    title: str
    help: Sequence[str]

    def view(self, question: Any) -> View:
        """The frame of a question (board, score, cursor)."""

    def press(self, question: Any, key: str) -> Any:
        """The answer `key` gives to `question`, or None (the cursor moved, or nothing)."""

    def typing(self) -> bool:
        """Whether keys are being typed into a text (then `q` is a letter, not quit)."""

    # Optional: `final(question, result) -> View | None`, the board after the game's last move
    # (read from the result line), for the game-over screen; without it the screen shows the
    # board of the last question.


def interrupt_main() -> None:
    """Raise KeyboardInterrupt in the main thread, as Ctrl-C does (a real signal, so a wait
    there is woken)."""
    signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)


class Human:
    """The person playing (identity: name `human`, kind `human`)."""

    slug = "human"
    name = "human"
    description = "a person at the keyboard (arcade-eval play)"
    kind: PolicyKind = "human"
    adapter_version = "1"

    def __init__(self, keys: Keys, screen: Screen, footer: Sequence[str] = ()) -> None:
        self.keys = keys
        self.screen = screen
        self.footer = list(footer)
        self.message = ""
        self.last: Any = None

    def frame(self, question: Any, show_help: bool, asking: bool = False) -> View:
        """The game's view with the status lines below it (`asking`: the quit question)."""
        view = self.keys.view(question)
        message = CONFIRM if asking else self.message
        at = len(view.lines) + 1
        lines = [*view.lines, "", message, *self.footer, "? keys   q quit"]
        spans = [*view.spans]
        if message:
            spans.append(Span(at, 0, len(message), "ask" if asking else "bad"))
        if show_help:
            lines += ["", *self.keys.help, "?  hide the keys", "q  quit (the game is not counted)"]
        return View(lines, view.mark, spans)

    def confirm_quit(self, question: Any, ctx: DecisionContext) -> bool:
        """Ask whether to quit; True for `y` (or `Y`)."""
        self.screen.show(self.frame(question, False, asking=True))
        key = self.screen.key(ctx.cancelled)
        return key in ("y", "Y")

    def act(self, question: Any, ctx: DecisionContext) -> Any:
        self.last = question
        show_help = False
        while not ctx.cancelled.is_set():
            self.screen.show(self.frame(question, show_help))
            key = self.screen.key(ctx.cancelled)
            if key is None:
                break
            if key == QUIT and not self.keys.typing():
                if not self.confirm_quit(question, ctx):
                    continue
                interrupt_main()
                ctx.cancelled.wait()
                break
            if key == HELP and not self.keys.typing():
                show_help = not show_help
                continue
            self.message = ""
            try:
                answer = self.keys.press(question, key)
            except ValueError as why:  # a key that cannot apply here: say so, keep waiting
                self.message = str(why)
                continue
            if answer is not None:
                return answer
        return None

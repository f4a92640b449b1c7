"""The keyboard of a game played on its env directly: digits type an action index, Enter plays
it, Backspace deletes a digit, Escape clears. An index the env masks (or that is out of range) is
refused with one line and the player types again."""

from __future__ import annotations

from collections.abc import Sequence

from evaluation.play.env_episode import EnvQuestion
from evaluation.play.screen import View

HELP = (
    "0-9         type an action index",
    "enter       play it          backspace  delete a digit     escape  clear",
)


class EnvKeys:
    """Digits become one action index."""

    help: Sequence[str] = HELP

    def __init__(self, title: str) -> None:
        self.title = title
        self.typed = ""

    def typing(self) -> bool:
        return False  # digits only: `q` always quits

    def press(self, question: EnvQuestion, key: str) -> int | None:
        if key.isdigit() and len(key) == 1:
            self.typed += key
        elif key == "backspace":
            self.typed = self.typed[:-1]
        elif key == "escape":
            self.typed = ""
        elif key == "enter":
            return self._action(question)
        return None

    def _action(self, question: EnvQuestion) -> int:
        text, self.typed = self.typed, ""
        if not text:
            raise ValueError("type an action index, then Enter")
        action = int(text)
        last = question.first + question.actions - 1
        if not question.first <= action <= last:
            raise ValueError(f"action {action} is out of range: {question.first} to {last}")
        if question.legal is not None and action not in question.legal:
            legal = ", ".join(map(str, question.legal))
            raise ValueError(f"action {action} is masked here; legal: {legal}")
        return action

    def view(self, question: EnvQuestion) -> View:
        legal = "" if question.legal is None else "; legal " + ", ".join(map(str, question.legal))
        return View(
            [
                f"{self.title}  step {question.step}",
                *question.text.splitlines(),
                "",
                f"actions {question.first} to {question.first + question.actions - 1}{legal}",
                f"action> {self.typed}",
            ]
        )

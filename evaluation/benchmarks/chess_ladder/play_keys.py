"""Chess against a ladder rung at the keyboard: the person types a move in SAN (`Nf3`, `O-O`,
`e8=Q`) or UCI (`g1f3`) and Enter plays it.

A move that is not legal here is refused on the spot with the reason (it never reaches the game,
where three rejected tries forfeit). While a move is being typed, `q` and `?` are letters;
Escape clears the line. The answer is `{"move": text}` as the ladder records any player's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arcade_gym.chess.contract import ChessQuestion, check_answer
from evaluation.play.screen import View

HELP = (
    "type a move   SAN (Nf3, exd5, O-O, e8=Q) or UCI (g1f3, e7e8q)",
    "enter         play it          backspace  delete a letter     escape  clear",
)
LAST_MOVES = 12
"""How many of the game's latest moves the screen lists."""


class ChessKeys:
    """The move being typed."""

    title = "Chess ladder"
    help: Sequence[str] = HELP

    def __init__(self, rung: str = "") -> None:
        self.text = ""
        self.rung = rung

    def typing(self) -> bool:
        return bool(self.text)

    def press(self, question: ChessQuestion, key: str) -> dict[str, Any] | None:
        if key == "enter":
            text, self.text = self.text.strip(), ""
            if not text:
                return None
            check = check_answer(question, {"move": text})
            if not check.legal:
                raise ValueError(f"{text}: {check.feedback or 'not a legal move here'}")
            return {"move": text}
        if key == "backspace":
            self.text = self.text[:-1]
        elif key == "escape":
            self.text = ""
        elif key == "space":
            self.text += " "
        elif len(key) == 1 and key.isprintable():
            self.text += key
        return None

    def view(self, question: ChessQuestion) -> View:
        moves = question.moves_san
        first = max(0, len(moves) - LAST_MOVES)
        numbered = [
            f"{(first + i) // 2 + 1}. {san}" if (first + i) % 2 == 0 or i == 0 else san
            for i, san in enumerate(moves[first:])
        ]
        against = f" against {self.rung}" if self.rung else ""
        lines = [
            f"{self.title}  ({question.variant}{against})",
            *question.board.splitlines(),
            "",
            f"you play {question.colour}; move {question.ply // 2 + 1}",
            "moves: " + (" ".join(numbered) if numbered else "-"),
            f"your move: {self.text}_",
        ]
        return View(lines)

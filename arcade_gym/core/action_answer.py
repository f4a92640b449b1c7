"""Reading a one-action answer (NARCADE's Snake, Minesweeper and Tetris controls) safely.

Policies answer `{"action": "<name>"}`, a bare action name, JSON text or bytes, or the game's
answer model. Each game then judges the name; this module does the part they share: decoding
whatever arrived without ever raising on junk, and short, safe descriptions of it for reasons.
"""

from __future__ import annotations

import json
import reprlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

Status = Literal["valid", "invalid"]

_repr = reprlib.Repr()
_repr.maxstring = 40
_repr.maxother = 40
_repr.maxlist = 8


class RejectError(Exception):
    """An answer is unusable; `reason` says why (it becomes the verdict's reason)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def brief(value: object) -> str:
    """A short, safe repr for reasons and notes (junk may be huge, deep or unprintable)."""
    try:
        return _repr.repr(value)
    except Exception:  # ints too long to print, or a hostile __repr__
        return f"<{type(value).__name__}>"


@dataclass(frozen=True)
class ActionVerdict:
    """The judgement of one answer: the action to play, or why nothing is played."""

    status: Status
    reason: str | None = None
    notes: tuple[str, ...] = ()
    action: str | None = None

    @property
    def usable(self) -> bool:
        """Whether the answer is played."""
        return self.status == "valid"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready record for the event log."""
        return {
            "status": self.status,
            "reason": self.reason,
            "notes": list(self.notes),
            "action": self.action,
        }


def decode(answer: object, model: type) -> object:
    """The answer as a mapping, a bare string, or whatever else arrived; JSON text is decoded.

    An instance of the game's answer `model` becomes `{"action": ...}` (a `model_construct()`ed
    one may lack the field); bytes must be UTF-8.
    """
    if isinstance(answer, model):
        return {"action": getattr(answer, "action", None)}
    if isinstance(answer, bytes | bytearray | memoryview):
        try:
            answer = bytes(answer).decode("utf-8")
        except UnicodeDecodeError:
            raise RejectError("answer is not valid UTF-8 text") from None
    if isinstance(answer, str):
        text = answer.strip()
        if text[:1] in ("{", '"'):
            try:
                return json.loads(text)
            except (ValueError, RecursionError) as exc:
                raise RejectError(f"answer is not valid JSON: {exc!s:.80}") from None
        return text
    return answer


def action_value(obj: object, notes: list[str], what: str) -> object:
    """The raw `action` of a decoded answer: a mapping's `action` (other keys ignored with a
    note) or the bare value itself when it is a string. `what` names the expected thing."""
    if isinstance(obj, Mapping):
        if "action" not in obj:
            raise RejectError(f"action is missing (keys: {brief(list(obj)[:8])})")
        unknown = [key for key in obj if key != "action"]
        if unknown:
            notes.append(f"ignored unknown keys: {brief(unknown[:8])}")
        return obj["action"]
    if isinstance(obj, str):
        return obj
    raise RejectError(f"answer must be {what} or an object with 'action', got {type(obj).__name__}")


V = TypeVar("V")


def never_raising(judge: Callable[[], V], invalid: Callable[[str], V]) -> V:
    """Run `judge`; a RejectError, runaway nesting or any bug becomes `invalid(reason)`.

    Junk from a policy must cost that policy a decision, never crash the harness.
    """
    try:
        return judge()
    except RejectError as reject:
        return invalid(reject.reason)
    except RecursionError:
        return invalid("answer is nested too deeply to validate")
    except Exception as exc:  # last line of defence
        return invalid(f"internal error while validating: {type(exc).__name__}")

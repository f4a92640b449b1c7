"""The question/answer contract of ruleset `tetris-bench@3`, and the answer validator.

A brain receives an `AgentInput` (the question) and returns an `AgentAnswer`. Python attribute names
are snake_case; the wire form (JSON) uses the seed's camelCase names, so a brain written in any
language reads and writes the same documents. `validate` judges whatever a brain returned against
the question it was asked and never raises: a brain's junk must cost that brain a tick, never crash
the harness. An answer's optional fields and untrusted scalars are read in `answer_fields.py`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import ConfigDict, Field

from arcade_gym.core.wire import WIRE, WireModel
from arcade_gym.tetris.answer_fields import (
    Extras,
    as_finite_float,
    as_int,
    brief,
    read_extras,
)

PieceLetter = Literal["I", "J", "L", "O", "S", "T", "Z"]
Cell = PieceLetter | None
Mode = Literal["IQ", "Blitz"]
Status = Literal["valid", "invalid", "stale"]

SUM_TOLERANCE = 0.001
"""How far the choice probabilities may sum from 1 (inclusive)."""


# --------------------------------------------------------------------------------------------
# The question
# --------------------------------------------------------------------------------------------


class Placement(WireModel):
    """A column and rotation to hard-drop the piece in play from; hashable so it keys dicts."""

    model_config = ConfigDict(**WIRE, frozen=True)

    x: int
    rotation: int


class ActivePiece(WireModel):
    """The piece in play: type, top-left of its bounding box, and SRS rotation (0 = spawn)."""

    type: PieceLetter
    x: int
    y: int
    rotation: int


class BoardFeatures(WireModel):
    """The board summary the local heuristics use (definitions in `docs/rules/tetris.md`)."""

    heights: list[int]
    max_height: int
    aggregate_height: int
    holes: int
    bumpiness: int
    wells: int
    row_transitions: int
    col_transitions: int


class Candidate(WireModel):
    """One legal placement simulated one step ahead: the locked board and what it scored."""

    id: str
    placement: Placement
    lines_cleared: int
    score_delta: int
    drop_points: int
    clear_points: int
    top_out: bool
    features: BoardFeatures
    grid: list[list[Cell]]


class AgentInput(WireModel):
    """The question asked each tick: state, preview, hold slot and every legal placement."""

    ruleset: str
    mode: Mode
    tick: int
    state_hash: str
    active: ActivePiece
    hold: PieceLetter | None
    can_hold: bool
    next: list[PieceLetter]
    level: int
    score: int
    lines: int
    pieces: int
    combo: int
    back_to_back: bool
    grid: list[list[Cell]]
    features: BoardFeatures
    legal: list[Placement]
    candidates: list[Candidate]


# --------------------------------------------------------------------------------------------
# The answer
# --------------------------------------------------------------------------------------------

_STRICT_WIRE = ConfigDict(**WIRE, strict=True)
_Probability = Field(ge=0, le=1, allow_inf_nan=False)


class ChoiceEntry(WireModel):
    """One listed placement with the probability the brain gives it."""

    model_config = _STRICT_WIRE

    x: int
    rotation: int
    p: float = _Probability


class Noul(WireModel):
    """Optional hold request: a boolean, or a number that requests a hold when above 0.5."""

    model_config = _STRICT_WIRE

    hold: bool | float = Field(allow_inf_nan=False)


class ScoreField(WireModel):
    """Optional risk estimate: P(top-out within the next ten pieces), scored for calibration."""

    model_config = _STRICT_WIRE

    risk: float = _Probability


class AgentAnswer(WireModel):
    """A brain's answer: a probability over listed placements plus optional extras."""

    model_config = _STRICT_WIRE

    state_hash: str
    choice: list[ChoiceEntry]
    noul: Noul | None = None
    score: ScoreField | None = None
    cost_usd: float | None = Field(default=None, ge=0, allow_inf_nan=False)
    meta: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The wire form: camelCase keys, absent optional fields omitted (not null)."""
        return self.model_dump(by_alias=True, exclude_none=True, mode="json")

    @classmethod
    def single(
        cls,
        state_hash: str,
        placement: Placement | tuple[int, int],
        *,
        hold: bool = False,
        risk: float | None = None,
        cost_usd: float | None = None,
        meta: dict[str, Any] | None = None,
    ) -> AgentAnswer:
        """The one-entry, p = 1 answer most brains give (what an LLM's pick becomes)."""
        x, rotation = (
            (placement.x, placement.rotation) if isinstance(placement, Placement) else placement
        )
        return cls(
            state_hash=state_hash,
            choice=[ChoiceEntry(x=x, rotation=rotation, p=1.0)],
            noul=Noul(hold=True) if hold else None,
            score=None if risk is None else ScoreField(risk=risk),
            cost_usd=cost_usd,
            meta=meta,
        )


def answer_json_schema() -> dict[str, Any]:
    """JSON schema of the AgentAnswer wire form, for adapters and structured-output APIs."""
    return AgentAnswer.model_json_schema(by_alias=True)


# --------------------------------------------------------------------------------------------
# The verdict
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """The harness's judgement of one answer: what to play, and why when nothing is played."""

    status: Status
    reason: str | None = None
    notes: tuple[str, ...] = ()
    placement: Placement | None = None
    hold: bool = False
    risk: float | None = None
    cost_usd: float | None = None
    meta: dict[str, Any] | None = field(default=None, hash=False)

    @property
    def usable(self) -> bool:
        """Whether the answer is played (anything else counts towards adapter failure)."""
        return self.status == "valid"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready record for the event log (camelCase, like the rest of the wire)."""
        return {
            "status": self.status,
            "reason": self.reason,
            "notes": list(self.notes),
            "placement": None if self.placement is None else self.placement.to_dict(),
            "hold": self.hold,
            "risk": self.risk,
            "costUsd": self.cost_usd,
            "meta": self.meta,
        }


# --------------------------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------------------------


class _RejectError(Exception):
    """Raised inside the validator to stop at the first broken rule."""

    def __init__(self, status: Status, reason: str) -> None:
        super().__init__(reason)
        self.status: Status = status
        self.reason = reason


def _parse(answer: object) -> Mapping[Any, Any]:
    """Rule 1: the answer, whatever form it came in, must be a JSON object."""
    if isinstance(answer, AgentAnswer):
        try:
            return answer.model_dump(by_alias=True, exclude_none=True)
        except Exception as exc:  # a model_construct()-ed answer may hold anything
            raise _RejectError("invalid", f"answer could not be serialised: {exc!r:.80}") from None
    if isinstance(answer, bytes | bytearray | memoryview):
        try:
            answer = bytes(answer).decode("utf-8")
        except UnicodeDecodeError:
            raise _RejectError("invalid", "answer is not valid UTF-8 JSON text") from None
    if isinstance(answer, str):
        try:
            answer = json.loads(answer)
        except (ValueError, RecursionError, OverflowError, TypeError) as exc:
            raise _RejectError("invalid", f"answer is not valid JSON: {exc!s:.80}") from None
    if not isinstance(answer, Mapping):
        raise _RejectError("invalid", f"answer must be a JSON object, got {type(answer).__name__}")
    return answer


def _check_hash(obj: Mapping[Any, Any], question: AgentInput) -> None:
    """Rule 2: the hash must be present, a string, and the one of the question asked."""
    if "stateHash" not in obj:
        hint = " (the wire name is stateHash, not state_hash)" if "state_hash" in obj else ""
        raise _RejectError("invalid", f"stateHash is missing{hint}")
    state_hash = obj["stateHash"]
    if not isinstance(state_hash, str):
        raise _RejectError(
            "invalid", f"stateHash must be a string, got {type(state_hash).__name__}"
        )
    if state_hash != question.state_hash:
        raise _RejectError(
            "stale",
            f"stateHash {brief(state_hash)} is not the question's {question.state_hash!r}",
        )


def _check_entry(
    index: int, entry: object, legal: set[tuple[int, int]], seen: set[tuple[int, int]]
) -> tuple[int, int, float]:
    """Rule 3 for one entry: an object with integer x and rotation, a finite p in [0, 1],
    naming a listed placement not named before."""
    where = f"choice[{index}]"
    if not isinstance(entry, Mapping):
        raise _RejectError("invalid", f"{where} must be an object, got {type(entry).__name__}")
    x, rotation = as_int(entry.get("x")), as_int(entry.get("rotation"))
    if x is None:
        raise _RejectError("invalid", f"{where}.x must be an integer, got {brief(entry.get('x'))}")
    if rotation is None:
        raise _RejectError(
            "invalid", f"{where}.rotation must be an integer, got {brief(entry.get('rotation'))}"
        )
    p = as_finite_float(entry.get("p"))
    if p is None or not 0.0 <= p <= 1.0:
        raise _RejectError(
            "invalid", f"{where}.p must be a finite number in [0, 1], got {brief(entry.get('p'))}"
        )
    if (x, rotation) not in legal:
        raise _RejectError(
            "invalid",
            f"{where} (x={brief(x)}, rotation={brief(rotation)}) is not a listed placement",
        )
    if (x, rotation) in seen:
        raise _RejectError("invalid", f"{where} duplicates placement (x={x}, rotation={rotation})")
    seen.add((x, rotation))
    return x, rotation, p


def _check_choice(obj: Mapping[Any, Any], question: AgentInput) -> list[tuple[int, int, float]]:
    """Rule 3: a non-empty list of valid entries whose probabilities sum to 1."""
    if "choice" not in obj:
        raise _RejectError("invalid", "choice is missing")
    choice = obj["choice"]
    if not isinstance(choice, list):
        raise _RejectError("invalid", f"choice must be a list, got {type(choice).__name__}")
    if not choice:
        raise _RejectError("invalid", "choice must not be empty")
    legal = {(placement.x, placement.rotation) for placement in question.legal}
    seen: set[tuple[int, int]] = set()
    entries = [_check_entry(i, entry, legal, seen) for i, entry in enumerate(choice)]
    total = math.fsum(p for _, _, p in entries)
    if abs(total - 1.0) > SUM_TOLERANCE:
        raise _RejectError(
            "invalid", f"choice probabilities sum to {total:.6g}, not 1 within {SUM_TOLERANCE}"
        )
    return entries


def _played(entries: list[tuple[int, int, float]]) -> Placement:
    """Rule 4: the highest p; ties go to the lower x, then the lower rotation."""
    x, rotation, _ = min(entries, key=lambda entry: (-entry[2], entry[0], entry[1]))
    return Placement(x=x, rotation=rotation)


def _hold(extras: Extras, question: AgentInput) -> bool:
    """Rule 6: a hold is only honoured when the question allows one."""
    if extras.hold_requested and not question.can_hold:
        extras.notes.append("hold ignored: canHold is false; the choice is played")
        return False
    return extras.hold_requested


def _judge(answer: object, question: AgentInput) -> Verdict:
    obj = _parse(answer)
    extras = read_extras(obj)
    status: Status = "valid"
    reason = placement = None
    hold = False
    try:
        _check_hash(obj, question)
        placement = _played(_check_choice(obj, question))
        hold = _hold(extras, question)
    except _RejectError as reject:
        status, reason = reject.status, reject.reason
    return Verdict(
        status=status,
        reason=reason,
        notes=tuple(extras.notes),
        placement=placement,
        hold=hold,
        risk=extras.risk,
        cost_usd=extras.cost_usd,
        meta=extras.meta,
    )


def validate(answer: object, question: AgentInput) -> Verdict:
    """Judge `answer` (an AgentAnswer, a dict, or JSON text/bytes) against `question`.

    Never raises. Optional fields (risk, cost, meta) are reported even for unusable answers, so
    cost accounting sees every call; `placement` is set and `hold` can be True only when valid.
    """
    try:
        return _judge(answer, question)
    except _RejectError as reject:
        return Verdict(reject.status, reject.reason)
    except RecursionError:
        return Verdict("invalid", "answer is nested too deeply to validate")
    except Exception as exc:  # last line of defence: junk must never crash the harness
        return Verdict("invalid", f"internal error while validating: {type(exc).__name__}")

"""The record of one finished game: what the harness produces and the statistics consume.

Result files and the leaderboard index store it with camelCase keys like every other output.
Files written before that (snake_case keys) still load: `from_dict` reads both spellings and
refuses anything else with one line naming the key.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import MISSING, asdict, dataclass, field, fields
from typing import Any


class ResultFormatError(ValueError):
    """A result record that cannot be read (unknown or missing keys, wrong types)."""


def camel_case(name: str) -> str:
    """`end_reason` -> `endReason` (output keys are camelCase)."""
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower()


@dataclass
class GameResult:
    """One brain, one seed, one mode: the numbers the leaderboard is built from.

    `risks` pairs each reported risk with whether the game topped out within the next ten pieces
    (the Brier score's outcome). `latencies_ms` holds completed calls only (aborted ones and
    replies served from the response cache excluded: they took no model time). `prompt_tokens`
    and `completion_tokens` sum what the calls' telemetry reported (cached replies included: the
    tokens their request used).
    `cap_detail` says which cap ended a `piece cap` game (`"piece cap"` or `"tick cap"`).
    """

    ruleset: str
    seed: str
    mode: str  # "IQ" | "Blitz"
    brain: dict[str, Any]  # slug, name, description, kind, adapterVersion (+ provider, model, via)
    end_reason: str
    score: int
    lines: int
    pieces: int
    ticks: int
    level: int
    decisions: int = 0
    latencies_ms: list[float] = field(default_factory=list)
    cost_usd: float | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    priced_calls: int = 0
    unpriced_calls: int = 0
    invalid: int = 0
    stale: int = 0
    errors: int = 0
    timeouts: int = 0
    blitz_in_time: int = 0
    blitz_late: int = 0
    blitz_unreachable: int = 0
    blitz_locked: int = 0
    risks: list[tuple[float, bool]] = field(default_factory=list)
    log_path: str | None = None
    cap_detail: str | None = None

    @property
    def slug(self) -> str:
        return str(self.brain["slug"])

    def to_dict(self) -> dict[str, Any]:
        """JSON form with camelCase keys (`endReason`, `costUsd`, `latenciesMs`, ...)."""
        out = {camel_case(key): value for key, value in asdict(self).items()}
        out["risks"] = [[r, bool(o)] for r, o in self.risks]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameResult:
        """Inverse of `to_dict`; also reads the snake_case keys of files written before."""
        if not isinstance(data, Mapping):
            raise ResultFormatError(
                f"a game result must be a JSON object, got {type(data).__name__}"
            )
        known = {f.name for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in data.items():
            name = _snake(str(key))
            if name not in known:
                raise ResultFormatError(f"unknown key {key!r} in a Tetris Bench game result")
            values[name] = value
        missing = sorted(
            camel_case(f.name)
            for f in fields(cls)
            if f.name not in values and f.default is MISSING and f.default_factory is MISSING
        )
        if missing:
            raise ResultFormatError(f"a Tetris Bench game result lacks {', '.join(missing)}")
        if not isinstance(values["brain"], Mapping) or "slug" not in values["brain"]:
            raise ResultFormatError("a Tetris Bench game result needs a brain with a slug")
        try:
            values["risks"] = [(float(r), bool(o)) for r, o in values.get("risks", [])]
        except (TypeError, ValueError):
            raise ResultFormatError("risks must be [risk, toppedOut] pairs") from None
        return cls(**values)

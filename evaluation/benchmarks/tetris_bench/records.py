"""The record of one finished game: what the harness produces and the statistics consume."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class GameResult:
    """One brain, one seed, one mode: the numbers the leaderboard is built from.

    `risks` pairs each reported risk with whether the game topped out within the next ten pieces
    (the Brier score's outcome). `latencies_ms` holds completed calls only (aborted ones excluded).
    """

    ruleset: str
    seed: str
    mode: str  # "IQ" | "Blitz"
    brain: dict[str, Any]  # slug, name, description, kind, adapterVersion (+ provider, model)
    end_reason: str
    score: int
    lines: int
    pieces: int
    ticks: int
    level: int
    decisions: int = 0
    latencies_ms: list[float] = field(default_factory=list)
    cost_usd: float | None = None
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

    @property
    def slug(self) -> str:
        return str(self.brain["slug"])

    def to_dict(self) -> dict[str, Any]:
        """JSON-compatible form (camelCase keys are not needed: this is our own file format)."""
        out = asdict(self)
        out["risks"] = [[r, bool(o)] for r, o in self.risks]
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameResult:
        """Inverse of `to_dict`."""
        values = dict(data)
        values["risks"] = [(float(r), bool(o)) for r, o in values.get("risks", [])]
        return cls(**values)

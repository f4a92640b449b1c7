"""The shipped ladder (`seeds/chess/ladder-v1.json`): rungs, their fixed ratings, their policies."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arcade_gym.seeds import load_json

LADDER_FILE = "chess/ladder-v1.json"
CHESS960_FILE = "chess/chess960-v1.json"


@dataclass(frozen=True)
class Rung:
    """One opponent: `name`, `kind` ("weak" | "stockfish"), fixed `rating`, `uci_elo` for
    Stockfish rungs."""

    name: str
    kind: str
    rating: float
    uci_elo: int | None = None


@dataclass(frozen=True)
class Ladder:
    """The rungs in rising rating order, and the engine settings they were calibrated under."""

    version: str
    rungs: tuple[Rung, ...]
    move_time_s: float
    scale: str

    def rung(self, name: str) -> Rung:
        """The rung called `name`; KeyError naming the rungs otherwise."""
        for rung in self.rungs:
            if rung.name == name:
                return rung
        raise KeyError(f"no rung {name!r}; the ladder has {[r.name for r in self.rungs]}")


def parse_ladder(doc: dict[str, Any]) -> Ladder:
    """A ladder from its JSON document."""
    rungs = tuple(
        sorted(
            (Rung(r["name"], r["kind"], float(r["rating"]), r.get("uciElo")) for r in doc["rungs"]),
            key=lambda r: r.rating,
        )
    )
    return Ladder(doc["version"], rungs, float(doc["engine"]["moveTimeS"]), doc["scale"])


def load_ladder() -> Ladder:
    """The shipped ladder."""
    return parse_ladder(load_json(LADDER_FILE))


def chess960_starts() -> list[int]:
    """The fixed Chess960 start indices, in the order every model plays them."""
    return [int(p["index"]) for p in load_json(CHESS960_FILE)["positions"]]


def rung_policy(rung: Rung, ladder: Ladder, seed: int | str = 0) -> Any:
    """The policy that plays `rung`: a weak built-in, or Stockfish at `UCI_LimitStrength` with
    the ladder's move time (one process per game)."""
    if rung.kind == "weak":
        from policies.chess import BUILTINS

        return BUILTINS[rung.name](seed)
    from evaluation.benchmarks.chess_ladder.calibrate import stockfish_spec
    from policies.engines.uci import make_uci_policy

    return make_uci_policy(stockfish_spec(rung.uci_elo), movetime=ladder.move_time_s)

"""Calibration of the weak rungs: play them against the lowest Stockfish rung and each other, fit
their ratings with the Stockfish rungs pinned at their nominal `UCI_Elo`, write the ladder file.

The result ships as `seeds/chess/ladder-v1.json` and is never refitted by a model run. The scale
is internal and engine-anchored: Stockfish's nominal `UCI_Elo` at 0.5 s a move (Threads=1) is
taken at face value, and nothing ties it to FIDE or Chess.com ratings.
"""

from __future__ import annotations

import json
import os
import resource
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

import chess
import chess.engine

from arcade_gym.chess.game import ChessGame
from arcade_gym.chess.opponents import make_rule
from evaluation.benchmarks.chess_ladder.adjudication import (
    ADJUDICATION_NODES,
    Adjudicator,
    score_pawns,
)
from evaluation.benchmarks.chess_ladder.ratings import PairResult, fit_pinned, score_of
from evaluation.core.rundir import write_text_atomic
from policies.engines.uci import UciEngine, parse_uci_spec

WEAK_RUNGS = ("random", "greedy", "material-2ply")
MOVE_TIME_S = 0.5
ELO_STEP = 250
LADDER_VERSION = "v1"
SCALE_NOTE = (
    "internal engine-anchored scale: Stockfish UCI_LimitStrength rungs pinned at their nominal "
    "UCI_Elo at 0.5 s a move (Threads=1); not FIDE, Chess.com or ChessBench ratings"
)

Chooser = Callable[[chess.Board], chess.Move]


def _open_append(path: str | Path) -> IO[str]:
    """The calibration log opened for appending, never through a link in its place."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0)
    return os.fdopen(os.open(path, flags, 0o666), "a", encoding="utf-8")


def stockfish_spec(elo: int | None) -> str:
    """The `uci:` spec body of a Stockfish rung (None: full strength, the judge)."""
    base = "stockfish?Threads=1&Hash=16"
    return base if elo is None else f"{base}&UCI_LimitStrength=true&UCI_Elo={elo}"


def stockfish_rungs(elo_min: int, elo_max: int, step: int = ELO_STEP) -> list[int]:
    """Nominal Elo values of the Stockfish rungs: from the binary's minimum up in `step`s, and
    its maximum."""
    values = list(range(elo_min, elo_max, step))
    return [*values, elo_max]


def elo_range() -> tuple[int, int, str]:
    """(min, max) `UCI_Elo` the installed Stockfish accepts, and its name."""
    with UciEngine(parse_uci_spec(stockfish_spec(None))) as engine:
        low, high = engine.option_range("UCI_Elo")
        assert engine.engine is not None
        return low, high, str(engine.engine.id.get("name", "Stockfish"))


@dataclass
class GameRecord:
    """One calibration game."""

    white: str
    black: str
    result: str
    termination: str
    adjudicated: bool
    plies: int
    moves: list[str]

    def to_dict(self) -> dict[str, Any]:
        """camelCase JSON form."""
        return {
            "white": self.white,
            "black": self.black,
            "result": self.result,
            "termination": self.termination,
            "adjudicated": self.adjudicated,
            "plies": self.plies,
            "moves": self.moves,
        }


def play_game(
    white: tuple[str, Chooser], black: tuple[str, Chooser], judge: UciEngine, nodes: int
) -> GameRecord:
    """Play one standard game with the ladder's end rules and adjudication."""
    game = ChessGame("standard")
    adjudicator = Adjudicator()
    while True:
        name, choose = white if game.board.turn else black
        move = choose(game.board.copy())
        if not game.is_legal(move):
            raise RuntimeError(f"{name} chose the illegal move {move} in {game.board.fen()}")
        game.play(move)
        if game.over:
            assert game.termination is not None
            return GameRecord(
                white[0], black[0], game.result, game.termination, False, game.ply, _ucis(game)
            )
        info = judge.analyse(game.board, chess.engine.Limit(nodes=nodes))[0]
        score = info.get("score")
        verdict = adjudicator.add(game.ply, None if score is None else score_pawns(score))
        if verdict is not None:
            return GameRecord(
                white[0], black[0], verdict.result, verdict.reason, True, game.ply, _ucis(game)
            )


def _ucis(game: ChessGame) -> list[str]:
    return [m.uci() for m in game.board.move_stack]


def calibrate(
    output: str | Path,
    *,
    games_vs_engine: Sequence[int] = (4, 6, 16),
    games_between_weak: int = 10,
    log: str | Path | None = None,
    nodes: int = ADJUDICATION_NODES,
    progress: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Play the calibration schedule and write the ladder file to `output`.

    `games_vs_engine[i]` games of `WEAK_RUNGS[i]` against the lowest Stockfish rung, and
    `games_between_weak` games between each pair of weak rungs; colours alternate.
    """
    t0 = time.time()
    low, high, engine_name = elo_range()
    bottom = f"stockfish-{low}"
    schedule: list[tuple[str, str, int]] = [
        (weak, bottom, n) for weak, n in zip(WEAK_RUNGS, games_vs_engine, strict=True)
    ]
    for i, a in enumerate(WEAK_RUNGS):
        for b in WEAK_RUNGS[i + 1 :]:
            schedule.append((a, b, games_between_weak))
    records: list[GameRecord] = []
    log_handle = _open_append(log) if log is not None else None
    judge = UciEngine(parse_uci_spec(stockfish_spec(None)))
    try:
        for a, b, n in schedule:
            for i in range(n):
                seed = f"calibration-{LADDER_VERSION}|{a}|{b}|{i}"
                players = {name: _chooser(name, seed) for name in (a, b)}
                white, black = (a, b) if i % 2 == 0 else (b, a)
                try:
                    record = play_game(
                        (white, players[white][0]), (black, players[black][0]), judge, nodes
                    )
                finally:
                    for _, close in players.values():
                        close()
                records.append(record)
                progress(
                    f"{len(records):3d} {white} - {black}: {record.result} "
                    f"({record.termination}, {record.plies} plies)"
                )
                if log_handle is not None:
                    log_handle.write(json.dumps(record.to_dict()) + "\n")
                    log_handle.flush()
    finally:
        judge.close()
        if log_handle is not None:
            log_handle.close()
    pairs: dict[tuple[str, str], list[float]] = {}
    for r in records:
        a, b = sorted((r.white, r.black))
        pairs.setdefault((a, b), []).append(score_of(r.result, r.white == a))
    results = [PairResult(a, b, sum(s), len(s)) for (a, b), s in pairs.items()]
    fitted = fit_pinned(results, {bottom: float(low)})
    usage = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = sum(u.ru_utime + u.ru_stime for u in usage)
    ladder = {
        "ladder": f"chess-ladder@{LADDER_VERSION[1:]}",
        "version": LADDER_VERSION,
        "scale": SCALE_NOTE,
        "engine": {
            "name": engine_name,
            "eloMin": low,
            "eloMax": high,
            "moveTimeS": MOVE_TIME_S,
            "threads": 1,
            "hashMb": 16,
        },
        "rungs": [
            {
                "name": name,
                "kind": "weak",
                "rating": round(fitted[name][0], 1),
                "stdErr": round(fitted[name][1], 1),
            }
            for name in sorted(WEAK_RUNGS, key=lambda n: fitted[n][0])
        ]
        + [
            {"name": f"stockfish-{elo}", "kind": "stockfish", "rating": float(elo), "uciElo": elo}
            for elo in stockfish_rungs(low, high)
        ],
        "calibration": {
            "games": len(records),
            "pairs": [{"a": r.a, "b": r.b, "scoreA": r.score_a, "games": r.games} for r in results],
            "variant": "standard",
            "notes": shutout_notes(results),
            "adjudicationNodes": nodes,
            "virtualDrawsPerPair": 1,
            "cpuSeconds": round(cpu, 1),
            "cpuSecondsCounts": "this process and the engine processes it reaped",
            "wallSeconds": round(time.time() - t0, 1),
            "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        },
    }
    write_text_atomic(Path(output), json.dumps(ladder, indent=2) + "\n")
    return ladder


def shutout_notes(results: Sequence[PairResult]) -> list[str]:
    """One line per pair that met where one side scored every point: that gap rests on the
    virtual draw, not on measured games."""
    notes = []
    for r in results:
        if r.games and r.score_a in (0.0, float(r.games)):
            winner, loser = (r.a, r.b) if r.score_a else (r.b, r.a)
            notes.append(
                f"{winner} scored {r.games}/{r.games} against {loser}: their gap rests on the "
                "virtual draw (a lower bound on the true gap)"
            )
    return notes


def _chooser(name: str, seed: str) -> tuple[Chooser, Callable[[], None]]:
    """A move chooser for a rung name and its closer (Stockfish rungs hold a process)."""
    if name.startswith("stockfish-"):
        elo = int(name.removeprefix("stockfish-"))
        engine = UciEngine(parse_uci_spec(stockfish_spec(elo), movetime=MOVE_TIME_S))
        return engine.play, engine.close
    rule = make_rule(name, seed)
    return rule.choose, lambda: None


if __name__ == "__main__":
    import sys

    calibrate(
        sys.argv[1] if len(sys.argv) > 1 else "ladder.json",
        games_vs_engine=(1, 1, 1),
        games_between_weak=1,
    )

"""`arcade-eval play chess`: a person plays a rung of the shipped ladder, standard or Chess960,
recorded by `play_ladder_game` like any model (keys: `play_keys.py`; the other side and its
judge: `play_side.py`)."""

from __future__ import annotations

import argparse
import contextlib
from pathlib import Path
from typing import Any

from evaluation.play.human import Human
from evaluation.play.setups import HUMAN_LIMIT_MS, PlayError, PlayOption, PlaySetup, Setup, whole


def chess_ladder(args: argparse.Namespace) -> Setup:
    """A game against rung `--rung` (1 = the weakest, or its name) of the shipped ladder, in
    `--variant` standard (default) or chess960 (`--seed`: the start index, default the first
    public one), as `--colour` white (default) or black. Stockfish judges adjudication when
    installed; without it weak rungs still play (no adjudication) and Stockfish rungs say how
    to install it."""
    from arcade_gym.chess.positions import start_board
    from evaluation.benchmarks.chess_ladder.defaults import BENCHMARK_ID
    from evaluation.benchmarks.chess_ladder.episode import play_ladder_game, settings_of
    from evaluation.benchmarks.chess_ladder.ladder import chess960_starts, load_ladder, rung_policy
    from evaluation.benchmarks.chess_ladder.play_keys import ChessKeys
    from evaluation.benchmarks.chess_ladder.play_side import needs_stockfish, other_side

    ladder = load_ladder()
    rung_text = args.rung or "1"
    names = [r.name for r in ladder.rungs]
    if rung_text.isdigit() and 1 <= int(rung_text) <= len(names):
        rung = ladder.rungs[int(rung_text) - 1]
    elif rung_text in names:
        rung = ladder.rung(rung_text)
    else:
        raise PlayError(
            f"--rung {rung_text}: give 1 to {len(names)} (weakest first) or a name: "
            + ", ".join(names)
        )
    variant = args.variant or "standard"
    if variant not in ("standard", "chess960"):
        raise PlayError(f"--variant takes standard or chess960, got {variant!r}")
    colour = args.colour or "white"
    if colour not in ("white", "black"):
        raise PlayError(f"--colour takes white or black, got {colour!r}")
    start: int | None = None
    if variant == "chess960":
        start = chess960_starts()[0] if args.seed is None else whole(args.seed, "--seed")
        if not 0 <= start <= 959:
            raise PlayError(f"--seed is a Chess960 start index, 0 to 959; got {start}")
    elif args.seed is not None:
        raise PlayError("--seed picks a Chess960 start: add --variant chess960")
    board = start_board(variant, start)
    seed = f"human|{variant}|{rung.name}|0"
    try:
        needs_stockfish(rung)
        opponent = rung_policy(rung, ladder, seed)
    except Exception as error:  # a Stockfish rung without Stockfish: the engine's own message
        raise PlayError(f"rung {rung.name}: {error}") from None
    side, close_side = other_side(opponent, variant)
    settings = settings_of(
        variant, rung.name, rung.rating, board.fen(), start, colour, HUMAN_LIMIT_MS, ladder.version
    )

    def play(human: Human, log: Path) -> Any:
        return play_ladder_game(human, side, settings, log, seed=seed)

    def close() -> None:
        close_side()
        with contextlib.suppress(Exception):
            getattr(opponent, "close", lambda: None)()

    run = {"rung": rung.name, "variant": variant, "colour": colour, "start": start}
    return Setup(BENCHMARK_ID, ChessKeys(rung.name), seed, run, play, close)


def setups() -> tuple[PlaySetup, ...]:
    """The game a person plays under the chess ladder (`Benchmark.play`)."""
    return (
        PlaySetup(
            name="chess",
            game="chess",
            summary="Chess ladder: a game against one rung, standard or Chess960",
            options=(
                PlayOption("seed", "a Chess960 start index"),
                PlayOption("rung", "the ladder rung, 1 (weakest, default) up, or its name"),
                PlayOption("colour", "white (default) or black"),
                PlayOption("variant", "standard (default) or chess960"),
            ),
            setup=chess_ladder,
        ),
    )

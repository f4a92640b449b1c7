"""`arcade-eval play tictactoe`: a person plays an arena match, either the suite's match against a
sparring partner or a free match against an engine (a shipped entry or a Brainfuck file),
recorded by the arena's match episodes like any engine's (keys: `play_keys.py`)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from evaluation.play.human import Human
from evaluation.play.setups import HUMAN_LIMIT_MS, PlayError, PlayOption, PlaySetup, Setup, whole


def tictactoe(args: argparse.Namespace) -> Setup:
    """A match on board `--size` as `--mark` (X moves first) against `--opponent`: a sparring
    partner's name plays that match of the arena's suite (`--seed`: the suite seed); `entry:ID`
    (a shipped arena entry) or `bf:PATH` (a Brainfuck file) plays a free match against that
    engine, recorded with the file's SHA-256 (`--seed` seeds nothing an engine uses)."""
    from evaluation.benchmarks.ttt_arena.defaults import BENCHMARK_ID, DEFAULT_SEED
    from evaluation.benchmarks.ttt_arena.play_keys import TicTacToeKeys

    size = 3 if args.size is None else args.size
    opponent = args.opponent or "tactician"
    mark = (args.mark or "X").upper()
    seed = DEFAULT_SEED if args.seed is None else whole(args.seed, "--seed (the suite seed)")
    if ":" in opponent:
        play, settings, label = _free_match(opponent, size, mark, seed)
    else:
        play, settings = _suite_match(opponent, size, mark, seed)
        label = opponent
    return Setup(BENCHMARK_ID, TicTacToeKeys(label), seed, settings, play)


def _suite_match(
    opponent: str, size: int, mark: str, seed: int
) -> tuple[Callable[[Human, Path], Any], dict[str, Any]]:
    """The arena suite's match against sparring partner `opponent`."""
    from evaluation.benchmarks.ttt_arena.episode import play_arena_game
    from evaluation.benchmarks.ttt_arena.suite import build_suite

    matches = build_suite(seed).matches
    found = [
        m for m in matches if m.size == size and m.opponent == opponent and m.engine_mark == mark
    ]
    if not found:
        sizes = sorted({m.size for m in matches})
        names = sorted({m.opponent for m in matches})
        raise PlayError(
            f"no arena match {size}x{size} against {opponent!r} as {mark}: --size takes "
            f"{', '.join(map(str, sizes))}, --opponent {', '.join(names)}, entry:ID or bf:PATH, "
            "--mark X or O"
        )
    spec = found[0]

    def play(human: Human, log: Path) -> Any:
        return play_arena_game(human, spec, log, suite_seed=seed, timeout_ms=HUMAN_LIMIT_MS)

    return play, {"match": spec.id, "size": size, "opponent": opponent, "mark": mark}


def _free_match(
    text: str, size: int, mark: str, seed: int
) -> tuple[Callable[[Human, Path], Any], dict[str, Any], str]:
    """A free match against the engine `text` names (`entry:ID` or `bf:PATH`)."""
    from evaluation.benchmarks.ttt_arena.episode import (
        FREE_MATCH,
        free_match_spec,
        free_opponent,
        play_free_match,
    )

    try:
        opponent = free_opponent(text)
        free_match_spec(size, mark, opponent, seed)
    except ValueError as error:
        raise PlayError(f"--opponent {text}: {error}") from None

    def play(human: Human, log: Path) -> Any:
        return play_free_match(
            human,
            opponent,
            log,
            size=size,
            engine_mark=mark,
            seed=seed,
            timeout_ms=HUMAN_LIMIT_MS,
        )

    settings = {"match": FREE_MATCH, "size": size, "opponent": opponent.label, "mark": mark}
    return play, {**settings, "opponentSha256": opponent.sha256}, opponent.label


def setups() -> tuple[PlaySetup, ...]:
    """The game a person plays under the arena (`Benchmark.play`)."""
    return (
        PlaySetup(
            name="tictactoe",
            game="tictactoe",
            summary="Tic-tac-toe arena: a suite match or a free match against an engine",
            options=(
                PlayOption("seed", "the arena suite seed"),
                PlayOption("size", "3 (default), 5 or 10", int),
                PlayOption(
                    "opponent",
                    "a sparring partner (random, greedy, tactician (default), perfect) plays "
                    "that match of the arena's suite; entry:ID (a shipped arena entry, e.g. "
                    "entry:tactician) or bf:PATH (a Brainfuck file) plays a free match against "
                    "that engine",
                ),
                PlayOption("mark", "X (default, moves first) or O"),
            ),
            setup=tictactoe,
        ),
    )

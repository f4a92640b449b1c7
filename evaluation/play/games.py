"""How each game is played at the keyboard: which benchmark records it, from which seed, with
which keys, and the benchmark's own play function that writes the log.

Nothing here plays a game: each entry hands the `Human` policy to the benchmark's play function
(`play_tetris`, `play_narcade`, `play_sudoku_grid`, `play_arena_game`, `play_ladder_game`), which
runs the one episode loop into the benchmark's event log. A person may think as long as they like:
every call limit is `HUMAN_LIMIT_MS`.
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaluation.play.human import Human, Keys

HUMAN_LIMIT_MS = 86_400_000.0
"""A day per decision: the call limit every benchmark is given for a person."""


class PlayError(ValueError):
    """A bad `arcade-eval play` request: one message naming the fix."""


@dataclass
class Setup:
    """One game ready to play: `play(human, log_path)` records it as `benchmark` does."""

    benchmark: str
    keys: Keys
    seed: str | int
    settings: dict[str, Any]
    play: Callable[[Human, Path], Any]
    close: Callable[[], None] = field(default=lambda: None)


# --- Tetris Bench -------------------------------------------------------------------------------


def tetris(args: argparse.Namespace) -> Setup:
    """Tetris Bench (`tetris-bench@3`) in IQ (default) or Blitz, on a public seed or any name."""
    from arcade_gym.tetris.rules import PIECE_CAP
    from evaluation.benchmarks.tetris_bench.episode import BENCHMARK_ID, play_tetris
    from evaluation.benchmarks.tetris_bench.runner import RunError, parse_modes, public_seeds
    from evaluation.play.tetris import TetrisKeys

    seed = args.seed if args.seed is not None else public_seeds()[1][0]
    try:
        modes = parse_modes(args.mode or "iq")
    except RunError as error:
        raise PlayError(str(error)) from None
    if len(modes) != 1:
        raise PlayError("--mode takes one mode: iq or blitz")
    mode = modes[0]
    pieces = PIECE_CAP if args.max_pieces is None else args.max_pieces
    if not 1 <= pieces <= PIECE_CAP:
        raise PlayError(f"--max-pieces takes 1 to {PIECE_CAP} (the protocol's cap), got {pieces}")

    def play(human: Human, log: Path) -> Any:
        return play_tetris(human, seed, mode, log, budget_ms=HUMAN_LIMIT_MS, piece_cap=pieces)

    settings = {"mode": mode, "pieceCap": pieces}
    return Setup(BENCHMARK_ID, TetrisKeys(), seed, settings, play)


# --- NARCADE: Tetris with primitive controls, Snake, Minesweeper -------------------------------


def narcade(game: str, keys: Callable[[], Keys]) -> Callable[[argparse.Namespace], Setup]:
    """A NARCADE game in lockstep (Minesweeper: turn-based), traced so its replay can be shown."""

    def setup(args: argparse.Namespace) -> Setup:
        from evaluation.benchmarks.narcade.episode import EpisodeConfig, play_narcade
        from evaluation.benchmarks.narcade.protocol import BENCHMARK_ID, DIFFICULTIES, game_mode
        from evaluation.benchmarks.narcade.settings import (
            DEFAULT_DIFFICULTY,
            DEFAULT_MAX_DECISIONS,
            FAILURE_STREAK,
            Settings,
        )

        difficulty = args.difficulty or DEFAULT_DIFFICULTY
        if difficulty not in DIFFICULTIES:
            raise PlayError(f"--difficulty takes {', '.join(DIFFICULTIES)}, got {difficulty!r}")
        seed = Settings().seed if args.seed is None else _whole(args.seed, "--seed")
        if seed < 0:
            raise PlayError(f"--seed must be >= 0, got {seed}")
        if args.max_pieces is not None and args.max_pieces < 1:
            raise PlayError(f"--max-pieces must be >= 1, got {args.max_pieces}")
        config = EpisodeConfig(
            game=game,
            mode=game_mode(game, "lockstep"),
            difficulty=difficulty,
            max_decisions=DEFAULT_MAX_DECISIONS,
            max_pieces=args.max_pieces if game == "tetris" else None,
            timeout_ms=HUMAN_LIMIT_MS,
            failure_streak=FAILURE_STREAK,
            trace=True,
        )

        def play(human: Human, log: Path) -> Any:
            return play_narcade(human, "human", config, seed, log)

        settings = {"narcadeGame": game, "mode": config.mode, "difficulty": difficulty}
        return Setup(BENCHMARK_ID, keys(), seed, settings, play)

    return setup


# --- Sudoku -------------------------------------------------------------------------------------


def sudoku(args: argparse.Namespace) -> Setup:
    """A grid of set v1: `--seed` names it (grid id or seed), `--difficulty N` takes the first
    grid of tier N; the first grid by default."""
    from arcade_gym.sudoku.sets import set_grids
    from evaluation.benchmarks.sudoku.defaults import BENCHMARK_ID
    from evaluation.benchmarks.sudoku.episode import play_sudoku_grid
    from evaluation.play.sudoku import SudokuKeys

    set_version = "v1"
    grids = set_grids(set_version)
    if args.difficulty is not None:
        tier = _whole(args.difficulty, "--difficulty (a Sudoku tier, 1-7)")
        grids = [g for g in grids if g["tier"] == tier]
        if not grids:
            raise PlayError(f"--difficulty takes a tier of set {set_version}, 1 to 7; got {tier}")
    if args.seed is not None:
        grids = [g for g in grids if args.seed in (g["id"], g["seed"])]
        if not grids:
            raise PlayError(
                f"--seed {args.seed}: not a grid of set {set_version} (give an id such as "
                "v1-t1-1, or its seed)"
            )
    record = grids[0]

    def play(human: Human, log: Path) -> Any:
        return play_sudoku_grid(
            human, record, log, set_version=set_version, timeout_ms=HUMAN_LIMIT_MS
        )

    settings = {"set": set_version, "grid": record["id"]}
    return Setup(BENCHMARK_ID, SudokuKeys(), str(record["seed"]), settings, play)


# --- tic-tac-toe --------------------------------------------------------------------------------


def tictactoe(args: argparse.Namespace) -> Setup:
    """A match on board `--size` as `--mark` (X moves first) against `--opponent`: a sparring
    partner's name plays that match of the arena's suite (`--seed`: the suite seed); `entry:ID`
    (a shipped arena entry) or `bf:PATH` (a Brainfuck file) plays a free match against that
    engine, recorded with the file's SHA-256 (`--seed` seeds nothing an engine uses)."""
    from evaluation.benchmarks.arena.defaults import BENCHMARK_ID, DEFAULT_SEED
    from evaluation.play.tictactoe import TicTacToeKeys

    size = 3 if args.size is None else args.size
    opponent = args.opponent or "tactician"
    mark = (args.mark or "X").upper()
    seed = DEFAULT_SEED if args.seed is None else _whole(args.seed, "--seed (the suite seed)")
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
    from evaluation.benchmarks.arena.episode import play_arena_game
    from evaluation.benchmarks.arena.suite import build_suite

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
    from evaluation.benchmarks.arena.episode import (
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


# --- chess --------------------------------------------------------------------------------------


def chess_ladder(args: argparse.Namespace) -> Setup:
    """A game against rung `--rung` (1 = the weakest, or its name) of the shipped ladder, in
    `--variant` standard (default) or chess960 (`--seed`: the start index, default the first
    public one), as `--colour` white (default) or black. Stockfish judges adjudication when
    installed; without it weak rungs still play (no adjudication) and Stockfish rungs say how
    to install it."""
    from arcade_gym.chess.positions import start_board
    from evaluation.benchmarks.chess_ladder.episode import (
        BENCHMARK_ID,
        play_ladder_game,
        settings_of,
    )
    from evaluation.benchmarks.chess_ladder.ladder import chess960_starts, load_ladder, rung_policy
    from evaluation.play.chess import ChessKeys
    from evaluation.play.chess_side import needs_stockfish, other_side

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
        start = chess960_starts()[0] if args.seed is None else _whole(args.seed, "--seed")
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


def _whole(text: object, option: str) -> int:
    try:
        return int(str(text))
    except ValueError:
        raise PlayError(f"{option} takes a whole number, got {text!r}") from None


def _primitive_keys() -> Keys:
    from evaluation.play.primitive import PrimitiveKeys

    return PrimitiveKeys()


def _snake_keys() -> Keys:
    from evaluation.play.snake import SnakeKeys

    return SnakeKeys()


def _minesweeper_keys() -> Keys:
    from evaluation.play.minesweeper import MinesweeperKeys

    return MinesweeperKeys()


GAMES: Mapping[str, Callable[[argparse.Namespace], Setup]] = {
    "tetris": tetris,
    "tetris-primitive": narcade("tetris", _primitive_keys),
    "snake": narcade("snake", _snake_keys),
    "minesweeper": narcade("minesweeper", _minesweeper_keys),
    "sudoku": sudoku,
    "tictactoe": tictactoe,
    "chess": chess_ladder,
}
"""`arcade-eval play GAME` -> its setup."""

OPTIONS: Mapping[str, frozenset[str]] = {
    "tetris": frozenset({"seed", "mode", "max_pieces"}),
    "tetris-primitive": frozenset({"seed", "difficulty", "max_pieces"}),
    "snake": frozenset({"seed", "difficulty"}),
    "minesweeper": frozenset({"seed", "difficulty"}),
    "sudoku": frozenset({"seed", "difficulty"}),
    "tictactoe": frozenset({"seed", "size", "opponent", "mark"}),
    "chess": frozenset({"seed", "rung", "colour", "variant"}),
}
"""The options each game takes (any other given is refused, naming the game)."""

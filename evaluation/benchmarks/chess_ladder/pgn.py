"""A PGN per game, with the grades as comments (evaluation, judgement, the engine's best move)
and the adjudication flagged in the headers. Its `Date` is the day the game started (UTC, from
the result's `startedAt`, a wall-clock time kept in results and never in the log); a game saved
before results held one keeps PGN's unknown date, `????.??.??`."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime

import chess
import chess.pgn

from arcade_gym.chess.contract import legal_uci
from evaluation.benchmarks.chess_ladder.grading import MoveGrade

NAGS = {
    "inaccuracy": chess.pgn.NAG_DUBIOUS_MOVE,
    "mistake": chess.pgn.NAG_MISTAKE,
    "blunder": chess.pgn.NAG_BLUNDER,
}


UNKNOWN_DATE = "????.??.??"
_DATE_TAG = re.compile(r'^\[Date "\?\?\?\?\.\?\?\.\?\?"\]$', re.MULTILINE)


def pgn_date(started_at: object) -> str | None:
    """The PGN `Date` ("YYYY.MM.DD", UTC) of an ISO-8601 start time; None when there is none or
    it does not read as a time."""
    if not isinstance(started_at, str):
        return None
    try:
        when = datetime.fromisoformat(started_at.replace("Z", "+00:00"))
    except ValueError:
        return None
    return when.strftime("%Y.%m.%d")


def dated(pgn: str, started_at: object) -> str:
    """`pgn` with its unknown `Date` tag set from `started_at` (unchanged without one): a PGN
    written before its result's start time was known gets its day when the site ships it."""
    date = pgn_date(started_at)
    if date is None:
        return pgn
    return _DATE_TAG.sub(f'[Date "{date}"]', pgn, count=1)


def _comment(grade: MoveGrade) -> str:
    parts = []
    if grade.cp_after is not None:
        if abs(grade.cp_after) >= 100_000 - 1000:
            parts.append("mate")
        else:
            parts.append(f"eval {grade.cp_after / 100:+.2f} (mover)")
    parts.append(f"win% {grade.win_before:.1f} -> {grade.win_after:.1f}")
    if grade.judgement is not None:
        parts.append(grade.judgement)
    if grade.best is not None and grade.best != grade.move:
        parts.append(f"best {grade.best}")
    if grade.accuracy is not None:
        parts.append(f"accuracy {grade.accuracy:.1f}")
    return "; ".join(parts)


def game_pgn(
    *,
    start_fen: str,
    variant: str,
    moves_uci: Sequence[str],
    white: str,
    black: str,
    result: str,
    termination: str,
    adjudicated: bool,
    grades: Mapping[int, MoveGrade] | None = None,
    event: str = "arcade-gym chess ladder",
    round_: str = "-",
    forfeit_note: str | None = None,
    date: str | None = None,
) -> str:
    """The game as PGN text; `grades` maps a ply (0-based) to its grade, `date` is the `Date` tag
    ("YYYY.MM.DD", `pgn_date`; None: unknown). A ValueError when a
    move is not legal in its position (the moves are checked as every chess path checks them)."""
    chess960 = variant == "chess960"
    board = chess.Board(start_fen, chess960=chess960)
    game = chess.pgn.Game()
    game.headers["Event"] = event
    game.headers["Date"] = date or UNKNOWN_DATE
    game.headers["Round"] = round_
    game.headers["White"] = white
    game.headers["Black"] = black
    game.headers["Result"] = result
    game.headers["Termination"] = termination
    if adjudicated:
        game.headers["Adjudicated"] = "yes"
    if chess960:
        game.headers["Variant"] = "Chess960"
    if chess960 or start_fen != chess.STARTING_FEN:
        game.setup(board)
    node: chess.pgn.GameNode = game
    line = board.copy()
    for ply, uci in enumerate(moves_uci):
        move = legal_uci(line, uci)
        line.push(move)
        node = node.add_variation(move)
        grade = (grades or {}).get(ply)
        if grade is not None:
            node.comment = _comment(grade)
            if grade.judgement in NAGS:
                node.nags.add(NAGS[grade.judgement])
    if forfeit_note:
        node.comment = (node.comment + " " if node.comment else "") + forfeit_note
    if adjudicated:
        game.comment = f"Adjudicated by Stockfish ({termination.removeprefix('adjudicated: ')})."
    exporter = chess.pgn.StringExporter(headers=True, variations=True, comments=True)
    return game.accept(exporter) + "\n"

"""Grading of played moves with Lichess's formulas, from Stockfish analyses.

For each graded move Stockfish analyses the position before it (MultiPV 3: best move, top three)
and the position after it, at `--grade-nodes` nodes (1,000,000 by default). Evaluations become
winning chances for the mover with Lichess's curve,
`win% = 50 + 50 * (2 / (1 + exp(-0.00368208 * cp)) - 1)` (cp capped at +-1000, a mate is 100 or
0), and the move's loss is `win%_before - win%_after`:

- judgement: inaccuracy from 5 points of winning chance, mistake from 10, blunder from 15;
- accuracy (Lichess's per-move formula): `103.1668 * exp(-0.04354 * loss) - 3.1669`, clipped to
  [0, 100], reported only for moves made while the game was open: the mover's win% before the
  move within 40 points of even (`|win% - 50| < 40`), because the formula forgives every move in a
  position already won or lost.

A player's summary also counts how often the move played was the engine's best move and how
often one of its top three (over the graded moves whose analysis gave them). Each graded game
records what graded it (`Grader.identity`: the engine's name and version as it reports them over
UCI, and the node budget), since grades at 50,000 nodes are not grades at 1,000,000.

Grading runs after the game, so it never delays an opponent's clock.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import chess
import chess.engine

from policies.engines.uci import UciEngine, parse_uci_spec

DEFAULT_GRADE_NODES = 1_000_000
CP_CAP = 1000
INACCURACY, MISTAKE, BLUNDER = 5.0, 10.0, 15.0
OPEN_MARGIN = 40.0
TOP_N = 3


def win_percent(cp: float) -> float:
    """Lichess's winning chances (0..100) of the side a centipawn score favours."""
    cp = max(-CP_CAP, min(CP_CAP, cp))
    return 50.0 + 50.0 * (2.0 / (1.0 + math.exp(-0.00368208 * cp)) - 1.0)


def score_win_percent(score: chess.engine.Score) -> float:
    """Winning chances of a python-chess relative score (mate: 100 or 0)."""
    if score.is_mate():  # MateGiven (the mover just mated) compares above every Cp
        return 100.0 if score > chess.engine.Cp(0) else 0.0
    cp = score.score()
    return win_percent(0.0 if cp is None else float(cp))


def move_accuracy(win_before: float, win_after: float) -> float:
    """Lichess's per-move accuracy from the mover's win% before and after the move."""
    loss = max(0.0, win_before - win_after)
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * loss) - 3.1669))


def judgement(loss: float) -> str | None:
    """ "blunder" / "mistake" / "inaccuracy" at 15 / 10 / 5 points of winning chance lost."""
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


def is_open(win_before: float) -> bool:
    """Whether the game was still open before the move (`|win% - 50| < 40`)."""
    return abs(win_before - 50.0) < OPEN_MARGIN


@dataclass(frozen=True)
class MoveGrade:
    """One graded move: the engine's view of it and Lichess's judgement."""

    ply: int
    move: str
    best: str | None
    top: tuple[str, ...]
    win_before: float
    win_after: float
    loss: float
    judgement: str | None
    accuracy: float | None
    cp_before: int | None
    cp_after: int | None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MoveGrade:
        """The grade from its JSON form (`to_dict`)."""
        return cls(
            ply=int(data["ply"]),
            move=str(data["move"]),
            best=data.get("best"),
            top=tuple(data.get("top") or ()),
            win_before=float(data["winBefore"]),
            win_after=float(data["winAfter"]),
            loss=float(data["loss"]),
            judgement=data.get("judgement"),
            accuracy=data.get("accuracy"),
            cp_before=data.get("cpBefore"),
            cp_after=data.get("cpAfter"),
        )

    def to_dict(self) -> dict[str, object]:
        """camelCase JSON form."""
        return {
            "ply": self.ply,
            "move": self.move,
            "best": self.best,
            "top": list(self.top),
            "winBefore": round(self.win_before, 2),
            "winAfter": round(self.win_after, 2),
            "loss": round(self.loss, 2),
            "judgement": self.judgement,
            "accuracy": None if self.accuracy is None else round(self.accuracy, 2),
            "cpBefore": self.cp_before,
            "cpAfter": self.cp_after,
        }


def grade_from_scores(
    ply: int,
    move: str,
    before: chess.engine.Score,
    after: chess.engine.Score,
    top: Sequence[str] = (),
) -> MoveGrade:
    """Grade a move from the mover-relative scores before and after it (pure)."""
    wb, wa = score_win_percent(before), score_win_percent(after)
    loss = max(0.0, wb - wa)
    return MoveGrade(
        ply=ply,
        move=move,
        best=top[0] if top else None,
        top=tuple(top),
        win_before=wb,
        win_after=wa,
        loss=loss,
        judgement=judgement(loss),
        accuracy=move_accuracy(wb, wa) if is_open(wb) else None,
        cp_before=before.score(mate_score=100_000),
        cp_after=after.score(mate_score=100_000),
    )


class Grader:
    """A full-strength Stockfish (Threads=1) grading moves at a node budget; one process,
    closed by `close()`."""

    def __init__(self, nodes: int = DEFAULT_GRADE_NODES, spec: str = "stockfish?Threads=1") -> None:
        if nodes < 1:
            raise ValueError(f"--grade-nodes must be positive, got {nodes}")
        self.nodes = nodes
        self.engine = UciEngine(parse_uci_spec(spec))

    def _after_score(self, board: chess.Board, mover: chess.Color) -> chess.engine.Score:
        """The mover's score in the position after its move (the opponent to move)."""
        outcome = board.outcome(claim_draw=False)
        if outcome is not None:
            if outcome.winner is None:
                return chess.engine.Cp(0)
            return chess.engine.Mate(0) if outcome.winner != mover else chess.engine.MateGiven
        info = self.engine.analyse(board, chess.engine.Limit(nodes=self.nodes))[0]
        return info["score"].pov(mover)

    def grade_move(self, board: chess.Board, move: chess.Move) -> MoveGrade:
        """Grade `move` played on `board` (the board is left as it was)."""
        mover = board.turn
        infos = self.engine.analyse(board, chess.engine.Limit(nodes=self.nodes), multipv=TOP_N)
        top = tuple(info["pv"][0].uci() for info in infos if info.get("pv"))
        before = infos[0]["score"].pov(mover)
        ply = len(board.move_stack)
        board.push(move)
        try:
            after = self._after_score(board, mover)
        finally:
            board.pop()
        return grade_from_scores(ply, move.uci(), before, after, top)

    def identity(self) -> dict[str, Any]:
        """What grades the moves: `{"engine": "Stockfish 15.1", "nodes": 1000000}` (the
        engine's UCI `id name`, None when it gives none)."""
        name = self.engine.start().id.get("name")
        return {"engine": str(name)[:100] if name else None, "nodes": self.nodes}

    def grade_game(
        self, start: chess.Board, moves: Sequence[chess.Move], colour: chess.Color
    ) -> list[MoveGrade]:
        """Grade every move `colour` played in the game from `start`."""
        board = start.copy(stack=False)
        grades = []
        for move in moves:
            if board.turn == colour:
                grades.append(self.grade_move(board, move))
            board.push(move)
        return grades

    def close(self) -> None:
        """Quit the engine."""
        self.engine.close()


@dataclass(frozen=True)
class GradeSummary:
    """A player's grades over games: accuracy over open moves, judgements per 100 moves."""

    moves: int
    open_moves: int
    accuracy: float | None
    inaccuracies_per_100: float | None
    mistakes_per_100: float | None
    blunders_per_100: float | None
    best_move: float | None = None
    """Percent of the moves with an engine best move where the move played was it."""
    top3: float | None = None
    """Percent of those moves where the move played was among the engine's top three."""

    def to_dict(self) -> dict[str, object]:
        """camelCase JSON form."""
        return {
            "moves": self.moves,
            "openMoves": self.open_moves,
            "accuracy": self.accuracy,
            "inaccuraciesPer100": self.inaccuracies_per_100,
            "mistakesPer100": self.mistakes_per_100,
            "blundersPer100": self.blunders_per_100,
            "bestMovePercent": self.best_move,
            "top3Percent": self.top3,
        }


def summarise(grades: Sequence[MoveGrade]) -> GradeSummary:
    """Mean accuracy over open moves, judgements per 100 graded moves, and the share of best and
    top-three moves (None without moves)."""
    n = len(grades)
    accuracies = [g.accuracy for g in grades if g.accuracy is not None]
    ranked = [g for g in grades if g.best is not None]

    def per_100(kind: str) -> float | None:
        return None if n == 0 else 100.0 * sum(g.judgement == kind for g in grades) / n

    return GradeSummary(
        moves=n,
        open_moves=len(accuracies),
        accuracy=sum(accuracies) / len(accuracies) if accuracies else None,
        inaccuracies_per_100=per_100("inaccuracy"),
        mistakes_per_100=per_100("mistake"),
        blunders_per_100=per_100("blunder"),
        best_move=100.0 * sum(g.move == g.best for g in ranked) / len(ranked) if ranked else None,
        top3=100.0 * sum(g.move in g.top[:TOP_N] for g in ranked) / len(ranked) if ranked else None,
    )

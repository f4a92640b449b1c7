"""The weak rungs of the chess ladder as policies: `random`, `greedy`, `material-2ply`.

Each answers a `ChessQuestion` with the move of its rule in `arcade_gym/chess/opponents.py`. The
tie-breaks are drawn from a stream keyed by the policy's seed and the game so far (start FEN and
moves), so an answer is a pure function of seed and question: a replay gets the same moves.
"""

from __future__ import annotations

from arcade_gym.chess.contract import ChessAnswer, ChessQuestion
from arcade_gym.chess.opponents import RULES, MoveRule
from policies.base import DecisionContext, PolicyIdentity, PolicyKind

DESCRIPTIONS: dict[str, tuple[PolicyKind, str]] = {
    "random": ("baseline", "uniform over the legal moves"),
    "greedy": ("heuristic", "captures the most valuable piece, else a random legal move"),
    "material-2ply": ("search", "two-ply minimax on material, ties at random"),
}


class WeakRung(PolicyIdentity):
    """A weak ladder rung answering chess questions."""

    def __init__(self, rule: str, seed: int | str = 0) -> None:
        kind, description = DESCRIPTIONS[rule]
        super().__init__(slug=rule, name=rule, description=description, kind=kind)
        self.seed = seed
        self.rule: MoveRule = RULES[rule](seed)

    def act(self, question: ChessQuestion, ctx: DecisionContext) -> ChessAnswer:
        """The rule's move in the question's position."""
        self.rule.reseed(f"{self.seed}|{question.start_fen}|{' '.join(question.moves_uci)}")
        move = self.rule.choose(question.board_now())
        return ChessAnswer(move=move.uci())

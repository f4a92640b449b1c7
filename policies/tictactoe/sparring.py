"""The tic-tac-toe arena's sparring partners as policies: Random, Greedy, Tactician, Perfect.

Each answers a `TicTacToeQuestion` with a `TicTacToeAnswer` (row, col) by one of the pure move
rules of `arcade_gym.tictactoe.sparring`, where the exact definitions live. Ties are broken by a
hash of (seed, board), so a player is stateless and deterministic: the same question and seed
always give the same move.

`PerfectPlayer` is exact minimax on 3x3. On 5x5 and 10x10, where the full game tree is out of
reach, it plays the Tactician's rules with the oracle's full-width forced-win-in-5 search inserted
after "fork" (win, block, fork, forced win in 5, block forks, positional), so the arena can ask it
every question.
"""

from __future__ import annotations

import numpy as np

from arcade_gym.tictactoe.contract import TicTacToeAnswer, TicTacToeQuestion
from arcade_gym.tictactoe.game import TicTacToeGame
from arcade_gym.tictactoe.oracle import Position
from arcade_gym.tictactoe.rules import other
from arcade_gym.tictactoe.sparring import (
    best_scoring,
    greedy_move,
    perfect_move,
    random_move,
    tactician_move,
)
from policies.base import DecisionContext, PolicyIdentity, PolicyKind


class SparringPlayer(PolicyIdentity):
    """A move rule as a Policy: question -> board -> rule -> (row, col)."""

    def __init__(
        self, slug: str, name: str, description: str, kind: PolicyKind, seed: int = 0
    ) -> None:
        super().__init__(slug=slug, name=name, description=description, kind=kind)
        self.seed = int(seed)

    def choose(self, board: np.ndarray, side: int) -> int:
        """The cell taken on `board` (flat or (n, n)) with `side` (1 X, 2 O) to move."""
        raise NotImplementedError

    def act(
        self, question: TicTacToeQuestion, ctx: DecisionContext | None = None
    ) -> TicTacToeAnswer:
        """Answer with the rule's move."""
        game = TicTacToeGame.from_question(question)
        cell = self.choose(game.flat, game.to_move)
        return TicTacToeAnswer(row=cell // game.size, col=cell % game.size)


class RandomPlayer(SparringPlayer):
    """A uniform empty square (seeded per position)."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(
            "random", "Random", "A uniform empty square, seeded per position", "baseline", seed
        )

    def choose(self, board: np.ndarray, side: int) -> int:
        return random_move(board, side, self.seed)


class GreedyPlayer(SparringPlayer):
    """Win if possible, else block, else random."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(
            "greedy",
            "Greedy",
            "Win if possible, else block, else a random square",
            "heuristic",
            seed,
        )

    def choose(self, board: np.ndarray, side: int) -> int:
        return greedy_move(board, side, self.seed)


class TacticianPlayer(SparringPlayer):
    """Win, block, fork, block forks, then the best positional square."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(
            "tactician",
            "Tactician",
            "Win, block, fork, block forks, then the best positional square",
            "heuristic",
            seed,
        )

    def choose(self, board: np.ndarray, side: int) -> int:
        return tactician_move(board, side, self.seed)


class PerfectPlayer(SparringPlayer):
    """Exact 3x3 minimax; on larger boards the Tactician plus a forced-win-in-5 search."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(
            "perfect",
            "Perfect",
            "Exact minimax on 3x3; Tactician rules plus a 5-ply forced-win search elsewhere",
            "search",
            seed,
        )

    def choose(self, board: np.ndarray, side: int) -> int:
        flat = np.asarray(board).reshape(-1)
        if flat.shape[0] == 9:
            return perfect_move(flat, side, self.seed)
        pos = Position(flat, side)
        scores = pos.heuristic_scores()
        for rule in (pos.win_in_1, pos.opponent_wins, pos.fork_squares, pos.forced_win5_squares):
            cells = rule()
            if cells:
                return best_scoring(cells, scores, flat, self.seed)
        if pos.fork_squares(other(side)):
            defences = pos.fork_defense_squares()
            if defences:
                return best_scoring(defences, scores, flat, self.seed)
        return best_scoring(pos.empties(), scores, flat, self.seed)

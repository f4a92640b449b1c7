"""The weak rungs of the chess ladder as move rules on a python-chess board.

They live here (not in `policies/`) so `arcade_gym/Chess-v0` can play against them;
`policies/chess` wraps them as policies. Each draws its tie-breaks from a seeded PCG64 stream, so
a seed and the opponent's moves fix a game.

- `random`: uniform over the legal moves.
- `greedy`: the capture of the most valuable piece (en passant takes a pawn), ties at random; with
  no capture, a uniform legal move.
- `material-2ply`: the move whose worst reply leaves the best material balance (pawn 1, knight and
  bishop 3, rook 5, queen 9), a mate counted as decisive and a stalemate as even; ties at random.
"""

from __future__ import annotations

from collections.abc import Callable

import chess
import numpy as np

from arcade_gym.core.seeding import seed_to_u64

PIECE_VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
MATE = 1000


class MoveRule:
    """A weak rung: `choose(board) -> move` (a legal move of the side to move), seeded."""

    name = ""

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = np.random.Generator(np.random.PCG64(seed_to_u64(seed)))

    def reseed(self, seed: int | str) -> None:
        """Start the tie-break stream again from `seed`."""
        self.rng = np.random.Generator(np.random.PCG64(seed_to_u64(seed)))

    def _pick(self, moves: list[chess.Move]) -> chess.Move:
        return moves[int(self.rng.integers(len(moves)))]

    def choose(self, board: chess.Board) -> chess.Move:
        raise NotImplementedError

    def __call__(self, board: chess.Board) -> chess.Move:
        return self.choose(board)


def _no_moves(board: chess.Board) -> ValueError:
    return ValueError(f"no legal move in {board.fen()!r}: the game is over")


class RandomRule(MoveRule):
    """Uniform over the legal moves."""

    name = "random"

    def choose(self, board: chess.Board) -> chess.Move:
        moves = list(board.generate_legal_moves())
        if not moves:
            raise _no_moves(board)
        return self._pick(moves)


def captured_value(board: chess.Board, move: chess.Move) -> int:
    """The value of the piece `move` captures (0 for none; a pawn for en passant)."""
    if board.is_en_passant(move):
        return PIECE_VALUES[chess.PAWN]
    piece = board.piece_type_at(move.to_square)
    if piece is None or board.color_at(move.to_square) == board.turn:  # Chess960 castling
        return 0
    return PIECE_VALUES.get(piece, 0)


class GreedyRule(MoveRule):
    """The most valuable capture, else a uniform legal move."""

    name = "greedy"

    def choose(self, board: chess.Board) -> chess.Move:
        moves = list(board.generate_legal_moves())
        if not moves:
            raise _no_moves(board)
        values = [captured_value(board, m) for m in moves]
        best = max(values)
        if best == 0:
            return self._pick(moves)
        return self._pick([m for m, v in zip(moves, values, strict=True) if v == best])


def material(board: chess.Board, colour: chess.Color) -> int:
    """Material of `colour` minus its opponent's."""
    total = 0
    for piece, value in PIECE_VALUES.items():
        mask = board.pieces_mask(piece, chess.WHITE), board.pieces_mask(piece, chess.BLACK)
        total += value * (mask[0].bit_count() - mask[1].bit_count())
    return total if colour == chess.WHITE else -total


class Material2PlyRule(MoveRule):
    """Two-ply minimax on material (our move, their best reply); ties at random."""

    name = "material-2ply"

    def choose(self, board: chess.Board) -> chess.Move:
        moves = list(board.generate_legal_moves())
        if not moves:
            raise _no_moves(board)
        us = board.turn
        best = -MATE - 1
        best_moves: list[chess.Move] = []
        for move in moves:
            board.push(move)
            value = self._worst_reply(board, us, best)
            board.pop()
            if value > best:
                best, best_moves = value, [move]
            elif value == best:
                best_moves.append(move)
        return self._pick(best_moves)

    @staticmethod
    def _worst_reply(board: chess.Board, us: chess.Color, floor: int) -> int:
        """Our material after the opponent's best reply; stops early once it is below `floor`."""
        replies = list(board.generate_legal_moves())
        if not replies:
            return MATE if board.is_check() else 0
        worst = MATE
        for reply in replies:
            board.push(reply)
            value = -MATE if board.is_checkmate() else material(board, us)
            board.pop()
            if value < worst:
                worst = value
                if worst < floor:
                    break
        return worst


RULES: dict[str, Callable[[int | str], MoveRule]] = {
    "random": RandomRule,
    "greedy": GreedyRule,
    "material-2ply": Material2PlyRule,
}
"""Weak rung name -> constructor taking a seed."""


def make_rule(name: str, seed: int | str = 0) -> MoveRule:
    """The weak rung `name` seeded with `seed`; ValueError naming the rungs otherwise."""
    try:
        return RULES[name](seed)
    except KeyError:
        raise ValueError(f"unknown weak rung {name!r}; choose one of {sorted(RULES)}") from None

"""The move-index action space of PettingZoo's `chess_v6` (AlphaZero's 8x8x73), exactly.

An action is `(file * 8 + rank) * 73 + plane` of the from-square seen from the mover's side (the
board is mirrored rank-wise when black moves, so both colours use the same indices). Planes 0..55
are queen-like moves, `distance_minus_one * 8 + direction` with directions ordered by (dx, dy) in
(-1..1) x (-1..1); planes 56..63 knight moves ordered the same way; planes 64..72
underpromotions, `3 * (dx + 1) + (0 knight, 1 bishop, 2 rook)`. A pawn move to the last rank that
is not an underpromotion promotes to a queen. Castling is the king's move: two squares in
standard chess, king-takes-own-rook in Chess960 (python-chess's Chess960 notation).
"""

from __future__ import annotations

from collections.abc import Iterable

import chess

from arcade_gym.chess.rules import ACTION_PLANES, ACTION_SIZE

_KNIGHT_STEPS = [(x, y) for x in range(-2, 3) for y in range(-2, 3) if abs(x) + abs(y) == 3]
_QUEEN_DIRECTIONS = [(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1) if (x, y) != (0, 0)]
_UNDER_PIECES = (chess.KNIGHT, chess.BISHOP, chess.ROOK)


def _sign(v: int) -> int:
    return (v > 0) - (v < 0)


def _plane(dx: int, dy: int) -> int:
    """The plane of a from->to displacement (white's view), or -1 when no piece moves so."""
    if (dx, dy) in _KNIGHT_STEPS:
        return 56 + _KNIGHT_STEPS.index((dx, dy))
    if (dx, dy) == (0, 0) or not (dx == 0 or dy == 0 or abs(dx) == abs(dy)):
        return -1
    distance = max(abs(dx), abs(dy))
    return (distance - 1) * 8 + _QUEEN_DIRECTIONS.index((_sign(dx), _sign(dy)))


def _action(from_square: int, plane: int) -> int:
    return (
        chess.square_file(from_square) * 8 + chess.square_rank(from_square)
    ) * ACTION_PLANES + plane


def _tables() -> tuple[list[int], list[int], list[int], list[int], list[tuple[int, int, int]]]:
    plain_w = [-1] * 4096
    under_w = [-1] * (4096 * 3)
    decode: list[tuple[int, int, int]] = [(-1, -1, 0)] * ACTION_SIZE
    for f in range(64):
        for t in range(64):
            dx = chess.square_file(t) - chess.square_file(f)
            dy = chess.square_rank(t) - chess.square_rank(f)
            plane = _plane(dx, dy)
            if plane >= 0:
                plain_w[f * 64 + t] = a = _action(f, plane)
                decode[a] = (f, t, 0)
            if dy == 1 and abs(dx) <= 1:
                for k, piece in enumerate(_UNDER_PIECES):
                    a = _action(f, 64 + 3 * (dx + 1) + k)
                    under_w[(f * 64 + t) * 3 + k] = a
                    decode[a] = (f, t, piece)
    plain_b = [plain_w[(f ^ 56) * 64 + (t ^ 56)] for f in range(64) for t in range(64)]
    under_b = [
        under_w[((f ^ 56) * 64 + (t ^ 56)) * 3 + k]
        for f in range(64)
        for t in range(64)
        for k in range(3)
    ]
    return plain_w, plain_b, under_w, under_b, decode


_PLAIN_W, _PLAIN_B, _UNDER_W, _UNDER_B, _DECODE = _tables()


def move_to_action(move: chess.Move, turn: chess.Color) -> int:
    """The action index of `move` played by `turn` (no legality check)."""
    key = move.from_square * 64 + move.to_square
    promotion = move.promotion
    if promotion is not None and promotion != chess.QUEEN:
        under = _UNDER_W if turn else _UNDER_B
        return under[key * 3 + promotion - chess.KNIGHT]
    return (_PLAIN_W if turn else _PLAIN_B)[key]


def moves_to_actions(moves: Iterable[chess.Move], turn: chess.Color) -> list[int]:
    """Action indices of moves all played by `turn` (the hot path of the envs' masks)."""
    plain = _PLAIN_W if turn else _PLAIN_B
    under = _UNDER_W if turn else _UNDER_B
    return [
        plain[m.from_square * 64 + m.to_square]
        if m.promotion is None or m.promotion == chess.QUEEN
        else under[(m.from_square * 64 + m.to_square) * 3 + m.promotion - chess.KNIGHT]
        for m in moves
    ]


def action_to_move(board: chess.Board, action: int) -> chess.Move:
    """The move `action` means for the side to move on `board` (legal or not), as PettingZoo
    decodes it: a pawn leaving the seventh rank without an underpromotion promotes to a queen."""
    if not 0 <= action < ACTION_SIZE:
        raise ValueError(f"action {action} is out of range [0, {ACTION_SIZE})")
    f, t, promotion = _DECODE[action]
    if f < 0:
        raise ValueError(f"action {action} encodes no move (plane {action % ACTION_PLANES})")
    if not board.turn:
        f, t = f ^ 56, t ^ 56
    if (
        promotion == 0
        and board.pawns & chess.BB_SQUARES[f]
        and chess.square_rank(f) == (6 if board.turn else 1)
    ):
        promotion = chess.QUEEN
    return chess.Move(f, t, promotion or None)


def action_names(board: chess.Board, actions: Iterable[int]) -> list[str]:
    """UCI names of actions on `board` (for messages and debugging)."""
    return [action_to_move(board, a).uci() for a in actions]

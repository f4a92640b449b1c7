"""A chess game as the envs see it: the board, its observation history, its repetitions, and
the legal moves with their action indices, computed once per ply.

python-chess holds the board (push, FEN, SAN, insufficient material); the legal moves, the mask
and the history rows come from one numba kernel per ply (`arcade_gym/chess/movegen.py`).

The game ends on checkmate, stalemate, insufficient material, the third occurrence of a position,
or the fiftieth move without a capture or pawn move (100 halfmoves). PettingZoo's `chess_v6` ends
one ply earlier in the last two cases (when the side to move *could* claim the draw with its next
move); here a draw ends the game only once it has happened on the board.
"""

from __future__ import annotations

from typing import Any

import chess
import numpy as np

from arcade_gym.chess.contract import ChessQuestion, make_question
from arcade_gym.chess.encoding import move_to_action
from arcade_gym.chess.engine import HIST_WORDS, NO_EP, fill_observation
from arcade_gym.chess.movegen import legal_moves, new_buffers
from arcade_gym.chess.positions import start_board
from arcade_gym.chess.rules import (
    ACTION_SIZE,
    FIFTY_MOVE_HALFMOVES,
    HISTORY,
    OBS_PLANES,
    REPETITIONS,
)
from arcade_gym.core.game import state_digest

_CASTLING_STANDARD = ((chess.BB_H1, chess.BB_A1), (chess.BB_H8, chess.BB_A8))


class ChessGame:
    """One game from a start position; `play(move)` / `play_action(a)` advance it.

    `moves` / `actions` are the legal moves of the side to move and their indices (same order,
    built on demand; the envs read the mask); `termination` names how the game ended (None while
    it goes on) and `result` is "1-0", "0-1", "1/2-1/2" or "*".
    """

    def __init__(self, variant: str = "standard", start: int | str | None = None) -> None:
        self.variant = variant
        self.board = start_board(variant, start)
        self.start_fen = self.board.fen()
        self._hist = np.zeros((HISTORY, HIST_WORDS), np.uint64)
        self._pos, self._mask, self._packed, self._actions = new_buffers()
        self._n = 0
        self._newest = -1
        self._filled = 0
        self._seen: dict[Any, int] = {self._key(): 1}
        self.repetitions = 1
        self.termination: str | None = None
        self.result = "*"
        self.winner: chess.Color | None = None
        self._refresh(-1, False)

    # --- the hot path -------------------------------------------------------------------------
    def play_action(self, action: int) -> chess.Move:
        """Play the legal move with index `action`; a ValueError when it is not legal."""
        move = self.move_of(action)
        if move is None:
            raise ValueError(self.illegal_message(action))
        self.play(move)
        return move

    def move_of(self, action: int) -> chess.Move | None:
        """The legal move with index `action`, or None when there is none."""
        if not (0 <= action < ACTION_SIZE and self._mask[action]):
            return None
        return _unpack(int(self._packed[action]))

    def is_legal(self, move: chess.Move) -> bool:
        """Whether `move` is a legal move of the side to move (promotion piece included)."""
        action = move_to_action(move, self.board.turn)
        return action >= 0 and self.move_of(action) == move

    def play(self, move: chess.Move) -> None:
        """Play a legal move (not checked: use `play_action` or `is_legal`)."""
        board = self.board
        board.push(move)
        if board.halfmove_clock == 0:
            self._seen.clear()  # no earlier position can recur after a capture or pawn move
        key = self._key()
        self.repetitions = count = self._seen.get(key, 0) + 1
        self._seen[key] = count
        self._newest = slot = (self._newest + 1) % HISTORY
        self._filled += 1
        self._refresh(slot, count >= 2)

    def _key(self) -> tuple[Any, ...]:
        """python-chess's transposition key (`Board._transposition_key`) read directly: the raw
        castling rights equal the clean ones for any position reached from a valid start."""
        board = self.board
        ep = board.ep_square
        return (
            *_placement(board),
            board.turn,
            board.castling_rights,
            ep if ep is not None and board.has_legal_en_passant() else None,
        )

    def _refresh(self, slot: int, repeated: bool) -> None:
        """The legal moves of the new position (and its history row in `slot`), then the end
        rules."""
        board = self.board
        ep = board.ep_square
        self._pos[:] = (
            *_placement(board),
            NO_EP if ep is None else ep,
            board.castling_rights,
            board.turn,
            board.chess960,
        )
        self._n, in_check = legal_moves(
            self._pos, self._hist, slot, repeated, self._mask, self._packed, self._actions
        )
        if not self._n:
            if in_check:
                self._end("checkmate", not board.turn)
            else:
                self._end("stalemate", None)
        elif board.is_insufficient_material():
            self._end("insufficient_material", None)
        elif self.repetitions >= REPETITIONS:
            self._end("threefold_repetition", None)
        elif board.halfmove_clock >= FIFTY_MOVE_HALFMOVES:
            self._end("fifty_moves", None)

    def _end(self, termination: str, winner: chess.Color | None) -> None:
        self.termination = termination
        self.winner = winner
        self.result = "1/2-1/2" if winner is None else ("1-0" if winner else "0-1")
        self._n = 0
        self._mask[:] = 0

    # --- views --------------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.termination is not None

    @property
    def ply(self) -> int:
        """Halfmoves played since the start position."""
        return len(self.board.move_stack)

    @property
    def actions(self) -> list[int]:
        """The legal actions of the side to move (empty once the game is over)."""
        return self._actions[: self._n].tolist()

    @property
    def moves(self) -> list[chess.Move]:
        """The legal moves of the side to move, in the order of `actions`."""
        return [_unpack(int(self._packed[a])) for a in self._actions[: self._n]]

    def mask(self, out: np.ndarray | None = None) -> np.ndarray:
        """A copy of the int8 action mask (length 4672) of the side to move (into `out`)."""
        if out is None:
            return self._mask.copy()
        np.copyto(out, self._mask)
        return out

    def observation(self, player: int, out: np.ndarray | None = None) -> np.ndarray:
        """The 8x8x111 bool planes of `chess_v6` as `player` (0 white, 1 black) sees them."""
        if out is None:
            out = np.empty((8, 8, OBS_PLANES), np.bool_)
        fill_observation(
            self._hist,
            self._newest,
            self._filled,
            self._castling(player),
            player,
            self.board.halfmove_clock,
            out,
        )
        return out

    def _castling(self, player: int) -> int:
        """Bits: 1 our kingside, 2 our queenside, 4 their kingside, 8 their queenside."""
        board = self.board
        rights = board.castling_rights
        if not rights:
            return 0
        bits = 0
        colours = (chess.WHITE, chess.BLACK) if player == 0 else (chess.BLACK, chess.WHITE)
        for i, colour in enumerate(colours):
            if board.chess960:
                rights = board.clean_castling_rights() & chess.BB_BACKRANKS
                king = board.king(colour)
                for rook in chess.SquareSet(rights & board.occupied_co[colour]):
                    if king is not None and chess.square_rank(rook) == chess.square_rank(king):
                        bits |= (1 if rook > king else 2) << (2 * i)
            else:
                kingside, queenside = _CASTLING_STANDARD[0 if colour else 1]
                if rights & kingside:
                    bits |= 1 << (2 * i)
                if rights & queenside:
                    bits |= 2 << (2 * i)
        return bits

    # --- the `Game` protocol (`arcade_gym/core/game.py`), in `Chess-v0`'s indices -------------
    def legal_action_indices(self) -> list[int]:
        """`actions`, ascending (the order of the env's mask); none once the game is over."""
        return sorted(self.actions)

    def apply_action(self, action: int) -> float:
        """`play_action(action)` for the side to move; 1.0 when the move mates, else 0.0 (the
        env's reward for its agent's own move; the opponent's reply is another move)."""
        self.play_action(action)
        return 1.0 if self.winner is not None else 0.0

    def question(self) -> ChessQuestion:
        """The ladder's question for the side to move (`arcade_gym/chess/contract.py`)."""
        return make_question(self.board, "chess960" if self.variant == "chess960" else "standard")

    def state_hash(self) -> str:
        """16 hex digits over the variant, the start position and the moves played: a position
        plays on according to its history too (repetitions, the observation's last 8 boards)."""
        moves = " ".join(move.uci() for move in self.board.move_stack)
        return state_digest(self.variant.encode(), self.start_fen.encode(), moves.encode())

    def illegal_message(self, action: int) -> str:
        """Why `action` cannot be played now, in one line."""
        if self.over:
            return f"the game is over ({self.termination}); no action is legal"
        return (
            f"action {action} is not a legal move for {'white' if self.board.turn else 'black'} "
            "here; choose an action whose action_mask entry is 1"
        )


def _placement(board: chess.Board) -> tuple[int, ...]:
    """The six piece bitboards, then white's and black's pieces (the kernels' first 8 words)."""
    occupied = board.occupied_co
    return (
        board.pawns,
        board.knights,
        board.bishops,
        board.rooks,
        board.queens,
        board.kings,
        occupied[chess.WHITE],
        occupied[chess.BLACK],
    )


def _unpack(packed: int) -> chess.Move:
    """A move from the kernel's packing `from | to << 6 | promotion << 12`."""
    return chess.Move(packed & 63, (packed >> 6) & 63, (packed >> 12) or None)

"""The chess ladder's question and answer, and the check of an answer against its question.

Every move is a fresh request: the variant, the colour to play, the start position (FEN), the
moves so far in SAN and UCI, the current position as FEN and as a text board, and no list of legal
moves. The answer is one move, SAN or UCI, inside `<move>...</move>` when it comes as text; a
rejected try gets one line of feedback (`MoveCheck.feedback`) for the next try.
"""

from __future__ import annotations

import re
from typing import Any, Literal

import chess
from pydantic import ConfigDict

from arcade_gym.chess.render import text_board
from arcade_gym.core.wire import WIRE, WireModel

Colour = Literal["white", "black"]
Variant = Literal["standard", "chess960"]

MAX_ANSWER_CHARS = 64
"""A move inside the tag longer than this is unreadable (no move is that long)."""

_TAG = re.compile(r"<move>\s*(.*?)\s*</move>", re.IGNORECASE | re.DOTALL)


class ChessQuestion(WireModel):
    """One move to play: what the benchmark tells a player (camelCase on the wire)."""

    model_config = ConfigDict(**WIRE, frozen=True)

    variant: Variant
    colour: Colour
    start_fen: str
    moves_san: tuple[str, ...]
    moves_uci: tuple[str, ...]
    fen: str
    board: str
    ply: int
    attempt: int = 1
    feedback: str | None = None

    def board_now(self) -> chess.Board:
        """The current position as a python-chess board, rebuilt from the start and the moves
        (so repetitions and castling history are exact); a ValueError when a move is not
        legal."""
        board = chess.Board(self.start_fen, chess960=self.variant == "chess960")
        for uci in self.moves_uci:
            board.push(legal_uci(board, uci))
        return board


class ChessAnswer(WireModel):
    """A move in SAN or UCI (`move`), and the raw reply it was read from when there was one."""

    model_config = ConfigDict(**WIRE, frozen=True)

    move: str
    reply: str | None = None


class MoveCheck(WireModel):
    """An answer judged: the legal move (`uci`, `san`), or `error` ("unreadable" | "illegal")
    with a one-line `feedback` for the retry."""

    uci: str | None = None
    san: str | None = None
    error: Literal["unreadable", "illegal"] | None = None
    feedback: str | None = None

    @property
    def legal(self) -> bool:
        """Whether the answer is a legal move."""
        return self.error is None


def make_question(
    board: chess.Board,
    variant: Variant,
    *,
    attempt: int = 1,
    feedback: str | None = None,
) -> ChessQuestion:
    """The question for the side to move on `board` (whose move stack holds the game so far)."""
    replay = board.root()
    start_fen = replay.fen()
    sans: list[str] = []
    for move in board.move_stack:
        sans.append(replay.san(move))
        replay.push(move)
    return ChessQuestion(
        variant=variant,
        colour="white" if board.turn else "black",
        start_fen=start_fen,
        moves_san=tuple(sans),
        moves_uci=tuple(m.uci() for m in board.move_stack),
        fen=board.fen(),
        board=text_board(board),
        ply=len(board.move_stack),
        attempt=attempt,
        feedback=feedback,
    )


def extract_move_text(reply: str) -> str | None:
    """The text inside the last `<move>...</move>` tag of a reply (None without one). A reply
    without the tag is unreadable even when it holds a move: the tag is the contract. Never
    raises."""
    if not isinstance(reply, str):
        return None
    tags = _TAG.findall(reply)
    return str(tags[-1]).strip() if tags else None


def legal_move(board: chess.Board, move: chess.Move) -> chess.Move | None:
    """`move` as the legal move of `board`'s side to move that it names, or None.

    The one legality test of every chess path: a null move (`0000`) and a drop (`Q@e4`) are never
    legal; a standard king-takes-rook castling (`e1h1`) comes back as the generated `e1g1`.
    """
    if not move or move.drop is not None:
        return None
    mask = chess.BB_SQUARES[move.from_square]
    castles = board.is_castling(move) and move in board.legal_moves
    for legal in board.generate_legal_moves(from_mask=mask):
        if legal == move or (
            castles
            and board.is_castling(legal)
            and board.is_kingside_castling(legal) == board.is_kingside_castling(move)
        ):
            return legal
    return None


def parse_move(board: chess.Board, text: str) -> chess.Move | None:
    """`text` as a legal move on `board`, read as UCI first and then as SAN; None otherwise.

    Every chess path reads moves here (answers, engines, terminal play, verify). Chess960
    castling is accepted as king-takes-rook UCI or as O-O / O-O-O. Null moves (`0000`, `--`,
    `Z0`, `@@@@`), drops and anything not in `board.legal_moves` are None. Never raises.
    """
    if not isinstance(text, str):
        return None
    text = text.strip().rstrip("!?")
    if not text or len(text) > MAX_ANSWER_CHARS:
        return None
    try:
        move = legal_move(board, chess.Move.from_uci(text.lower() if len(text) in (4, 5) else text))
        if move is not None:
            return move
    except ValueError:
        pass
    san = text.replace("0-0-0", "O-O-O").replace("0-0", "O-O")
    try:
        return legal_move(board, board.parse_san(san))
    except ValueError:
        return None


def legal_uci(board: chess.Board, uci: object) -> chess.Move:
    """A recorded UCI move (ours or a log's) as the legal move it names on `board`; a
    ValueError naming it otherwise (a null move, a drop, an illegal or malformed move)."""
    try:
        move = chess.Move.from_uci(uci) if isinstance(uci, str) else None
    except ValueError:
        move = None
    legal = None if move is None else legal_move(board, move)
    if legal is None or legal.uci() != uci:
        raise ValueError(f"{uci!r} is not a legal UCI move in {board.fen()}")
    return legal


def check_answer(
    question: ChessQuestion, answer: Any, board: chess.Board | None = None
) -> MoveCheck:
    """Judge `answer` (a ChessAnswer, a dict with `move`, or reply text) for `question`.

    `board` is the question's position when the caller has it (saves the replay). Never raises.
    """
    if board is None:
        board = question.board_now()
    text: str | None
    if isinstance(answer, ChessAnswer):
        text = answer.move
    elif isinstance(answer, dict) and isinstance(answer.get("move"), str):
        text = answer["move"]
    elif isinstance(answer, str):
        text = extract_move_text(answer)
        if text is None:
            return MoveCheck(
                error="unreadable",
                feedback="Unreadable: answer with exactly one move inside <move>...</move>.",
            )
    else:
        return MoveCheck(
            error="unreadable",
            feedback="Unreadable: answer with exactly one move inside <move>...</move>.",
        )
    shown = text.strip()[:MAX_ANSWER_CHARS]
    if not shown:
        return MoveCheck(
            error="unreadable", feedback="Unreadable: the <move> tag was empty; put one move in it."
        )
    move = parse_move(board, text)
    if move is None:
        side = "white" if board.turn else "black"
        return MoveCheck(
            error="illegal",
            feedback=f"Illegal: {shown!r} is not a legal move for {side} in the current position.",
        )
    return MoveCheck(uci=move.uci(), san=board.san(move))

"""The chess ladder's prompt module: a chat model plays one move per request.

The model gets what the benchmark's question holds (variant, its colour, the start FEN, the moves
so far in SAN and UCI, the current FEN and a text board) and never a list of legal moves, since
keeping track of the board is part of the test. It answers one move, SAN or UCI, inside
`<move>...</move>`. A retry carries the one line of feedback the benchmark gave the rejected try.

`parse_move_reply` never raises: it returns the text of the last `<move>` tag or None. Legality is
the benchmark's business (`arcade_gym/chess/contract.py`); an unreadable reply is passed on as
its raw text, which the benchmark judges unreadable.
"""

from __future__ import annotations

from arcade_gym.chess.contract import ChessAnswer, ChessQuestion, extract_move_text
from policies.llm.prompts.base import Probe, Reading
from policies.llm.prompts.json_reply import ReplyParseError
from policies.llm.telemetry import LLMCall

ADAPTER_VERSION = "llm-chess/1"
PROMPT_VERSION = "chess-llm-prompt/1"

SYSTEM_PROMPT = """\
You are playing a game of chess (standard chess or Chess960) against an opponent. Each request \
gives you the variant, your colour, the starting position as FEN, every move played so far (in \
SAN and in UCI notation), and the current position as FEN and as a text board (ranks 8 to 1 \
from top to bottom, files a to h, upper case for white, lower case for black, . for an empty \
square). You are not given the legal moves: keeping track of the position is part of the game.

Play the best legal move you can for your colour. Answer with exactly one move inside a move tag, \
in SAN or UCI notation, for example <move>Nf3</move> or <move>g1f3</move>. In Chess960, castle \
with <move>O-O</move> or <move>O-O-O</move> (or the UCI king-takes-rook move). An illegal or \
unreadable answer is rejected with one line of feedback and you may try again, up to 3 tries a \
move; after that the game is forfeited."""


def render_question(question: ChessQuestion) -> str:
    """The user message for one move."""
    san = " ".join(_numbered(question.moves_san, question.start_fen)) or "(none)"
    uci = " ".join(question.moves_uci) or "(none)"
    lines = [
        f"Variant: {question.variant}",
        f"You play: {question.colour}",
        f"Starting position (FEN): {question.start_fen}",
        f"Moves so far (SAN): {san}",
        f"Moves so far (UCI): {uci}",
        f"Current position (FEN): {question.fen}",
        "Current board:",
        question.board,
    ]
    if question.feedback:
        lines += [
            "",
            f"Your previous answer was rejected (try {question.attempt} of 3): {question.feedback}",
        ]
    lines += ["", "Reply with your move as <move>...</move>."]
    return "\n".join(lines)


def _numbered(sans: tuple[str, ...], start_fen: str) -> list[str]:
    """SAN moves with move numbers (`1. e4 e5 2. Nf3`), from the start position's side to move."""
    parts = start_fen.split()
    black_first = len(parts) > 1 and parts[1] == "b"
    number = int(parts[5]) if len(parts) > 5 and parts[5].isdigit() else 1
    out: list[str] = []
    for i, san in enumerate(sans):
        white_move = (i % 2 == 0) != black_first
        if white_move:
            out.append(f"{number}. {san}")
        else:
            out.append(f"{number}... {san}" if i == 0 else san)
            number += 1
    return out


def build_messages(question: ChessQuestion) -> list[dict[str, str]]:
    """System prompt and the question."""
    return [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": render_question(question)},
    ]


def parse_move_reply(text: object) -> str | None:
    """The move text of the last `<move>...</move>` tag of a reply, or None. Never raises."""
    try:
        move = extract_move_text(text) if isinstance(text, str) else None
    except Exception:  # a reply must never crash a game
        return None
    return move or None


class ChessPrompt:
    """Chess positions: answer `<move>SAN or UCI</move>` (a tag; no schema)."""

    game = "chess"
    benchmark = "chess-ladder"
    reply_tokens = 300  # one move in a tag, often after a few lines of thought
    prompt_version = PROMPT_VERSION
    adapter_version = ADAPTER_VERSION

    def description(self, model: str) -> str:
        return f"{model} playing chess one move per request"

    def keys(self, question: ChessQuestion) -> tuple[str | None, int | None]:
        return question.fen, question.ply

    def messages(self, question: ChessQuestion) -> list[dict[str, str]]:
        return build_messages(question)

    def response_format(self, question: ChessQuestion) -> None:
        return None

    def read(self, text: str | None, refusal: str | None, question: ChessQuestion) -> Reading:
        if refusal:
            raise ReplyParseError(f"the model refused: {refusal.strip()!r:.120}")
        move = parse_move_reply(text)
        if move is None:
            raise ReplyParseError("no <move>...</move> in the reply")
        return Reading(move, move)

    def answer(self, question: ChessQuestion, reading: Reading, call: LLMCall) -> ChessAnswer:
        return ChessAnswer(move=reading.value, reply=call.raw)

    def unreadable(self, question: ChessQuestion, call: LLMCall) -> str:
        """The raw reply text: the benchmark judges it unreadable and gives feedback."""
        return call.raw or ""

    def probe(self) -> Probe:
        def check(text: str | None, refusal: str | None) -> str:
            move = None if refusal else parse_move_reply(text)
            if move is None:
                raise ReplyParseError("no <move>...</move> in the reply")
            return move

        return Probe(
            messages=[
                {"role": "system", "content": "You answer with a move tag and nothing else."},
                {"role": "user", "content": "Connection test. Reply with <move>e4</move> only."},
            ],
            response_format=None,
            check=check,
        )


PROMPT = ChessPrompt()


def make_prompt(game: str = "chess") -> ChessPrompt:
    """The chess prompt module."""
    return PROMPT

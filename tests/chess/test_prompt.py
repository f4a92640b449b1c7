"""The chess prompt module: the request text and the never-raising reply parser."""

from __future__ import annotations

import chess
import pytest
from hypothesis import given
from hypothesis import strategies as st

from arcade_gym.chess.contract import check_answer, make_question
from policies.chess.prompt import PROMPT, parse_move_reply, render_question
from policies.llm.prompts.json_reply import ReplyParseError
from policies.llm.telemetry import LLMCall


def _q(feedback: str | None = None) -> object:
    board = chess.Board()
    for san in ("e4", "c5", "Nf3"):
        board.push_san(san)
    return make_question(board, "standard", attempt=2 if feedback else 1, feedback=feedback)


def test_request_holds_the_position_and_no_legal_move_list() -> None:
    text = render_question(_q())  # type: ignore[arg-type]
    assert "You play: black" in text and "1. e4 c5 2. Nf3" in text and "e2e4 c7c5 g1f3" in text
    assert "legal moves:" not in text.lower()


def test_retry_carries_the_feedback() -> None:
    text = render_question(_q("Illegal: 'Ke2' is not a legal move."))  # type: ignore[arg-type]
    assert "try 2 of 3" in text and "Ke2" in text


@pytest.mark.parametrize(
    ("reply", "move"),
    [
        ("<move>Nc6</move>", "Nc6"),
        ("a <move>d6</move> b <move> Nc6 </move>", "Nc6"),
        ("no tag", None),
        (None, None),
        ("", None),
        (7, None),
    ],
)
def test_parse_move_reply(reply: object, move: str | None) -> None:
    assert parse_move_reply(reply) == move


@given(st.text(max_size=300))
def test_parser_never_raises(text: str) -> None:
    parse_move_reply(text)


def test_prompt_module_reads_and_marks_unreadable_replies() -> None:
    q = _q()
    reading = PROMPT.read("<move>Nc6</move>", None, q)  # type: ignore[arg-type]
    answer = PROMPT.answer(q, reading, LLMCall(raw="<move>Nc6</move>"))  # type: ignore[arg-type]
    assert check_answer(q, answer).uci == "b8c6"  # type: ignore[arg-type]
    with pytest.raises(ReplyParseError):
        PROMPT.read("I resign", None, q)  # type: ignore[arg-type]
    unreadable = PROMPT.unreadable(q, LLMCall(raw="I resign"))  # type: ignore[arg-type]
    assert check_answer(q, unreadable).error == "unreadable"  # type: ignore[arg-type]

"""The LLM lane's prompt and its reply reader (never raises)."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from arcade_gym.sudoku.contract import SudokuQuestion
from policies.sudoku.prompt import build_messages, parse_reply, response_format

SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
ROWS = [SOLUTION[r * 9 : r * 9 + 9] for r in range(9)]


def test_the_grid_is_sent_once_as_nine_rows() -> None:
    puzzle = "53" + "0" * 79
    messages = build_messages(SudokuQuestion.from_puzzle(puzzle, "g"))
    user = messages[-1]["content"]
    assert "53......." in user and user.count("\n.........") == 8
    assert response_format()["json_schema"]["schema"]["required"] == ["grid", "confidence"]


def test_plain_json_reply() -> None:
    r = parse_reply(json.dumps({"grid": ROWS, "confidence": 87}))
    assert r.readable and r.grid == SOLUTION and r.confidence == 87 and not r.notes


def test_json_in_prose_and_fences_with_one_string_grid() -> None:
    text = "I think:\n```json\n" + json.dumps({"grid": SOLUTION, "confidence": "90%"}) + "\n```"
    r = parse_reply(text)
    assert r.readable and r.grid == SOLUTION and r.confidence == 90


def test_grid_drawn_in_text_with_separators() -> None:
    lines = []
    for i, row in enumerate(ROWS):
        if i and i % 3 == 0:
            lines.append("------+-------+------")
        lines.append(" | ".join(" ".join(row[k : k + 3]) for k in (0, 3, 6)))
    r = parse_reply("Final answer:\n" + "\n".join(lines) + "\nConfidence: 70%")
    assert r.readable and r.grid == SOLUTION and r.confidence == 70


def test_empty_cells_stay_empty() -> None:
    rows = [ROWS[0].replace("5", "."), *ROWS[1:]]
    r = parse_reply(json.dumps({"grid": rows, "confidence": 10}))
    assert r.readable and r.grid is not None and r.grid.startswith("0")


def test_unreadable_replies() -> None:
    for text, refusal in [(None, None), ("", None), ("no idea", None), ("x", "I cannot")]:
        r = parse_reply(text, refusal)
        assert not r.readable and r.error
    r = parse_reply(json.dumps({"grid": [1, 2, 3], "confidence": 1}))
    assert not r.readable


def test_missing_confidence_is_noted_not_fatal() -> None:
    r = parse_reply(json.dumps({"grid": ROWS}))
    assert r.readable and r.confidence is None and any("confidence" in n for n in r.notes)


@given(st.text(max_size=400))
def test_never_raises(text: str) -> None:
    parse_reply(text)


@given(
    st.recursive(
        st.none() | st.integers() | st.text(max_size=12),
        lambda c: st.lists(c, max_size=10) | st.dictionaries(st.text(max_size=8), c, max_size=5),
        max_leaves=40,
    )
)
def test_never_raises_on_any_json(value: object) -> None:
    parse_reply(json.dumps({"grid": value, "confidence": value}))

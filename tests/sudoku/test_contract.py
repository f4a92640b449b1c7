"""Reading a Sudoku answer: any shape a policy may send, never raising."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from arcade_gym.sudoku.contract import SudokuAnswer, SudokuQuestion, validate

SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
ROWS = [SOLUTION[r * 9 : r * 9 + 9] for r in range(9)]


def test_question_has_nine_rows_and_camel_case_wire_form() -> None:
    q = SudokuQuestion.from_puzzle("." * 80 + "5", "v1-t1-1")
    assert q.rows[-1] == "........5" and q.puzzle.endswith("05")
    wire = json.loads(q.to_json())
    assert {"gridId", "setVersion", "rows", "puzzle"} <= set(wire)


def test_answer_model_mapping_json_text_and_bare_grid_are_read() -> None:
    for answer in (
        SudokuAnswer(grid=ROWS, confidence=80),
        {"grid": ROWS, "confidence": 80},
        json.dumps({"grid": SOLUTION, "confidence": 80}),
        {"grid": [[int(ch) for ch in row] for row in ROWS], "confidence": "80%"},
    ):
        v = validate(answer)
        assert v.usable and v.grid == SOLUTION and v.confidence == 80
    bare = validate("\n".join(ROWS))
    assert bare.usable and bare.confidence is None and "confidence missing" in bare.notes


def test_blank_cells_stay_blank() -> None:
    v = validate({"grid": [".........", *ROWS[1:]], "confidence": 5})
    assert v.usable and v.grid is not None and v.grid[:9] == "0" * 9


def test_fraction_confidence_is_read_as_a_share() -> None:
    v = validate({"grid": ROWS, "confidence": 0.9})
    assert v.confidence == 90 and any("fraction" in n for n in v.notes)


def test_out_of_range_confidence_is_dropped_not_fatal() -> None:
    v = validate({"grid": ROWS, "confidence": 140})
    assert v.usable and v.confidence is None


def test_no_readable_grid_is_invalid() -> None:
    for answer in ({"confidence": 3}, {"grid": ROWS[:8]}, "nothing", b"\xff", 42, None):
        v = validate(answer)
        assert not v.usable and v.reason
    assert validate({"grid": ROWS}).to_dict()["grid"] == SOLUTION


@given(
    st.recursive(
        st.none() | st.booleans() | st.floats() | st.text(max_size=20),
        lambda c: st.lists(c, max_size=12) | st.dictionaries(st.text(max_size=6), c, max_size=4),
        max_leaves=50,
    )
)
def test_validate_never_raises(answer: object) -> None:
    validate(answer)
    validate({"grid": answer, "confidence": answer})

"""The tetris-bench@3 contract: wire names, round trips, and every rule of answer validation.

The question is the seed's worked example (seed-01, tick 14). Candidates are simulated here with a
tiny hard-drop so the fixture agrees with the numbers the seed shows.
"""

from __future__ import annotations

import json
import math
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_gym.tetris.contract import (
    ActivePiece,
    AgentAnswer,
    AgentInput,
    BoardFeatures,
    Candidate,
    Cell,
    PieceLetter,
    Placement,
    Verdict,
    answer_json_schema,
    validate,
)
from arcade_gym.tetris.rules import BOARD_HEIGHT, BOARD_WIDTH, PIECE_LETTERS, RULESET_ID, SHAPES

HASH = "7e417cf6"
E: Cell = None  # an empty cell
SEED_ROWS: list[list[Cell]] = [  # rows 15-19 of the example; rows 0-14 are empty
    ["I", "J", E, E, E, E, "S", "S", E, E],
    ["I", "J", "J", "J", "Z", "S", "S", E, "L", E],
    ["I", "O", "O", "Z", "Z", "T", "L", "L", "L", E],
    ["L", E, "S", "S", "O", "O", E, "T", "Z", "Z"],
    [E, "S", "S", E, "O", "O", "T", "T", "T", E],
]


def _empty_rows(n: int) -> list[list[Cell]]:
    return [[E] * BOARD_WIDTH for _ in range(n)]


SEED_GRID = _empty_rows(15) + SEED_ROWS
# The three placements the seed shows, then a few more a T can reach (ids are opaque).
LEGAL = [(3, 0), (8, 3), (2, 0), (0, 0), (1, 1), (1, 0), (7, 2), (5, 1)]
IDS = ["p14", "p28", "p23", "p03", "p09", "p05", "p31", "p17"]
CLEAR_POINTS = [0, 100, 300, 500, 800]


def _features(grid: list[list[Cell]]) -> BoardFeatures:
    """The board summary, with the definitions of docs/rules/tetris.md."""
    filled = [[cell is not None for cell in row] for row in grid]
    cols = list(zip(*filled, strict=True))
    heights = [next((BOARD_HEIGHT - r for r, f in enumerate(col) if f), 0) for col in cols]
    holes = sum(1 for col in cols for r, f in enumerate(col) if not f and any(col[:r]))
    walled = [math.inf, *heights, math.inf]
    wells = sum(int(max(0, min(walled[c], walled[c + 2]) - heights[c])) for c in range(BOARD_WIDTH))

    def transitions(line: list[bool]) -> int:
        return sum(a != b for a, b in pairwise(line))

    return BoardFeatures(
        heights=heights,
        max_height=max(heights),
        aggregate_height=sum(heights),
        holes=holes,
        bumpiness=sum(abs(a - b) for a, b in pairwise(heights)),
        wells=wells,
        row_transitions=sum(transitions([True, *row, True]) for row in filled),
        col_transitions=sum(transitions([*col, True]) for col in cols),
    )


def _drop(
    piece: PieceLetter, x: int, rotation: int, y: int = -1
) -> tuple[list[list[Cell]], int, int]:
    """Hard-drop `piece` from (x, y): the grid after lock and clear, rows dropped, lines."""
    offsets = SHAPES[PIECE_LETTERS.index(piece), rotation]

    def fits(top: int) -> bool:
        for dx, dy in offsets:
            col, row = x + int(dx), top + int(dy)
            if not 0 <= col < BOARD_WIDTH or row >= BOARD_HEIGHT:
                return False
            if row >= 0 and SEED_GRID[row][col] is not None:
                return False
        return True

    assert fits(y)
    landed = y
    while fits(landed + 1):
        landed += 1
    grid = [list(row) for row in SEED_GRID]
    for dx, dy in offsets:
        grid[landed + int(dy)][x + int(dx)] = piece
    kept = [row for row in grid if None in row]
    lines = BOARD_HEIGHT - len(kept)
    grid = _empty_rows(lines) + kept
    return grid, landed - y, lines


def _candidate(ident: str, x: int, rotation: int) -> Candidate:
    grid, rows, lines = _drop("T", x, rotation)
    return Candidate(
        id=ident,
        placement=Placement(x=x, rotation=rotation),
        lines_cleared=lines,
        score_delta=2 * rows + CLEAR_POINTS[lines],
        drop_points=2 * rows,
        clear_points=CLEAR_POINTS[lines],
        top_out=False,
        features=_features(grid),
        grid=grid,
    )


def _question() -> AgentInput:
    return AgentInput(
        ruleset=RULESET_ID,
        mode="IQ",
        tick=14,
        state_hash=HASH,
        active=ActivePiece(type="T", x=3, y=-1, rotation=0),
        hold=None,
        can_hold=True,
        next=["Z", "O", "J", "I", "L"],
        level=1,
        score=676,
        lines=2,
        pieces=14,
        combo=-1,
        back_to_back=False,
        grid=SEED_GRID,
        features=_features(SEED_GRID),
        legal=[Placement(x=x, rotation=r) for x, r in LEGAL],
        candidates=[_candidate(i, x, r) for i, (x, r) in zip(IDS, LEGAL, strict=True)],
    )


QUESTION = _question()


@pytest.fixture
def question() -> AgentInput:
    return QUESTION.model_copy(deep=True)


def _answer(*entries: tuple[Any, Any, Any], **extra: Any) -> dict[str, Any]:
    return {
        "stateHash": HASH,
        "choice": [{"x": x, "rotation": r, "p": p} for x, r, p in entries],
        **extra,
    }


def _played(verdict: Verdict) -> tuple[int, int] | None:
    return None if verdict.placement is None else (verdict.placement.x, verdict.placement.rotation)


SMALLEST = {"stateHash": HASH, "choice": [{"x": 3, "rotation": 0, "p": 1}]}


# --- the fixture is the seed's example ----------------------------------------------------------


def test_fixture_matches_the_seed(question: AgentInput) -> None:
    assert question.features == BoardFeatures(
        heights=[5, 5, 4, 4, 4, 4, 5, 5, 4, 2],
        max_height=5,
        aggregate_height=42,
        holes=6,
        bumpiness=5,
        wells=2,
        row_transitions=50,
        col_transitions=22,
    )
    shown = {c.id: c for c in question.candidates}
    for ident, heights, holes, bump, wells in [
        ("p14", [5, 5, 4, 5, 6, 5, 5, 5, 4, 2], 6, 7, 3),
        ("p28", [5, 5, 4, 4, 4, 4, 5, 5, 5, 6], 7, 3, 0),
        ("p23", [5, 5, 5, 6, 5, 4, 5, 5, 4, 2], 6, 7, 3),
    ]:
        features = shown[ident].features
        assert (features.heights, features.holes, features.bumpiness, features.wells) == (
            heights,
            holes,
            bump,
            wells,
        )
        assert shown[ident].drop_points == 30 and shown[ident].score_delta == 30
    # (3, 0) locks with cells at (4, 14), (3, 15), (4, 15), (5, 15).
    grid = shown["p14"].grid
    assert [grid[14][4], grid[15][3], grid[15][4], grid[15][5]] == ["T"] * 4


# --- wire names and round trips -----------------------------------------------------------------


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


def test_input_round_trips_through_json(question: AgentInput) -> None:
    assert AgentInput.model_validate_json(question.to_json()) == question
    assert AgentInput.model_validate(question.to_dict()) == question


def test_input_json_uses_the_seed_camel_case_names(question: AgentInput) -> None:
    wire = json.loads(question.to_json())
    assert list(wire) == [
        "ruleset",
        "mode",
        "tick",
        "stateHash",
        "active",
        "hold",
        "canHold",
        "next",
        "level",
        "score",
        "lines",
        "pieces",
        "combo",
        "backToBack",
        "grid",
        "features",
        "legal",
        "candidates",
    ]
    assert wire["hold"] is None
    assert set(wire["features"]) == {
        "heights",
        "maxHeight",
        "aggregateHeight",
        "holes",
        "bumpiness",
        "wells",
        "rowTransitions",
        "colTransitions",
    }
    assert set(wire["candidates"][0]) == {
        "id",
        "placement",
        "linesCleared",
        "scoreDelta",
        "dropPoints",
        "clearPoints",
        "topOut",
        "features",
        "grid",
    }
    assert not any("_" in key for key in _keys(wire))


def test_input_json_is_compact_and_keeps_null_hold(question: AgentInput) -> None:
    text = question.to_json()
    assert '"hold":null' in text
    assert ", " not in text and '": ' not in text


def test_placement_is_hashable() -> None:
    assert len({Placement(x=3, rotation=0), Placement(x=3, rotation=0)}) == 1


def test_answer_to_dict_omits_absent_fields_and_uses_camel_case() -> None:
    answer = AgentAnswer.single(HASH, Placement(x=3, rotation=0), risk=0.1, cost_usd=0.5)
    assert answer.to_dict() == {
        "stateHash": HASH,
        "choice": [{"x": 3, "rotation": 0, "p": 1.0}],
        "score": {"risk": 0.1},
        "costUsd": 0.5,
    }
    assert AgentAnswer.single(HASH, (3, 0)).to_dict() == SMALLEST


def test_answer_model_rejects_bools_and_nan_at_construction() -> None:
    with pytest.raises(ValueError):
        AgentAnswer.model_validate(_answer((True, 0, 1.0)))
    with pytest.raises(ValueError):
        AgentAnswer.model_validate(_answer((3, 0, math.nan)))


def test_answer_schema_names_the_wire_fields() -> None:
    schema = answer_json_schema()
    assert set(schema["properties"]) == {"stateHash", "choice", "noul", "score", "costUsd", "meta"}
    assert set(schema["required"]) == {"stateHash", "choice"}


# --- the seed's answers -------------------------------------------------------------------------


def test_smallest_answer_plays_3_0(question: AgentInput) -> None:
    verdict = validate(SMALLEST, question)
    assert verdict.usable and verdict.status == "valid"
    assert verdict.reason is None and verdict.notes == ()
    assert _played(verdict) == (3, 0) and verdict.hold is False


def test_seed_example_answer_plays_3_0(question: AgentInput) -> None:
    rest = [(x, r, 0.40 / 5) for x, r in LEGAL[3:]]  # the seed's other 31, renormalised
    answer = _answer(
        (3, 0, 0.27),
        (8, 3, 0.24),
        (2, 0, 0.09),
        *rest,
        noul={"hold": 0.3},
        score={"risk": 0.1},
        costUsd=0.00019068,
        meta={"retries": 0},
    )
    verdict = validate(answer, question)
    assert verdict.status == "valid", verdict.reason
    assert _played(verdict) == (3, 0)
    assert verdict.hold is False
    assert (verdict.risk, verdict.cost_usd, verdict.meta) == (0.1, 0.00019068, {"retries": 0})
    assert verdict.notes == ()


def test_agent_answer_object_is_accepted(question: AgentInput) -> None:
    answer = AgentAnswer.single(HASH, (8, 3), hold=True, meta={"model": "x"})
    verdict = validate(answer, question)
    assert _played(verdict) == (8, 3) and verdict.hold is True and verdict.meta == {"model": "x"}


def test_verdict_to_dict_is_json_ready(question: AgentInput) -> None:
    record = validate(_answer((3, 0, 1), costUsd=0.01), question).to_dict()
    assert json.loads(json.dumps(record)) == {
        "status": "valid",
        "reason": None,
        "notes": [],
        "placement": {"x": 3, "rotation": 0},
        "hold": False,
        "risk": None,
        "costUsd": 0.01,
        "meta": None,
    }


# --- rule 1: a JSON object ----------------------------------------------------------------------


def test_json_string_input(question: AgentInput) -> None:
    assert _played(validate(json.dumps(SMALLEST), question)) == (3, 0)


def test_bytes_input(question: AgentInput) -> None:
    assert _played(validate(json.dumps(SMALLEST).encode(), question)) == (3, 0)
    assert _played(validate(bytearray(json.dumps(SMALLEST).encode()), question)) == (3, 0)


@pytest.mark.parametrize(
    "text",
    ["", "{", "not json", '{"stateHash": "7e417cf6",}', "\ufeff{}", b"\xff\xfe\x00"],
)
def test_garbage_text_is_invalid(question: AgentInput, text: str | bytes) -> None:
    verdict = validate(text, question)
    assert verdict.status == "invalid" and not verdict.usable
    assert verdict.reason is not None and "JSON" in verdict.reason


@pytest.mark.parametrize("answer", [None, [], [SMALLEST], 3, 1.5, True, math.nan, "[1, 2]", "null"])
def test_non_object_is_invalid(question: AgentInput, answer: object) -> None:
    verdict = validate(answer, question)
    assert verdict.status == "invalid"
    assert verdict.reason is not None and "object" in verdict.reason


def test_deeply_nested_text_is_invalid(question: AgentInput) -> None:
    assert validate("[" * 100_000, question).status == "invalid"
    assert validate('{"meta":' * 100_000, question).status == "invalid"


def test_huge_int_text_is_invalid(question: AgentInput) -> None:
    text = (
        '{"stateHash": "7e417cf6", "choice": [{"x": ' + "9" * 10_000 + ', "rotation": 0, "p": 1}]}'
    )
    assert validate(text, question).status == "invalid"


def test_huge_int_object_is_invalid_with_a_printable_reason(question: AgentInput) -> None:
    verdict = validate(_answer((10**10_000, 0, 1)), question)
    assert verdict.status == "invalid" and "choice[0]" in (verdict.reason or "")
    assert len(verdict.reason or "") < 200
    assert validate(_answer((3, 0, 10**400)), question).status == "invalid"


def test_deeply_nested_object_is_handled(question: AgentInput) -> None:
    junk: Any = 1
    for _ in range(50_000):
        junk = {"p": [junk]}
    verdict = validate(_answer((3, 0, junk), meta=junk, noul=junk), question)
    assert verdict.status == "invalid" and "choice[0].p" in (verdict.reason or "")


# --- rule 2: the hash ---------------------------------------------------------------------------


def test_stale_hash(question: AgentInput) -> None:
    verdict = validate({**SMALLEST, "stateHash": "00000000"}, question)
    assert verdict.status == "stale" and not verdict.usable and verdict.placement is None


def test_hash_is_compared_verbatim(question: AgentInput) -> None:
    assert validate({**SMALLEST, "stateHash": HASH.upper()}, question).status == "stale"


def test_missing_hash(question: AgentInput) -> None:
    verdict = validate({"choice": SMALLEST["choice"]}, question)
    assert verdict.status == "invalid" and "stateHash" in (verdict.reason or "")


def test_snake_case_hash_is_missing_with_a_hint(question: AgentInput) -> None:
    verdict = validate({"state_hash": HASH, "choice": SMALLEST["choice"]}, question)
    assert verdict.status == "invalid" and "state_hash" in (verdict.reason or "")


@pytest.mark.parametrize("bad", [None, 0x7E417CF6, ["7e417cf6"], True])
def test_non_string_hash(question: AgentInput, bad: object) -> None:
    verdict = validate({**SMALLEST, "stateHash": bad}, question)
    assert verdict.status == "invalid" and "stateHash" in (verdict.reason or "")


def test_stale_answer_still_reports_its_cost(question: AgentInput) -> None:
    verdict = validate({**SMALLEST, "stateHash": "00000000", "costUsd": 0.02}, question)
    assert verdict.status == "stale" and verdict.cost_usd == 0.02 and verdict.hold is False


# --- rule 3: the choice -------------------------------------------------------------------------


def _invalid_because(verdict: Verdict, *fragments: str) -> None:
    assert verdict.status == "invalid", verdict
    assert verdict.placement is None and verdict.hold is False
    for fragment in fragments:
        assert fragment in (verdict.reason or ""), verdict.reason


def test_empty_choice(question: AgentInput) -> None:
    _invalid_because(validate(_answer(), question), "empty")


def test_missing_choice(question: AgentInput) -> None:
    _invalid_because(validate({"stateHash": HASH}, question), "choice", "missing")


@pytest.mark.parametrize("bad", [None, {"x": 3, "rotation": 0, "p": 1}, "3,0", 1])
def test_choice_not_a_list(question: AgentInput, bad: object) -> None:
    _invalid_because(validate({"stateHash": HASH, "choice": bad}, question), "choice")


def test_entry_not_an_object(question: AgentInput) -> None:
    answer = {"stateHash": HASH, "choice": [{"x": 3, "rotation": 0, "p": 0.5}, [8, 3, 0.5]]}
    _invalid_because(validate(answer, question), "choice[1]", "object")


def test_unlisted_placement(question: AgentInput) -> None:
    verdict = validate(_answer((3, 0, 0.5), (4, 0, 0.5)), question)
    _invalid_because(verdict, "choice[1]", "not a listed placement")


@pytest.mark.parametrize("p", [math.nan, math.inf, -math.inf, -0.1, 1.1, True, False, "1", None])
def test_bad_probability(question: AgentInput, p: object) -> None:
    _invalid_because(validate(_answer((3, 0, p)), question), "choice[0].p")


def test_bad_probability_names_its_entry(question: AgentInput) -> None:
    verdict = validate(_answer((3, 0, 0.5), (8, 3, 0.5), (2, 0, math.nan)), question)
    _invalid_because(verdict, "choice[2].p")


def test_missing_probability(question: AgentInput) -> None:
    answer = {"stateHash": HASH, "choice": [{"x": 3, "rotation": 0}]}
    _invalid_because(validate(answer, question), "choice[0].p")


@pytest.mark.parametrize("key", ["x", "rotation"])
@pytest.mark.parametrize("bad", [True, 0.5, "3", None, math.nan, [3]])
def test_bad_coordinate(question: AgentInput, key: str, bad: object) -> None:
    entry: dict[str, Any] = {"x": 3, "rotation": 0, "p": 1, key: bad}
    _invalid_because(validate({"stateHash": HASH, "choice": [entry]}, question), f"choice[0].{key}")


def test_integral_float_coordinates_count_as_integers(question: AgentInput) -> None:
    # JSON does not distinguish 3 from 3.0 (and JavaScript producers cannot).
    assert _played(validate(_answer((3.0, 0.0, 1)), question)) == (3, 0)


def test_duplicate_placements(question: AgentInput) -> None:
    verdict = validate(_answer((3, 0, 0.5), (8, 3, 0.25), (3, 0, 0.25)), question)
    _invalid_because(verdict, "choice[2]", "duplicate")


@pytest.mark.parametrize("off", [0.002, -0.002, 0.5])
def test_probabilities_must_sum_to_one(question: AgentInput, off: float) -> None:
    _invalid_because(validate(_answer((3, 0, 0.5), (8, 3, 0.5 + off)), question), "sum")


@pytest.mark.parametrize("off", [0.0009, -0.0009])
def test_probabilities_within_tolerance(question: AgentInput, off: float) -> None:
    verdict = validate(_answer((3, 0, 0.5 + off), (8, 3, 0.5)), question)
    assert verdict.status == "valid"


# --- rule 4: what is played ---------------------------------------------------------------------


def test_highest_probability_is_played(question: AgentInput) -> None:
    verdict = validate(_answer((3, 0, 0.2), (8, 3, 0.7), (2, 0, 0.1)), question)
    assert _played(verdict) == (8, 3)


def test_tie_goes_to_lower_x(question: AgentInput) -> None:
    # x decides before rotation: (1, 1) beats (2, 0).
    assert _played(validate(_answer((2, 0, 0.5), (1, 1, 0.5)), question)) == (1, 1)


def test_tie_on_x_goes_to_lower_rotation(question: AgentInput) -> None:
    verdict = validate(_answer((1, 1, 0.4), (1, 0, 0.4), (0, 0, 0.2)), question)
    assert _played(verdict) == (1, 0)


def test_zero_probability_entries_are_allowed(question: AgentInput) -> None:
    assert _played(validate(_answer((8, 3, 0), (3, 0, 1)), question)) == (3, 0)


# --- rule 5: optional fields --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("noul", "yes"),
        ("noul", {}),
        ("noul", {"hold": "true"}),
        ("noul", {"hold": math.nan}),
        ("noul", [True]),
        ("score", 0.1),
        ("score", {"risk": 1.5}),
        ("score", {"risk": -0.1}),
        ("score", {"risk": math.inf}),
        ("score", {"risk": True}),
        ("costUsd", -1),
        ("costUsd", "0.01"),
        ("costUsd", math.inf),
        ("costUsd", True),
        ("meta", [1, 2]),
        ("meta", "retries=0"),
        ("meta", {1: "not a string key"}),
    ],
)
def test_malformed_optional_field_is_dropped_with_a_note(
    question: AgentInput, key: str, value: object
) -> None:
    verdict = validate({**SMALLEST, key: value}, question)
    assert verdict.status == "valid" and _played(verdict) == (3, 0)
    assert verdict.hold is False
    assert (verdict.risk, verdict.cost_usd, verdict.meta) == (None, None, None)
    assert len(verdict.notes) == 1 and verdict.notes[0].startswith(f"{key} dropped")


def test_null_optional_fields_read_as_absent(question: AgentInput) -> None:
    answer = {**SMALLEST, "noul": None, "score": None, "costUsd": None, "meta": None}
    verdict = validate(answer, question)
    assert verdict.status == "valid" and verdict.notes == ()


def test_unknown_keys_are_ignored_with_a_note(question: AgentInput) -> None:
    verdict = validate({**SMALLEST, "candidate": "RM", "cost_usd": 0.1}, question)
    assert verdict.status == "valid" and _played(verdict) == (3, 0)
    assert len(verdict.notes) == 1
    assert "candidate" in verdict.notes[0] and "costUsd" in verdict.notes[0]


def test_many_unknown_keys_make_one_short_note(question: AgentInput) -> None:
    verdict = validate({**SMALLEST, **{f"k{i}": i for i in range(10_000)}}, question)
    assert verdict.status == "valid" and len(verdict.notes) == 1
    assert "+9995 more" in verdict.notes[0]


@pytest.mark.parametrize(
    ("hold", "expected"),
    [(0.3, False), (0.5, False), (0.7, True), (1, True), (True, True), (False, False), (7, True)],
)
def test_hold_values(question: AgentInput, hold: object, expected: bool) -> None:
    verdict = validate({**SMALLEST, "noul": {"hold": hold}}, question)
    assert verdict.status == "valid" and verdict.notes == ()
    assert verdict.hold is expected and _played(verdict) == (3, 0)


def test_well_formed_extras_are_kept(question: AgentInput) -> None:
    verdict = validate({**SMALLEST, "score": {"risk": 0}, "costUsd": 0, "meta": {}}, question)
    assert (verdict.risk, verdict.cost_usd, verdict.meta, verdict.notes) == (0.0, 0.0, {}, ())


# --- rule 6: hold when holding is unavailable ---------------------------------------------------


def test_hold_when_cannot_hold_is_ignored(question: AgentInput) -> None:
    no_hold = question.model_copy(update={"can_hold": False})
    verdict = validate({**SMALLEST, "noul": {"hold": True}}, no_hold)
    assert verdict.status == "valid" and _played(verdict) == (3, 0)
    assert verdict.hold is False
    assert len(verdict.notes) == 1 and "hold ignored" in verdict.notes[0]


def test_no_hold_request_needs_no_note_when_cannot_hold(question: AgentInput) -> None:
    no_hold = question.model_copy(update={"can_hold": False})
    verdict = validate({**SMALLEST, "noul": {"hold": 0.2}}, no_hold)
    assert verdict.notes == () and verdict.hold is False


# --- validate never raises ----------------------------------------------------------------------

FIELD_NAMES = ["stateHash", "choice", "noul", "score", "costUsd", "meta", "x", "rotation", "p"]
FIELD_NAMES += ["hold", "risk", "state_hash", "", "junk"]

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=10)
    | st.sampled_from([HASH, 0, 1, 3, 8, 0.5])
)
keys = st.sampled_from(FIELD_NAMES) | st.text(max_size=5)
json_values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=5) | st.dictionaries(keys, children, max_size=6),
    max_leaves=30,
)
entries = st.fixed_dictionaries(
    {},
    optional={
        "x": st.sampled_from([x for x, _ in LEGAL]) | json_values,
        "rotation": st.integers(0, 3) | json_values,
        "p": st.floats(0, 1) | json_values,
    },
)
near_valid_answers = st.fixed_dictionaries(
    {"stateHash": st.sampled_from([HASH, "00000000"]) | json_values},
    optional={
        "choice": st.lists(entries, max_size=4) | json_values,
        "noul": st.fixed_dictionaries({"hold": json_values}) | json_values,
        "score": st.fixed_dictionaries({"risk": json_values}) | json_values,
        "costUsd": json_values,
        "meta": json_values,
    },
)
answers = json_values | near_valid_answers


def _check_sane(verdict: Verdict, question: AgentInput) -> None:
    assert isinstance(verdict, Verdict)
    assert verdict.status in ("valid", "invalid", "stale")
    assert not (verdict.reason or "").startswith("internal error"), verdict.reason
    if verdict.usable:
        assert verdict.reason is None and verdict.placement in question.legal
    else:
        assert verdict.reason and verdict.placement is None and verdict.hold is False
    json.dumps(verdict.to_dict())  # loggable (NaN aside, which json allows)


@settings(max_examples=300)
@given(answer=answers)
def test_validate_never_raises_on_json_values(answer: object) -> None:
    question = QUESTION
    _check_sane(validate(answer, question), question)


@settings(max_examples=200)
@given(answer=near_valid_answers)
def test_text_and_object_forms_agree(answer: dict[str, Any]) -> None:
    question = QUESTION
    try:
        text = json.dumps(answer)
    except ValueError:  # ints too long for str(); the text form cannot exist
        return
    from_object, from_text = validate(answer, question), validate(text, question)
    _check_sane(from_text, question)
    assert (from_text.status, from_text.placement, from_text.hold) == (
        from_object.status,
        from_object.placement,
        from_object.hold,
    )


@given(text=st.text(max_size=50) | st.binary(max_size=50))
def test_validate_never_raises_on_arbitrary_text(text: str | bytes) -> None:
    question = QUESTION
    _check_sane(validate(text, question), question)

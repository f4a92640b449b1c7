"""NARCADE Tetris with primitive controls: the question, the validator, the game, the baselines."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_gym.tetris import engine as E
from arcade_gym.tetris.primitive_contract import (
    CONTROLS,
    TetrisControlAnswer,
    TetrisControlQuestion,
    control_order,
    validate,
)
from arcade_gym.tetris.primitive_game import TetrisControlGame
from policies.tetris.controls import (
    HeuristicTetrisControls,
    RandomTetrisControls,
    game_from_question,
)


def _question() -> TetrisControlQuestion:
    return TetrisControlGame(100, "medium").question()


# --- the question ------------------------------------------------------------------------------


def test_control_order_is_a_permutation_fixed_by_seed_and_decision() -> None:
    orders = [control_order(12345, d) for d in range(50)]
    assert all(sorted(o) == sorted(CONTROLS) for o in orders)
    assert orders == [control_order(12345, d) for d in range(50)]
    assert len({tuple(o) for o in orders}) > 10  # varies with the decision
    assert any(control_order(1, d) != control_order(2, d) for d in range(10))  # and the seed


def test_same_seed_and_controls_ask_identical_questions() -> None:
    games = [TetrisControlGame("seed-07", "easy") for _ in range(2)]
    for k in range(40):
        q1, q2 = (g.question() for g in games)
        assert q1 == q2
        assert q1.decision == k
        assert q1.actions == control_order(games[0].seed_u64, k)
        for g in games:
            g.step(CONTROLS[k % 6])


def test_question_describes_the_falling_piece_and_the_stack() -> None:
    q = _question()
    data = json.loads(q.to_json())
    assert data["game"] == "tetris" and data["rulesVersion"] == "0.4.0"
    assert len(q.board) == 20 and all(len(row) == 10 and set(row) <= {"#", "."} for row in q.board)
    assert (q.piece.x, q.piece.y, q.piece.rotation) == (3, -1, 0)
    assert len(q.piece.cells) == 4 and len(q.next) == 5
    assert q.level == 4 and q.gravity_ms == round(1000 * 0.8**4)  # medium starts at level 4


# --- the validator -----------------------------------------------------------------------------


def test_validate_reads_the_usual_answer_forms() -> None:
    q = _question()
    for answer in (
        TetrisControlAnswer(action="left"),
        {"action": "left"},
        '{"action": "left"}',
        "left",
        b"left",
        " LEFT ",
    ):
        verdict = validate(answer, q)
        assert verdict.usable and verdict.action == "left" and verdict.control == E.LEFT
    assert validate("Hard-Drop", q).action == "hard_drop"
    assert validate({"action": "left", "why": "x"}, q).notes


def test_validate_rejects_junk_with_a_reason() -> None:
    q = _question()
    for answer in ("hold", {"act": "left"}, 3, None, "{broken", {"action": ["left"]}, b"\xff"):
        verdict = validate(answer, q)
        assert verdict.status == "invalid" and verdict.reason


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
_junk = (
    _json
    | st.binary(max_size=40)
    | st.sampled_from(CONTROLS).map(lambda c: {"action": c.upper()})
    | st.builds(lambda v: {"action": v}, _json)
    | st.text(max_size=80).map(lambda t: json.dumps({"action": t}))
)


@settings(max_examples=300, deadline=None)
@given(_junk)
def test_validate_never_raises(answer: Any) -> None:
    verdict = validate(answer, _QUESTION)
    assert verdict.status in ("valid", "invalid")
    assert verdict.usable == (verdict.action in CONTROLS)


_QUESTION = _question()


# --- the game ----------------------------------------------------------------------------------


def test_lockstep_applies_the_control_then_one_gravity_row() -> None:
    game = TetrisControlGame(100, "easy")
    before = game.question().piece
    game.step("left")
    after = game.question().piece
    assert (after.x, after.y) == (before.x - 1, before.y + 1)
    game.step("hard_drop")
    assert game.pieces == 1 and game.question().piece.y == -1
    game.step(None)  # a bad answer: gravity only
    assert game.question().piece.y == 0 and game.decisions == 3


def test_realtime_gravity_follows_elapsed_time_and_discards_locked_answers() -> None:
    game = TetrisControlGame(100, "easy")  # level 0: a row per second
    outcome = game.step_realtime("left", 2500.0)
    assert outcome.rows_fallen == 2 and outcome.applied and not outcome.discarded
    assert game.question().piece.y == 1
    outcome = game.step_realtime("right", 60_000.0)
    assert outcome.locked_by_gravity and outcome.discarded and not outcome.applied
    assert game.pieces == 1 and game.decisions == 2


def test_caps_end_the_game_with_their_reason() -> None:
    game = TetrisControlGame(1, "easy", max_decisions=5)
    for _ in range(5):
        game.step("left")
    assert game.over and game.end_reason == "decision cap"
    game = TetrisControlGame(1, "easy", max_pieces=2)
    game.step("hard_drop")
    game.step("hard_drop")
    assert game.end_reason == "piece cap"
    game = TetrisControlGame(1, "easy")
    game.end_time_cap()
    assert game.end_reason == "time cap"


def test_classic_scoring_pays_lines_times_level_plus_one() -> None:
    policy = HeuristicTetrisControls()
    game = TetrisControlGame(100, "hard")  # level 9: a single is worth 400
    while game.lines == 0:
        game.step(policy.act(game.question()).action)
    assert game.score in (40 * 10, 100 * 10, 300 * 10, 1200 * 10)


# --- the baselines -----------------------------------------------------------------------------


def test_heuristic_controls_reach_the_planned_placement() -> None:
    policy = HeuristicTetrisControls()
    game = TetrisControlGame(7, "medium")
    for _ in range(6):
        question = game.question()
        planned = policy.plan(question)
        assert planned is not None
        x, rotation, _ = planned
        plan_game = game_from_question(question)
        index = plan_game.candidate_index(x, rotation)
        assert index is not None
        expected = plan_game.afterstate(index)
        pieces = game.pieces
        while game.pieces == pieces:
            answer = policy.act(game.question())
            assert answer.action in game.question().actions
            game.step(answer.action)
        assert (game.game.board != 0).tolist() == (expected != 0).tolist()


def test_heuristic_controls_clear_lines_and_beat_random() -> None:
    heuristic, random_policy = HeuristicTetrisControls(), RandomTetrisControls(3)
    results = {}
    for name, policy in (("heuristic", heuristic), ("random", random_policy)):
        game = TetrisControlGame(100, "medium", max_decisions=400)
        while not game.over:
            game.step(policy.act(game.question()).action)
        results[name] = (game.score, game.lines, game.end_reason)
    assert results["heuristic"][1] >= 20 and results["heuristic"][2] == "decision cap"
    assert results["heuristic"][0] > results["random"][0]


def test_random_controls_are_seeded_and_stateless() -> None:
    q = _question()
    assert RandomTetrisControls(5).act(q) == RandomTetrisControls(5).act(q)
    draws = {RandomTetrisControls(s).act(q).action for s in range(40)}
    assert draws == set(CONTROLS)

"""An answer is judged the same live and on replay: its recorded JSON form (`wire_answer`) reads
back (`read_answer`) to the judgement the raw answer gets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from arcade_gym.tictactoe.contract import (
    EngineReply,
    TicTacToeAnswer,
    TicTacToeQuestion,
    check_answer,
)
from evaluation.benchmarks.ttt_arena.answers import read_answer, wire_answer
from evaluation.benchmarks.ttt_arena.runner import run_arena
from evaluation.core.eventlog import from_jsonable, to_jsonable
from evaluation.core.grid import PolicyPool
from evaluation.core.verify import verify_paths
from policies.base import DecisionContext

QUESTION = TicTacToeQuestion(size=3, k=3, to_move="O", rows=("X..", "...", "..."))

ints = st.integers(min_value=-(2**70), max_value=2**70) | st.integers(-2, 4)
answers = st.one_of(
    st.text(max_size=12),
    st.from_regex(r"\s*-?[0-9]\s+-?[0-9]\s*", fullmatch=True),
    st.tuples(ints, ints),
    st.lists(ints, min_size=0, max_size=3),
    st.builds(TicTacToeAnswer, row=ints, col=ints),
    st.builds(
        EngineReply,
        output=st.text(max_size=8) | st.sampled_from(["0 1\n", "0 0", "2 2"]),
        error=st.none() | st.text(max_size=8),
        instructions=st.none() | st.integers(0, 10**9),
    ),
    st.none(),
    st.floats(allow_nan=True),
    st.booleans(),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
)


def recorded(answer: Any) -> Any:
    """What a replay hands the judge: the wire form through the log's JSON."""
    line = json.dumps(to_jsonable(wire_answer(answer, QUESTION)))
    return from_jsonable(json.loads(line))


@given(answers)
def test_the_recorded_form_is_judged_as_the_raw_answer(answer: Any) -> None:
    raw = check_answer(QUESTION, answer)
    live = read_answer(QUESTION, wire_answer(answer, QUESTION))
    replayed = read_answer(QUESTION, recorded(answer))
    assert (live.move, live.reason, live.instructions) == (raw.move, raw.reason, raw.instructions)
    assert replayed == live


class Unprintable:
    def __repr__(self) -> str:
        raise RuntimeError("no repr")


def test_hostile_answers_are_illegal_moves_with_a_reason() -> None:
    check = read_answer(QUESTION, recorded(Unprintable()))
    assert not check.legal and check.reason == "unreadable answer: RuntimeError"
    pair = read_answer(QUESTION, recorded((np.int64(1), np.int8(2))))
    assert pair.legal and pair.move == (1, 2)


class Hostile:
    """Cycles through answers of every shape, some legal."""

    slug = name = description = "hostile"
    kind = "engine"
    adapter_version = "1"

    def __init__(self) -> None:
        self.calls = 0

    def act(self, question: TicTacToeQuestion, ctx: DecisionContext) -> Any:
        self.calls += 1
        empty = next(
            (r, c) for r, row in enumerate(question.rows) for c, ch in enumerate(row) if ch == "."
        )
        shapes: list[Any] = [
            TicTacToeAnswer(row=empty[0], col=empty[1]),
            (np.int64(empty[0]), np.int64(empty[1])),
            [empty[0], empty[1]],
            EngineReply(output=f"{empty[0]} {empty[1]}\n", instructions=7),
            Unprintable(),
            float("nan"),
            {"row": empty[0], "col": empty[1]},
        ]
        return shapes[self.calls % len(shapes)]


def test_a_run_of_answers_of_every_shape_verifies(tmp_path: Path) -> None:
    run = run_arena(
        ["hostile"], PolicyPool(lambda _: Hostile()), tmp_path / "run", say=lambda _: None
    )
    report = run.reports[0]
    reasons = " ".join(i.reason for i in report.illegal_moves)
    assert "unreadable answer: RuntimeError" in reasons and "not a move" in reasons
    logs = verify_paths([tmp_path / "run" / "logs"])
    assert len(logs) == 212 and all(r.ok for r in logs), [r.line() for r in logs if not r.ok][:3]

"""The site's JavaScript Brainfuck interpreter and tic-tac-toe referee
(`evaluation/site/assets/brainfuck.js`, `evaluation/benchmarks/ttt_arena/assets/tictactoe-rules.js`)
held to the Python ones: identical output bytes, instruction counts and errors on a corpus
(`bf_corpus/`), on every stopping point of the limits, on the shipped arena entries answering arena
questions, and on random programs; identical position text, game outcomes and reply judgements. The
JS side runs in node (`bf_runner.js`)."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arcade_gym.tictactoe.contract import EngineReply, TicTacToeQuestion, check_answer
from arcade_gym.tictactoe.game import TicTacToeGame
from arcade_gym.tictactoe.rules import SIZES
from policies.engines.brainfuck.interpreter import run

NODE = shutil.which("node")
HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
CORPUS = HERE / "bf_corpus"
CASES = json.loads((CORPUS / "cases.json").read_text())
PY_LIMITS = {
    "maxInstructions": "max_instructions",
    "maxOutput": "max_output",
    "tapeSize": "tape_size",
}

pytestmark = pytest.mark.skipif(
    NODE is None, reason="node is not installed (Debian `nodejs`): the JS interpreter cannot run"
)


class NodeRunner:
    """One long-lived `bf_runner.js --lines` process: a case per line in, a result per line out."""

    def __init__(self) -> None:
        assert NODE is not None
        self.process = subprocess.Popen(
            [NODE, str(HERE / "bf_runner.js"), "--lines"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )

    def ask(self, case: dict[str, Any]) -> Any:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(case) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        assert line, "bf_runner.js exited"
        return json.loads(line)

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=10)


@pytest.fixture(scope="module")
def node() -> Iterator[NodeRunner]:
    runner = NodeRunner()
    yield runner
    runner.close()


def read_source(path: Path) -> str:
    """A program as the Python engine loads it: the file's bytes read as latin-1."""
    return path.read_bytes().decode("latin-1")


def python_run(source: str, data: str, limits: dict[str, int]) -> dict[str, Any]:
    result = run(
        source, data.encode("latin-1"), **{PY_LIMITS[key]: value for key, value in limits.items()}
    )
    return {
        "output": result.output,
        "instructions": result.instructions,
        "error": result.error,
        "errorKind": result.error_kind,
    }


def js_run(node: NodeRunner, source: str, data: str, limits: dict[str, int]) -> dict[str, Any]:
    result = node.ask({"kind": "bf", "source": source, "input": data, "limits": limits})
    result["output"] = result["output"].encode("latin-1")
    return dict(result)


def assert_same_run(
    node: NodeRunner, source: str, data: str = "", limits: dict[str, int] | None = None
) -> dict[str, Any]:
    limits = limits or {}
    expected = python_run(source, data, limits)
    assert js_run(node, source, data, limits) == expected, (source[:200], data, limits)
    return expected


# --- the corpus ----------------------------------------------------------------------------------


def corpus_cases() -> list[Any]:
    params = []
    for path in sorted(CORPUS.glob("*.bf")):
        for i, case in enumerate(CASES["programs"].get(path.name, [{}])):
            params.append(pytest.param(path.name, case, id=f"{path.stem}-{i}"))
    return params


@pytest.mark.parametrize(("program", "case"), corpus_cases())
def test_corpus_program_runs_as_in_python(
    node: NodeRunner, program: str, case: dict[str, Any]
) -> None:
    assert_same_run(node, read_source(CORPUS / program), case.get("input", ""), case.get("limits"))


def test_corpus_covers_every_outcome() -> None:
    """The corpus exercises success and each error kind, so the comparisons above mean something."""
    kinds = set()
    for path in CORPUS.glob("*.bf"):
        for case in CASES["programs"].get(path.name, [{}]):
            kinds.add(
                python_run(read_source(path), case.get("input", ""), case.get("limits", {}))[
                    "errorKind"
                ]
            )
    assert kinds == {None, "syntax", "tape", "limit", "output"}


def test_syntax_errors_name_the_bracket_line_and_column(node: NodeRunner) -> None:
    """Positions count characters of the latin-1 text (bytes of the file), lines from 1."""
    result = js_run(node, read_source(CORPUS / "unbalanced_unicode.bf"), "", {})
    assert result["error"] == "syntax error: unmatched '[' at position 61 (line 2, column 3)"
    assert (result["instructions"], result["output"], result["errorKind"]) == (0, b"", "syntax")
    assert js_run(node, "+]", "", {})["error"] == (
        "syntax error: unmatched ']' at position 1 (line 1, column 2)"
    )


@pytest.mark.parametrize(
    "program",
    [p.name for p in sorted(CORPUS.glob("*.bf")) if not p.name.startswith("unbalanced")],
)
def test_every_instruction_limit_stops_where_python_does(node: NodeRunner, program: str) -> None:
    """Each limit from 0 to one past the program's own count (capped), so every folded op is
    cut at every point of its span; and every small tape size, so every op meets the tape end."""
    source = read_source(CORPUS / program)
    data = "ab\x00c"
    total = python_run(source, data, {"maxInstructions": 3000})["instructions"]
    for limit in range(0, min(total, 3000) + 2):
        assert_same_run(node, source, data, {"maxInstructions": limit})
    for tape in range(1, 16):
        assert_same_run(node, source, data, {"tapeSize": tape, "maxInstructions": 100_000})


@pytest.mark.parametrize(
    ("source", "limits", "error_kind"),
    [
        (">" * 70_000, {}, "tape"),  # one folded move run crossing the right end of the real tape
        ("+[>+]", {}, "tape"),
        ("." * 65_536, {}, None),  # exactly the 64 KB output cap
        ("." * 65_537, {}, "output"),
        ("+[]", {}, "limit"),  # the real 100M limit, reached by a folded endless loop
        ("+" * 1000, {"maxInstructions": 999}, "limit"),
        ("+" * 1000, {"maxInstructions": 1000}, None),
        ("", {"maxInstructions": 0, "maxOutput": 0, "tapeSize": 1}, None),
    ],
    ids=[
        "move-run",
        "walk-right",
        "output-cap",
        "output-over",
        "endless",
        "limit",
        "at-limit",
        "empty",
    ],
)
def test_real_limits_match_python(
    node: NodeRunner, source: str, limits: dict[str, int], error_kind: str | None
) -> None:
    assert assert_same_run(node, source, "", limits)["errorKind"] == error_kind


@pytest.mark.parametrize(
    "limits", [{"maxInstructions": -1}, {"maxOutput": -1}, {"tapeSize": 0}], ids=str
)
def test_bad_limits_are_refused_as_in_python(node: NodeRunner, limits: dict[str, int]) -> None:
    with pytest.raises(ValueError, match="limits must be non-negative"):
        python_run("+", "", limits)
    found = node.ask({"kind": "bf", "source": "+", "input": "", "limits": limits})
    assert found == {
        "thrown": "RangeError",
        "message": "limits must be non-negative and the tape at least one cell",
    }


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES["slow"], ids=lambda c: f"{c['program']}-{c.get('limits')}")
def test_real_instruction_limit_on_a_general_loop(node: NodeRunner, case: dict[str, Any]) -> None:
    """100M executed instructions in a loop nothing folds: the same stop and count."""
    result = assert_same_run(node, read_source(CORPUS / case["program"]), "", case.get("limits"))
    assert result["errorKind"] == "limit"


# --- arena engines on arena questions ------------------------------------------------------------


def shipped_engines() -> list[Path]:
    """The example engine and every shipped arena entry."""
    return [
        REPO / "examples" / "first_empty.bf",
        *sorted(REPO.glob("seeds/arena/entries/*/engine.bf")),
    ]


def arena_questions(seed: int, per_size: int) -> list[str]:
    """Stdin texts of reachable positions: the empty board and random playouts on each size."""
    rng = np.random.default_rng(seed)
    texts = []
    for size in SIZES:
        texts.append(TicTacToeGame(size).question().to_text())
        found = 0
        while found < per_size:
            game = TicTacToeGame(size)
            for _ in range(int(rng.integers(1, size * size - 1))):
                game.play(int(rng.choice(game.legal_moves())))
                if game.over:
                    break
            if not game.over:
                texts.append(game.question().to_text())
                found += 1
    return texts


@pytest.mark.parametrize("engine", shipped_engines(), ids=lambda p: p.parent.name)
def test_shipped_engine_answers_arena_questions_as_in_python(
    node: NodeRunner, engine: Path
) -> None:
    source = read_source(engine)
    for text in [*arena_questions(seed=14, per_size=4), "", "garbage\n"]:
        assert_same_run(node, source, text)


# --- random programs ----------------------------------------------------------------------------

_straight = st.text(alphabet="+-<>.,", max_size=8)
_runs = st.builds(lambda ch, n: ch * n, st.sampled_from("+-<>"), st.integers(1, 300))
_comment = st.text(alphabet="ab \n\u00e9", max_size=3)
_balanced = st.recursive(
    st.one_of(_straight, _runs, _comment),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4).map("".join), inner.map(lambda body: f"[{body}]")
    ),
    max_leaves=24,
)
_programs = st.one_of(
    _balanced,
    _balanced.map(lambda s: s + "]"),
    st.tuples(_balanced, _balanced).map(lambda t: t[0] + "[" + t[1]),
)
_limits = st.fixed_dictionaries(
    {
        "maxInstructions": st.integers(0, 20_000),
        "maxOutput": st.integers(0, 64),
        "tapeSize": st.integers(1, 48),
    }
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(source=_programs, data=st.binary(max_size=12), limits=_limits)
def test_random_programs_run_as_in_python(
    node: NodeRunner, source: str, data: bytes, limits: dict[str, int]
) -> None:
    assert_same_run(node, source, data.decode("latin-1"), limits)


# --- the referee ---------------------------------------------------------------------------------


def python_game(size: int, cells: list[int]) -> list[dict[str, Any]]:
    game, steps = TicTacToeGame(size), []
    names = {0: "ongoing", 1: "win", 2: "draw"}
    for cell in cells:
        text = game.question().to_text()
        try:
            steps.append({"text": text, "outcome": names[game.play(cell)]})
        except ValueError as exc:
            steps.append({"text": text, "error": str(exc)})
            break
    return steps


@pytest.mark.parametrize("size", SIZES)
def test_positions_and_outcomes_match_python(node: NodeRunner, size: int) -> None:
    """Random games to the end (wins, draws), then a move on an occupied or off-board cell."""
    rng = np.random.default_rng(size)
    for game_no in range(40):
        order = rng.permutation(size * size).tolist()
        bad = order[0] if game_no % 2 else size * size + game_no
        cells = [*order[: int(rng.integers(1, size * size + 1))], bad]
        assert node.ask({"kind": "game", "size": size, "cells": cells}) == python_game(size, cells)


QUESTION = TicTacToeQuestion(size=3, k=3, to_move="O", rows=("X..", ".X.", "..."))


def python_check(question: TicTacToeQuestion, reply: dict[str, Any]) -> dict[str, Any]:
    check = check_answer(question, EngineReply(**reply))
    return {
        "move": None if not check.legal else list(check.move or ()),
        "reason": check.reason,
        "legal": check.legal,
        "instructions": check.instructions,
    }


def js_check(node: NodeRunner, question: TicTacToeQuestion, reply: dict[str, Any]) -> Any:
    wire = {
        "size": question.size,
        "k": question.k,
        "toMove": question.to_move,
        "rows": question.rows,
    }
    found = node.ask({"kind": "reply", "question": wire, "reply": reply})
    if not found["legal"]:
        found["move"] = None
    return found


REPLIES = [
    "0 1",
    "0 1\n",
    " 2\t2 \r\n",
    "\x1c1 0\x85",
    "\xa02 0\x0b",
    "00 01",
    "-0 2",
    "1 1",
    "3 0",
    "-1 2",
    "0 3",
    "99999999999999999999999 1",
    "1 1 1",
    "",
    "\n",
    "a b",
    "0,1",
    "01",
    "+1 0",
    "0 1x",
    'it\'s "2 2"',
    "it's 2 2",
    "back\\slash \x00\x7f\x80\xad\xff\xe9",
    "x" * 39,
    "y" * 40,
    "z" * 41,
    "0 0\n" * 20,
]


@pytest.mark.parametrize("output", REPLIES)
def test_reply_judgement_matches_python(node: NodeRunner, output: str) -> None:
    reply = {"output": output, "error": None, "instructions": 1234}
    assert js_check(node, QUESTION, reply) == python_check(QUESTION, reply)


def test_an_engine_error_is_an_illegal_move_whatever_it_printed(node: NodeRunner) -> None:
    error = "tape overflow: moved left of cell 0 at instruction 7"
    reply = {"output": "0 1", "error": error, "instructions": 7}
    found = js_check(node, QUESTION, reply)
    assert found == python_check(QUESTION, reply)
    assert found["reason"] == f"engine error: {error}"


@settings(max_examples=300, deadline=None)
@given(output=st.text(alphabet="0123456789 -\n\t\x85\xa0x", max_size=10))
def test_random_replies_are_judged_as_in_python(node: NodeRunner, output: str) -> None:
    reply = {"output": output, "error": None, "instructions": None}
    assert js_check(node, QUESTION, reply) == python_check(QUESTION, reply)

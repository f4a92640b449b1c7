"""The Brainfuck-to-WebAssembly engine (`evaluation/site/assets/bf-wasm.js`) held to the Python
interpreter, in node: identical output bytes, instruction counts and errors on the corpus
(`bf_corpus/`), at every stopping point of the instruction limit and every small tape, on the real
limits, on the shipped arena entries answering arena questions, and on random programs. A run that
ends well must have run as WebAssembly; a fault is a trap re-run on the interpreter. The same
engine in headless Chromium, in its Web Worker: `test_bf_wasm_browser.py`."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arcade_gym.tictactoe.game import TicTacToeGame
from tests.site.test_brainfuck_js import (
    CASES,
    CORPUS,
    HERE,
    REPO,
    python_run,
    read_source,
)

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(
    NODE is None, reason="node is not installed (Debian `nodejs`): no WebAssembly engine to run"
)
ENTRIES = REPO / "seeds" / "arena" / "entries"


class WasmRunner:
    """One long-lived `bf_wasm_runner.js` process: a case per line in, a result per line out."""

    def __init__(self) -> None:
        assert NODE is not None
        self.process = subprocess.Popen(
            [NODE, str(HERE / "bf_wasm_runner.js")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )

    def ask(self, source: str, data: str = "", limits: dict[str, int] | None = None) -> Any:
        assert self.process.stdin is not None and self.process.stdout is not None
        case = {"source": source, "input": data, "limits": limits or None}
        self.process.stdin.write(json.dumps(case) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        assert line, "bf_wasm_runner.js exited"
        return json.loads(line)

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=10)


@pytest.fixture(scope="module")
def wasm() -> Iterator[WasmRunner]:
    runner = WasmRunner()
    yield runner
    runner.close()


def assert_same_run(
    wasm: WasmRunner, source: str, data: str = "", limits: dict[str, int] | None = None
) -> dict[str, Any]:
    """The WebAssembly engine's run equals Python's; a clean run ran as WebAssembly, a fault was
    re-run on the interpreter (a syntax error never compiles)."""
    limits = limits or {}
    expected = python_run(source, data, limits)
    got = wasm.ask(source, data, limits)
    engine = got.pop("engine")
    got["output"] = got["output"].encode("latin-1")
    assert got == expected, (source[:200], data, limits)
    assert engine == ("wasm" if expected["error"] is None else "js"), (source[:200], limits)
    return expected


def corpus_cases() -> list[Any]:
    params = []
    for path in sorted(CORPUS.glob("*.bf")):
        for i, case in enumerate(CASES["programs"].get(path.name, [{}])):
            params.append(pytest.param(path.name, case, id=f"{path.stem}-{i}"))
    return params


@pytest.mark.parametrize(("program", "case"), corpus_cases())
def test_corpus_program_runs_as_in_python(
    wasm: WasmRunner, program: str, case: dict[str, Any]
) -> None:
    assert_same_run(wasm, read_source(CORPUS / program), case.get("input", ""), case.get("limits"))


@pytest.mark.parametrize(
    "program",
    [p.name for p in sorted(CORPUS.glob("*.bf")) if not p.name.startswith("unbalanced")],
)
def test_every_instruction_limit_stops_where_python_does(wasm: WasmRunner, program: str) -> None:
    """Each limit from 0 to one past the program's own count (capped): a limit checked only at
    back-edges and at the end must still give the interpreter's stopping point (by the re-run);
    and every small tape size, so every bounds check meets the tape end."""
    source = read_source(CORPUS / program)
    data = "ab\x00c"
    total = python_run(source, data, {"maxInstructions": 3000})["instructions"]
    for limit in range(0, min(total, 3000) + 2, 1 if total < 600 else 7):
        assert_same_run(wasm, source, data, {"maxInstructions": limit})
    for tape in range(1, 16):
        assert_same_run(wasm, source, data, {"tapeSize": tape, "maxInstructions": 100_000})


@pytest.mark.parametrize(
    ("source", "limits", "error_kind"),
    [
        (">" * 70_000, {}, "tape"),
        ("+[>+]", {}, "tape"),
        ("+[<+]", {}, "tape"),
        ("." * 65_536, {}, None),
        ("." * 65_537, {}, "output"),
        ("+[]", {}, "limit"),
        ("+[>+<++]", {}, "limit"),  # a multiply loop that never reaches 0
        ("++[>+<--]>[>+<-]+[[-]>]", {"tapeSize": 8}, None),
        ("+" * 1000, {"maxInstructions": 999}, "limit"),
        ("+" * 1000, {"maxInstructions": 1000}, None),
        ("", {"maxInstructions": 0, "maxOutput": 0, "tapeSize": 1}, None),
        ("+>+>+[<]", {}, "tape"),  # a scan loop off the left end
        ("+[>>>+]", {"tapeSize": 10}, "tape"),  # a strided scan off the right end
        ("-[>-[>" + "+" * 17 + "[>[-]+<-]<-]<-]", {}, None),  # general loops, 1.4 M steps
    ],
    ids=lambda value: str(value)[:24] if isinstance(value, str) else None,
)
def test_real_limits_match_python(
    wasm: WasmRunner, source: str, limits: dict[str, int], error_kind: str | None
) -> None:
    assert assert_same_run(wasm, source, "", limits)["errorKind"] == error_kind


@pytest.mark.parametrize("limits", [{"maxInstructions": -1}, {"maxOutput": -1}, {"tapeSize": 0}])
def test_bad_limits_are_refused(wasm: WasmRunner, limits: dict[str, int]) -> None:
    got = wasm.ask("+", "", limits)
    assert got["thrown"] == "RangeError" and "limits must be non-negative" in got["message"]


def arena_positions(size: int, games: int, seed: int) -> list[str]:
    """Position texts of random games on a `size` board (every position before each move)."""
    rng = np.random.default_rng(seed)
    texts = []
    for _ in range(games):
        game = TicTacToeGame(size)
        while not game.over:
            texts.append(game.question().to_text())
            empty = [c for c in range(size * size) if game.board.flat[c] == 0]
            game.play(int(rng.choice(empty)))
    return texts


@pytest.mark.parametrize("entry", sorted(p.name for p in ENTRIES.iterdir() if p.is_dir()))
def test_shipped_entries_answer_arena_questions_as_in_python(wasm: WasmRunner, entry: str) -> None:
    source = read_source(ENTRIES / entry / "engine.bf")
    for size, games in ((3, 3), (5, 1), (10, 1)):
        texts = arena_positions(size, games, seed=size)
        for text in texts[:: max(1, len(texts) // 8)]:
            assert_same_run(wasm, source, text)


COMMANDS = st.sampled_from([*"+-<>.,", "[", "]", "[-]", "[->+<]", "[>]", "[<<]"])


@st.composite
def programs(draw: st.DrawFn) -> str:
    """Balanced programs of folded and general loops (nested), the corner cases of both."""
    parts = draw(st.lists(COMMANDS, max_size=40))
    depth, out = 0, []
    for part in parts:
        if part == "]":
            if depth:
                out.append(part)
                depth -= 1
        else:
            out.append(part)
            depth += part == "["
    return "".join(out) + "]" * depth


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    source=programs(),
    data=st.text(alphabet=st.characters(max_codepoint=255), max_size=4),
    limit=st.integers(0, 4000),
    tape=st.integers(1, 12),
)
def test_random_programs_run_as_in_python(
    wasm: WasmRunner, source: str, data: str, limit: int, tape: int
) -> None:
    limits = {"maxInstructions": limit, "tapeSize": tape, "maxOutput": 8}
    assert_same_run(wasm, source, data, limits)

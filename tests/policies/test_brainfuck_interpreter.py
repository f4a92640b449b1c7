"""The optimising Brainfuck runtime agrees with the naive reference: same output, same instruction
count, same error, on a corpus of hand-picked programs and on random bracket-balanced ones."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from policies.engines.brainfuck.interpreter import (
    OP_BLOCK,
    OP_CLEAR,
    OP_MUL,
    OP_SCAN,
    TAPE_SIZE,
    BFResult,
    compile_program,
    run,
)
from policies.engines.brainfuck.reference import run_naive

HELLO = (
    "++++++++[>++++[>++>+++>+++>+<<<<-]>+>+>->>+[<]<-]>>.>---.+++++++..+++.>>.<-.<.+++.------."
    "--------.>>+.>++."
)
NESTED = "++++[>++++[>++++[>+++[-]<-]<-]<-]>>>>++++++[<++++++++>-]<."
BENCH = (
    ">++[<+++++++++++++>-]<[[>+>+<<-]>[<+>-]++++++++[>++++++++<-]>.[-]<<>++++++++++[>+++"
    "+++++++[-]<-]<-]++++++++++."
)

CORPUS: dict[str, tuple[str, bytes]] = {
    "hello world": (HELLO, b""),
    "nested loops": (NESTED, b""),
    "classic bench, small": (BENCH, b""),
    "clear loop on zero": ("[-]+.", b""),
    "clear loop on non-zero": ("+++++[-].", b""),
    "clear loop upwards": ("+++[+].", b""),
    "clear loop with odd stride": ("+++[---].", b""),
    "clear loop never ending (even stride)": ("+++[--]", b""),
    "clear loop ending (even stride)": ("++++[--]+.", b""),
    "empty loop on zero": ("[]+.", b""),
    "empty loop spins": ("+[]", b""),
    "scan right to zero": ("+>+>+>>+<<<<[>].", b""),
    "scan left to zero": (">>+>+>+[<]+.", b""),
    "scan with stride 2": ("+>>+>>+>+<<<<<<[>>]+.", b""),
    "scan with stride 3 left": (">>>>>>>+<<<+<<<+[<<<]+.", b""),
    "scan off the left end": ("+>+>+[<]", b""),
    "scan off the right end": ("+[>+]", b""),
    "multiply loop, one target": ("+++++[->+++<]>.", b""),
    "multiply loop, several targets and negative factors": (
        "++++++[->++>---<<+>>>+++++<<<-]>.>.>.",
        b"",
    ),
    "multiply loop, origin counting up": ("+++[+>++<]>.", b""),
    "multiply loop, odd origin stride": ("+++[--->+<]>.", b""),
    "multiply loop on zero": ("[->+<]>+.", b""),
    "multiply loop with wrapping excursion": ("+++[->>>+<<+<-<]>>>.", b""),
    "multiply loop never ending": ("++[-->+<]", b""),
    "multiply loop off the left end": ("+[-<+>]", b""),
    "multiply loop off the left end on zero": ("[-<+>]+.", b""),
    "copy loop": ("+++++++[->+>+<<]>>[-<<+>>]<<.>.", b""),
    "straight line of several runs": ("+++>>--<+<<-.>>.>.", b""),
    "straight line off the left end": (">+<<+", b""),
    "straight line off the right end": ("+[>>+<+]", b""),
    "wrapping arithmetic": ("-.+.--.", b""),
    "wrapping run": ("+" * 300 + ".", b""),
    "echo until EOF": (",[.,]", b"hello"),
    "EOF reads 0": (",.,.,.", b"a"),
    "EOF overwrites the cell": ("+++,.", b""),
    "output limit": ("+[.]", b""),
    "tape underflow": ("<", b""),
    "tape underflow after work": ("++[>+<-]>>-<<<", b""),
    "tape underflow in a run": (">>><<<<<+", b""),
    "tape overflow at the right end": ("+[>+]", b""),
    "tape overflow in a run": ("+[>>>>>>>>+]", b""),
    "unmatched open": ("+[[-]", b""),
    "unmatched close": ("+\n-]", b""),
    "comments only": ("hello world", b""),
    "cancelling run": ("+-+-<>><.", b""),
}


def assert_same(
    source: str, data: bytes, *, max_instructions: int, max_output: int, tape_size: int
) -> BFResult:
    fast = run(
        source, data, max_instructions=max_instructions, max_output=max_output, tape_size=tape_size
    )
    slow = run_naive(
        source, data, max_instructions=max_instructions, max_output=max_output, tape_size=tape_size
    )
    assert fast == slow
    return fast


@pytest.mark.parametrize("name", list(CORPUS))
def test_corpus_matches_the_naive_interpreter(name: str) -> None:
    source, data = CORPUS[name]
    assert_same(source, data, max_instructions=2_000_000, max_output=64, tape_size=TAPE_SIZE)


@pytest.mark.parametrize("name", list(CORPUS))
def test_corpus_matches_the_naive_interpreter_at_every_small_limit(name: str) -> None:
    source, data = CORPUS[name]
    for limit in range(0, 120):
        assert_same(source, data, max_instructions=limit, max_output=8, tape_size=12)


def test_hello_world_prints_and_counts() -> None:
    result = run(HELLO)
    assert result.output == b"Hello World!\n"
    assert result.error is None
    assert result.instructions == run_naive(HELLO).instructions


def test_the_limit_is_exact_at_and_one_past() -> None:
    source = "+++++[->++<]>[-]<++++++++++[>++++++++++<-]"
    total = run_naive(source).instructions
    at = run(source, max_instructions=total)
    assert at.error is None and at.instructions == total
    past = run(source, max_instructions=total - 1)
    assert past.error_kind == "limit"
    assert past.instructions == total - 1
    assert past == run_naive(source, max_instructions=total - 1)


@pytest.mark.parametrize(
    ("source", "kind", "message"),
    [
        ("<", "tape", "tape overflow: moved left of cell 0 at instruction 1"),
        ("+[>+]", "tape", "tape overflow: moved right of cell 65,535 at instruction 196,608"),
        ("+[]", "limit", "instruction limit exceeded: 1,000 instructions executed"),
        ("+[.]", "output", "output limit exceeded: more than 4 bytes at instruction 11"),
        ("+[[-]", "syntax", "syntax error: unmatched '[' at position 1 (line 1, column 2)"),
        ("+\n -]", "syntax", "syntax error: unmatched ']' at position 4 (line 2, column 3)"),
    ],
)
def test_errors_are_named_exactly(source: str, kind: str, message: str) -> None:
    limit = 1000 if kind == "limit" else 10**6
    result = run(source, max_instructions=limit, max_output=4)
    assert (result.error_kind, result.error) == (kind, message)
    assert result == run_naive(source, max_instructions=limit, max_output=4)


def test_folded_patterns_are_recognised() -> None:
    ops = compile_program("[-][+][>][<<][->+<][->++>---<<][]>>+<<-").ops[:, 0].tolist()
    assert ops == [OP_CLEAR, OP_CLEAR, OP_SCAN, OP_SCAN, OP_MUL, OP_MUL, OP_CLEAR, OP_BLOCK]


def test_clear_loop_counts_two_per_iteration_plus_entry() -> None:
    assert run("[-]").instructions == 1
    assert run("+++++[-]").instructions == 5 + 1 + 2 * 5


def test_long_runs_cross_the_limit_exactly() -> None:
    source = "+" * 1000 + ">" * 1000 + "[-]"
    for limit in (999, 1000, 1500, 1999, 2000, 2001):
        assert_same(source, b"", max_instructions=limit, max_output=0, tape_size=TAPE_SIZE)


def test_folded_loops_cross_the_limit_exactly() -> None:
    source = "+" * 200 + "[->+>++<<]>[>]>[-]" + "-" * 8 + "[--]"
    total = run_naive(source, max_instructions=10**6).instructions
    for limit in range(195, total + 3):
        assert_same(source, b"", max_instructions=limit, max_output=0, tape_size=64)


# --- random programs ----------------------------------------------------------------------------

_ATOMS = st.sampled_from(
    [
        *("+", "-", ">", "<", ".", ",", "+++", "---", ">>", "<<", "[]", "x"),
        *("[-]", "[+]", "[--]", "[---]", "[>]", "[<]", "[>>]", "[<<]"),
        *("[->+<]", "[->++>---<<]", "[-<+>]", "[+>-<]", "[--->+<]", "[->>+<+<]"),
    ]
)


def _program(depth: int = 3) -> st.SearchStrategy[str]:
    return st.recursive(
        st.lists(_ATOMS, max_size=6).map("".join),
        lambda inner: st.lists(inner | inner.map(lambda body: f"[{body}]"), max_size=4).map(
            "".join
        ),
        max_leaves=depth * 8,
    )


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    source=_program(),
    data=st.binary(max_size=6),
    limit=st.integers(0, 3000),
    max_output=st.integers(0, 12),
    tape_size=st.integers(1, 24),
)
def test_random_programs_match_the_naive_interpreter(
    source: str, data: bytes, limit: int, max_output: int, tape_size: int
) -> None:
    assert_same(source, data, max_instructions=limit, max_output=max_output, tape_size=tape_size)


@settings(max_examples=200, deadline=None)
@given(
    prefix=st.lists(st.sampled_from(["+", "-", ">", "<", "++++", ">>>"]), max_size=30).map("".join),
    source=_program(),
    limit=st.integers(0, 400),
)
def test_random_programs_match_on_a_prepared_tape(prefix: str, source: str, limit: int) -> None:
    assert_same(prefix + source, b"\x03\xfe", max_instructions=limit, max_output=6, tape_size=16)

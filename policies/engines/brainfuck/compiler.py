"""The Brainfuck compiler: source text to the op list the kernel runs (`opcodes.py` lists the op
set), folding runs, straight lines and simple loops while keeping the source commands for the
kernel's exact fallbacks.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from policies.engines.brainfuck.opcodes import (
    C_IN,
    C_LEFT,
    C_MINUS,
    C_OPEN,
    C_OUT,
    C_PLUS,
    C_RIGHT,
    COMMANDS,
    F_JMP,
    F_OP,
    N_FIELDS,
    OP_ADD,
    OP_BLOCK,
    OP_CLEAR,
    OP_IN,
    OP_JNZ,
    OP_JZ,
    OP_MOVE,
    OP_MUL,
    OP_NAMES,
    OP_OUT,
    OP_SCAN,
)


@dataclass(frozen=True, eq=False)
class Program:
    """A compiled program: the op list for the kernel and the raw commands for exact fallbacks.

    `error` holds the syntax error when the source does not parse (the arrays are then empty).
    """

    ops: np.ndarray  # int64 (n_ops, N_FIELDS)
    targets: np.ndarray  # int64 (n_targets, 2): (offset, factor mod 256) of MUL / BLOCK ops
    code: np.ndarray  # uint8 source commands C_*
    match: np.ndarray  # int64 partner command index of each bracket
    source_chars: int
    error: str | None = None
    compile_s: float = field(default=0.0, compare=False)

    @property
    def commands(self) -> int:
        """Number of Brainfuck commands in the source."""
        return int(self.code.shape[0])

    def op_counts(self) -> dict[str, int]:
        """How many ops of each kind the compiler emitted (for reports and tests)."""
        kinds = np.bincount(self.ops[:, F_OP], minlength=len(OP_NAMES)).tolist()
        return {name: n for name, n in zip(OP_NAMES, kinds, strict=True) if n}


# --- messages (shared with the reference interpreter, so errors compare exactly) ----------------


def syntax_error_message(source: str, position: int, bracket: str) -> str:
    """`syntax error: unmatched '[' at position 12 (line 2, column 5)`; position counts
    characters of the source from 0."""
    line = source.count("\n", 0, position) + 1
    column = position - (source.rfind("\n", 0, position) + 1) + 1
    return (
        f"syntax error: unmatched '{bracket}' at position {position} (line {line}, column {column})"
    )


_LUT = np.full(256, 255, np.uint8)
for _i, _ch in enumerate(COMMANDS):
    _LUT[ord(_ch)] = _i


def _commands(source: str) -> tuple[np.ndarray, np.ndarray]:
    """The command codes and their character positions in `source`."""
    points = np.frombuffer(source.encode("utf-32-le"), dtype=np.uint32)
    codes = np.where(points < 256, _LUT[points & 255], 255).astype(np.uint8)
    positions = np.flatnonzero(codes != 255)
    return codes[positions], positions


def _match_brackets(source: str, code: np.ndarray, positions: np.ndarray) -> np.ndarray | str:
    """Partner index of every bracket, or the syntax error naming the first unmatched one."""
    match = np.full(code.shape[0], -1, np.int64)
    stack: list[int] = []
    brackets = np.flatnonzero(code >= C_OPEN).tolist()
    kinds = code[brackets].tolist()
    for index, kind in zip(brackets, kinds, strict=True):
        if kind == C_OPEN:
            stack.append(index)
        elif stack:
            opening = stack.pop()
            match[opening] = index
            match[index] = opening
        else:
            return syntax_error_message(source, int(positions[index]), "]")
    if stack:
        return syntax_error_message(source, int(positions[stack[0]]), "[")
    return match


LoopShape = tuple[int, int, int, int, tuple[tuple[int, int], ...]]
"""(opcode, argument, lowest offset, highest offset, MUL targets) of a foldable loop body."""


@lru_cache(maxsize=4096)
def _loop_shape(body: bytes) -> LoopShape | None:
    """How a loop whose body has only `+-<>` folds (generated engines repeat the same few
    bodies thousands of times, hence the cache), or None when it stays a general loop."""
    if not body:  # `[]`: skipped on 0, else spins until the limit (a CLEAR that never ends)
        return OP_CLEAR, 0, 0, 0, ()
    moves = body.count(C_RIGHT) + body.count(C_LEFT)
    if moves == len(body):  # a scan: all moves, one direction
        if body.count(body[0]) == len(body):
            return OP_SCAN, len(body) if body[0] == C_RIGHT else -len(body), 0, 0, ()
        return None
    offset, lo, hi, _, adds = _block_shape(body)
    if offset != 0:
        return None
    origin = dict(adds).get(0, 0)
    if not moves:
        return OP_CLEAR, origin, 0, 0, ()
    moved = tuple((o, f) for o, f in adds if o != 0)
    return OP_MUL, origin, lo, hi, moved


@lru_cache(maxsize=4096)
def _block_shape(line: bytes) -> tuple[int, int, int, int, tuple[tuple[int, int], ...]]:
    """(net move, lowest offset, highest offset, cost, adds) of a straight line of `+-<>`."""
    offset = lo = hi = 0
    delta: dict[int, int] = {}
    for c in line:
        if c == C_RIGHT:
            offset += 1
            hi = max(hi, offset)
        elif c == C_LEFT:
            offset -= 1
            lo = min(lo, offset)
        else:
            delta[offset] = delta.get(offset, 0) + (1 if c == C_PLUS else -1)
    adds = tuple((o, f % 256) for o, f in sorted(delta.items()) if f % 256)
    return offset, lo, hi, len(line), adds


def compile_program(source: str | bytes) -> Program:
    """Parse and optimise `source` (bytes are read as latin-1). A syntax error does not raise: it
    is kept in `Program.error` so an engine can report it on every move."""
    t0 = time.perf_counter()
    text = source.decode("latin-1") if isinstance(source, bytes) else source
    code, positions = _commands(text)
    matched = _match_brackets(text, code, positions)
    if isinstance(matched, str):
        return Program(
            ops=np.zeros((0, N_FIELDS), np.int64),
            targets=np.zeros((0, 2), np.int64),
            code=np.zeros(0, np.uint8),
            match=np.zeros(0, np.int64),
            source_chars=len(text),
            error=matched,
            compile_s=time.perf_counter() - t0,
        )
    n = code.shape[0]
    # Runs: `+`/`-` mixed, `>` or `<` alone; I/O and brackets are runs of one.
    cls = np.where(code == C_MINUS, C_PLUS, code)
    starts = np.ones(n, bool)
    starts[1:] = (cls[1:] != cls[:-1]) | (code[1:] >= C_OUT)
    first = np.flatnonzero(starts)
    ends = np.append(first[1:], n)[: first.shape[0]]
    run_end: list[int] = np.repeat(ends, ends - first).tolist()
    net: list[int] = np.concatenate(
        ([0], np.cumsum((code == C_PLUS).astype(np.int64) - (code == C_MINUS)))
    ).tolist()
    # Prefix count of I/O and bracket commands: a loop with none inside is an innermost candidate.
    is_special = code >= C_OUT
    special: list[int] = np.concatenate(([0], np.cumsum(is_special))).tolist()
    # End of each straight-line stretch of `+-<>` (the next I/O or bracket command).
    stops = np.append(np.flatnonzero(is_special), n)
    line_end: list[int] = stops[np.searchsorted(stops, np.arange(n))].tolist()
    cmds: list[int] = code.tolist()
    partner: list[int] = matched.tolist()
    raw = code.tobytes()
    # Op rows go flat into one list of ints, in field order (op, a, t0, jmp, cost, s0, s1, lo,
    # hi): millions of small row lists would keep the garbage collector busy.
    ops: list[int] = []
    targets: list[tuple[int, int]] = []
    open_ops: list[int] = []
    i = 0
    while i < n:
        c = cmds[i]
        if c <= C_LEFT and run_end[i] < line_end[i]:  # several runs: one BLOCK
            j = line_end[i]
            move, lo, hi, cost, moved = _block_shape(raw[i:j])
            ops += (OP_BLOCK, move, len(targets), len(moved), cost, i, j, lo, hi)
            targets.extend(moved)
            i = j
        elif c <= C_MINUS:
            j = run_end[i]
            ops += (OP_ADD, (net[j] - net[i]) % 256, 0, 0, j - i, i, j, 0, 0)
            i = j
        elif c <= C_LEFT:
            j = run_end[i]
            ops += (OP_MOVE, j - i if c == C_RIGHT else i - j, 0, 0, j - i, i, j, 0, 0)
            i = j
        elif c == C_OUT:
            ops += (OP_OUT, 0, 0, 0, 1, i, i + 1, 0, 0)
            i += 1
        elif c == C_IN:
            ops += (OP_IN, 0, 0, 0, 1, i, i + 1, 0, 0)
            i += 1
        elif c == C_OPEN:
            j = partner[i]
            shape = _loop_shape(raw[i + 1 : j]) if special[j] == special[i + 1] else None
            if shape is not None:
                kind, arg, lo, hi, moved = shape
                # cost per iteration: the body and its `]`; MUL: targets (first, count), reach
                ops += (kind, arg, len(targets), len(moved), j - i, i, j + 1, lo, hi)
                targets.extend(moved)
                i = j + 1
            else:
                open_ops.append(len(ops) // N_FIELDS)
                ops += (OP_JZ, 0, 0, 0, 1, i, j + 1, 0, 0)  # F_JMP is set at the `]`
                i += 1
        else:
            opening = open_ops.pop()
            ops[opening * N_FIELDS + F_JMP] = len(ops) // N_FIELDS + 1
            ops += (OP_JNZ, 0, 0, opening + 1, 1, partner[i], i + 1, 0, 0)
            i += 1
    return Program(
        ops=np.array(ops, np.int64).reshape(-1, N_FIELDS),
        targets=np.array(targets, np.int64).reshape(-1, 2),
        code=code,
        match=matched,
        source_chars=len(text),
        compile_s=time.perf_counter() - t0,
    )

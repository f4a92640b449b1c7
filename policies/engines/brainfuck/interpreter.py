"""The arena's Brainfuck runtime: an optimising compiler to an op list and a numba kernel that
counts exactly what a naive interpreter would execute.

Machine (seed `003`): 8-bit wrapping cells, a 65,536-cell tape (moving off either end is an error),
EOF reads 0, 100,000,000 executed instructions per move, at most 64 KB of output.

Counting rule: every command counts 1, `[` once per entry, `]` once per iteration (a taken `]`
jumps to the command *after* its `[`). A fault is reported at the instruction that faults, which
is counted (the n-th executed instruction moved off the tape / wrote the byte past the limit); the
instruction limit stops *before* the first instruction past it, so a program of exactly
`max_instructions` instructions succeeds and `instructions` never exceeds the limit.

Op set (one row of `Program.ops` each; `c` is the per-iteration naive cost = body commands + 1 for
its `]`, `k` the iteration count):

- `ADD a` (a run of `+`/`-`, net a mod 256): costs the run length;
- `MOVE d` (a run of identical `>` or `<`): costs |d|;
- `BLOCK d, adds` (a straight line of `+-<>` of several runs, `>>+<<-`): cell[p + o] += f for
  every add (o, f), then p += d; costs its length;
- `OUT`, `IN`: 1 each;
- `JZ` / `JNZ` (a general loop's `[` / `]`): 1 each time executed;
- `CLEAR d` (`[-]`, `[+]`, `[---]`, `[]`...: body of `+`/`-` only, net d per iteration): 1 when the
  cell is 0, else 1 + k*c where k is the first k with v + k*d = 0 (mod 256) (`[-]` on v: 1 + 2v);
  no such k (even d, or `[]`) is an endless loop, i.e. an instruction-limit error;
- `MUL d, targets` (a balanced loop of `+-<>` whose origin changes by d per iteration,
  `[->+>++<<]`): cell[p + o] += k*f for every target (o, f), origin set to 0, cost 1 + k*c
  (1 on a zero cell);
- `SCAN s` (`[>]`, `[<<]`: body of s identical moves): n steps to the first zero cell, cost
  1 + n*c.

Any folded op that would cross the instruction limit, or touch a cell off the tape, re-runs its
own span of source commands on a naive sub-interpreter inside the kernel, so the stopping point,
the count and the error are exactly the naive ones.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

import numpy as np
from numba import njit

TAPE_SIZE = 65_536
MAX_INSTRUCTIONS = 100_000_000
MAX_OUTPUT = 65_536

ErrorKind = Literal["syntax", "tape", "limit", "output"]

# --- command codes (source commands, after dropping comments) -----------------------------------
C_PLUS = 0
C_MINUS = 1
C_RIGHT = 2
C_LEFT = 3
C_OUT = 4
C_IN = 5
C_OPEN = 6
C_CLOSE = 7
COMMANDS = "+-><.,[]"

# --- opcodes and op fields ----------------------------------------------------------------------
OP_ADD = 0
OP_MOVE = 1
OP_JZ = 2
OP_JNZ = 3
OP_OUT = 4
OP_IN = 5
OP_CLEAR = 6
OP_MUL = 7
OP_SCAN = 8
OP_BLOCK = 9
OP_NAMES = ("ADD", "MOVE", "JZ", "JNZ", "OUT", "IN", "CLEAR", "MUL", "SCAN", "BLOCK")

F_OP = 0  # opcode
F_A = 1  # ADD: delta mod 256; MOVE/BLOCK: signed move; CLEAR/MUL: origin delta; SCAN: stride
F_T0 = 2  # MUL/BLOCK: first row in `targets`
F_JMP = 3  # JZ/JNZ: op index to continue at when the jump is taken; MUL/BLOCK: number of targets
F_COST = 4  # ADD/MOVE/BLOCK: naive count; CLEAR/MUL/SCAN: naive count per iteration (body + `]`)
F_S0 = 5  # first source command of the op (index into `Program.code`)
F_S1 = 6  # one past its last source command
F_LO = 7  # MUL/BLOCK: lowest pointer offset the body reaches
F_HI = 8  # MUL/BLOCK: highest pointer offset the body reaches
N_FIELDS = 9

# --- kernel status codes ------------------------------------------------------------------------
ST_OK = 0
ST_TAPE_LEFT = 1
ST_TAPE_RIGHT = 2
ST_LIMIT = 3
ST_OUTPUT = 4


def _iteration_table() -> np.ndarray:
    """`K[d, v]`: iterations until a cell at v that changes by d per iteration first reads 0
    (-1 when it never does)."""
    table = np.full((256, 256), -1, np.int16)
    ds = np.arange(256)
    for k in range(255, -1, -1):  # descending, so the smallest k is written last
        table[ds, (-k * ds) % 256] = k
    return table


ITERATIONS = _iteration_table()


@dataclass(frozen=True)
class BFResult:
    """One run: raw output bytes, executed instructions (naive count), and the exact error."""

    output: bytes
    instructions: int
    error: str | None = None
    error_kind: ErrorKind | None = None

    @property
    def ok(self) -> bool:
        """No error."""
        return self.error is None


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


def runtime_error(
    status: int, instructions: int, tape_size: int, max_output: int
) -> tuple[str, ErrorKind]:
    """The message and kind of a kernel status (not ST_OK)."""
    if status == ST_TAPE_LEFT:
        return f"tape overflow: moved left of cell 0 at instruction {instructions:,}", "tape"
    if status == ST_TAPE_RIGHT:
        return (
            f"tape overflow: moved right of cell {tape_size - 1:,} at instruction {instructions:,}",
            "tape",
        )
    if status == ST_LIMIT:
        return f"instruction limit exceeded: {instructions:,} instructions executed", "limit"
    if status == ST_OUTPUT:
        return (
            f"output limit exceeded: more than {max_output:,} bytes at instruction "
            f"{instructions:,}",
            "output",
        )
    raise ValueError(f"not an error status: {status}")


# --- compiler -----------------------------------------------------------------------------------

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


# --- kernels ------------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _naive_span(code, match, s0, s1, tape, p, count, limit, inp, ip, out, olen):
    """Run source commands s0..s1 one at a time, exactly as the naive interpreter does.

    Returns (status, pointer, count, input position, output length)."""
    size = tape.shape[0]
    n_in = inp.shape[0]
    max_out = out.shape[0]
    pc = s0
    while pc < s1:
        if count >= limit:
            return ST_LIMIT, p, count, ip, olen
        count += 1
        c = code[pc]
        if c == C_PLUS:
            tape[p] = (np.int64(tape[p]) + 1) & 255
        elif c == C_MINUS:
            tape[p] = (np.int64(tape[p]) + 255) & 255
        elif c == C_RIGHT:
            p += 1
            if p >= size:
                return ST_TAPE_RIGHT, p, count, ip, olen
        elif c == C_LEFT:
            p -= 1
            if p < 0:
                return ST_TAPE_LEFT, p, count, ip, olen
        elif c == C_OUT:
            if olen >= max_out:
                return ST_OUTPUT, p, count, ip, olen
            out[olen] = tape[p]
            olen += 1
        elif c == C_IN:
            if ip < n_in:
                tape[p] = inp[ip]
                ip += 1
            else:
                tape[p] = 0
        elif c == C_OPEN:
            if tape[p] == 0:
                pc = match[pc]
        elif tape[p] != 0:
            pc = match[pc]
        pc += 1
    return ST_OK, p, count, ip, olen


@njit(cache=True, nogil=True)
def execute(ops, targets, code, match, ktab, tape, inp, out, limit):
    """Run the op list on `tape` from cell 0 with input `inp`, writing into `out` (its length is
    the output limit). Returns (status, instructions, output length)."""
    n = ops.shape[0]
    size = tape.shape[0]
    n_in = inp.shape[0]
    max_out = out.shape[0]
    pc = 0
    p = 0
    count = np.int64(0)
    ip = 0
    olen = 0
    while pc < n:
        op = ops[pc, F_OP]
        fallback = False
        if op == OP_ADD:
            cost = ops[pc, F_COST]
            if count + cost > limit:
                fallback = True
            else:
                tape[p] = (np.int64(tape[p]) + ops[pc, F_A]) & 255
                count += cost
                pc += 1
        elif op == OP_MOVE:
            cost = ops[pc, F_COST]
            q = p + ops[pc, F_A]
            if q < 0 or q >= size or count + cost > limit:
                fallback = True
            else:
                p = q
                count += cost
                pc += 1
        elif op == OP_BLOCK:
            cost = ops[pc, F_COST]
            if p + ops[pc, F_LO] < 0 or p + ops[pc, F_HI] >= size or count + cost > limit:
                fallback = True
            else:
                t0 = ops[pc, F_T0]
                for t in range(t0, t0 + ops[pc, F_JMP]):
                    q = p + targets[t, 0]
                    tape[q] = (np.int64(tape[q]) + targets[t, 1]) & 255
                p += ops[pc, F_A]
                count += cost
                pc += 1
        elif op == OP_JNZ:
            if count >= limit:
                return ST_LIMIT, count, olen
            count += 1
            if tape[p] != 0:
                pc = ops[pc, F_JMP]
            else:
                pc += 1
        elif op == OP_JZ:
            if count >= limit:
                return ST_LIMIT, count, olen
            count += 1
            if tape[p] == 0:
                pc = ops[pc, F_JMP]
            else:
                pc += 1
        elif op == OP_CLEAR:
            v = np.int64(tape[p])
            k = np.int64(ktab[ops[pc, F_A], v])
            if k < 0:  # never reaches 0: the naive interpreter spins until the limit
                return ST_LIMIT, limit, olen
            total = 1 + k * ops[pc, F_COST]
            if count + total > limit:
                fallback = True
            else:
                tape[p] = 0
                count += total
                pc += 1
        elif op == OP_MUL:
            v = np.int64(tape[p])
            if v == 0:
                if count >= limit:
                    return ST_LIMIT, count, olen
                count += 1
                pc += 1
            else:
                k = np.int64(ktab[ops[pc, F_A], v])
                total = 1 + k * ops[pc, F_COST]
                if p + ops[pc, F_LO] < 0 or p + ops[pc, F_HI] >= size or count + total > limit:
                    fallback = True  # faults in the first iteration, or stops at the limit
                elif k < 0:  # never reaches 0: the naive interpreter spins until the limit
                    return ST_LIMIT, limit, olen
                else:
                    t0 = ops[pc, F_T0]
                    for t in range(t0, t0 + ops[pc, F_JMP]):
                        q = p + targets[t, 0]
                        tape[q] = (np.int64(tape[q]) + k * targets[t, 1]) & 255
                    tape[p] = 0
                    count += total
                    pc += 1
        elif op == OP_SCAN:
            stride = ops[pc, F_A]
            q = p
            steps = 0
            while tape[q] != 0:
                q += stride
                steps += 1
                if q < 0 or q >= size:
                    fallback = True
                    break
            if not fallback:
                total = 1 + steps * ops[pc, F_COST]
                if count + total > limit:
                    fallback = True
                else:
                    p = q
                    count += total
                    pc += 1
        elif op == OP_OUT:
            if count >= limit:
                return ST_LIMIT, count, olen
            count += 1
            if olen >= max_out:
                return ST_OUTPUT, count, olen
            out[olen] = tape[p]
            olen += 1
            pc += 1
        else:  # OP_IN
            if count >= limit:
                return ST_LIMIT, count, olen
            count += 1
            if ip < n_in:
                tape[p] = inp[ip]
                ip += 1
            else:
                tape[p] = 0
            pc += 1
        if fallback:
            status, p, count, ip, olen = _naive_span(
                code, match, ops[pc, F_S0], ops[pc, F_S1], tape, p, count, limit, inp, ip, out, olen
            )
            if status != ST_OK:
                return status, count, olen
            pc += 1
    return ST_OK, count, olen


# --- public entry points ------------------------------------------------------------------------


def run(
    source_or_program: str | bytes | Program,
    input: bytes = b"",
    *,
    max_instructions: int = MAX_INSTRUCTIONS,
    max_output: int = MAX_OUTPUT,
    tape_size: int = TAPE_SIZE,
) -> BFResult:
    """Run a program (source or compiled) on `input`; faults come back in the result, never
    raised. `tape_size` exists for tests; the arena always uses 65,536 cells."""
    program = (
        source_or_program
        if isinstance(source_or_program, Program)
        else compile_program(source_or_program)
    )
    if program.error is not None:
        return BFResult(b"", 0, program.error, "syntax")
    if max_instructions < 0 or max_output < 0 or tape_size < 1:
        raise ValueError("limits must be non-negative and the tape at least one cell")
    tape = np.zeros(tape_size, np.uint8)
    out = np.empty(max_output, np.uint8)
    inp = np.frombuffer(bytes(input), np.uint8)
    status, count, olen = execute(
        program.ops,
        program.targets,
        program.code,
        program.match,
        ITERATIONS,
        tape,
        inp,
        out,
        np.int64(max_instructions),
    )
    output = out[:olen].tobytes()
    if status == ST_OK:
        return BFResult(output, int(count))
    message, kind = runtime_error(int(status), int(count), tape_size, max_output)
    return BFResult(output, int(count), message, kind)


_warm = False


def warmup() -> float:
    """Compile (or load from numba's cache) the kernels once; returns the seconds it took."""
    global _warm
    if _warm:
        return 0.0
    t0 = time.perf_counter()
    run("+[->+<]>[<]>[-]+[>>+<<-]++[.,]<", b"ab", max_output=4)
    run("+[>+]", tape_size=4)
    _warm = True
    return time.perf_counter() - t0

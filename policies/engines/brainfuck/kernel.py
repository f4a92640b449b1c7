"""The Brainfuck kernel: runs a compiled op list (`compiler.py`) with numba, counting exactly
what a naive interpreter would execute; a folded op that would cross a limit re-runs its span of
source commands naively, so the stopping point, the count and the error are the naive ones.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from policies.engines.brainfuck.opcodes import (
    C_IN,
    C_LEFT,
    C_MINUS,
    C_OPEN,
    C_OUT,
    C_PLUS,
    C_RIGHT,
    F_A,
    F_COST,
    F_HI,
    F_JMP,
    F_LO,
    F_OP,
    F_S0,
    F_S1,
    F_T0,
    OP_ADD,
    OP_BLOCK,
    OP_CLEAR,
    OP_JNZ,
    OP_JZ,
    OP_MOVE,
    OP_MUL,
    OP_OUT,
    OP_SCAN,
    ST_LIMIT,
    ST_OK,
    ST_OUTPUT,
    ST_TAPE_LEFT,
    ST_TAPE_RIGHT,
)


def _iteration_table() -> np.ndarray:
    """`K[d, v]`: iterations until a cell at v that changes by d per iteration first reads 0
    (-1 when it never does)."""
    table = np.full((256, 256), -1, np.int16)
    ds = np.arange(256)
    for k in range(255, -1, -1):  # descending, so the smallest k is written last
        table[ds, (-k * ds) % 256] = k
    return table


ITERATIONS = _iteration_table()


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

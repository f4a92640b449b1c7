"""A plain, unoptimised Brainfuck interpreter in pure Python: the oracle the tests hold the
optimising runtime to (same output, instruction count and error on every program).

It shares only the result type and the message wording with `interpreter.py`; parsing, bracket
matching and execution are its own, one command at a time.
"""

from __future__ import annotations

from policies.engines.brainfuck.interpreter import (
    MAX_INSTRUCTIONS,
    MAX_OUTPUT,
    ST_LIMIT,
    ST_OUTPUT,
    ST_TAPE_LEFT,
    ST_TAPE_RIGHT,
    TAPE_SIZE,
    BFResult,
    runtime_error,
    syntax_error_message,
)


def run_naive(
    source: str | bytes,
    input: bytes = b"",
    *,
    max_instructions: int = MAX_INSTRUCTIONS,
    max_output: int = MAX_OUTPUT,
    tape_size: int = TAPE_SIZE,
) -> BFResult:
    """Interpret `source` command by command under the seed's counting rule: every command
    counts 1, a taken `]` jumps to the command after its `[`, so `[` counts once per entry."""
    text = source.decode("latin-1") if isinstance(source, bytes) else source
    program = [(pos, ch) for pos, ch in enumerate(text) if ch in "+-<>.,[]"]
    jump: dict[int, int] = {}
    opened: list[int] = []
    for index, (pos, ch) in enumerate(program):
        if ch == "[":
            opened.append(index)
        elif ch == "]":
            if not opened:
                return BFResult(b"", 0, syntax_error_message(text, pos, "]"), "syntax")
            start = opened.pop()
            jump[start] = index
            jump[index] = start
    if opened:
        return BFResult(b"", 0, syntax_error_message(text, program[opened[0]][0], "["), "syntax")

    commands = [ch for _, ch in program]
    tape = [0] * tape_size
    out = bytearray()
    ptr = pc = count = ip = 0
    status = 0
    while pc < len(commands):
        if count >= max_instructions:
            status = ST_LIMIT
            break
        count += 1
        ch = commands[pc]
        if ch == "+":
            tape[ptr] = (tape[ptr] + 1) % 256
        elif ch == "-":
            tape[ptr] = (tape[ptr] - 1) % 256
        elif ch == ">":
            ptr += 1
            if ptr >= tape_size:
                status = ST_TAPE_RIGHT
                break
        elif ch == "<":
            ptr -= 1
            if ptr < 0:
                status = ST_TAPE_LEFT
                break
        elif ch == ".":
            if len(out) >= max_output:
                status = ST_OUTPUT
                break
            out.append(tape[ptr])
        elif ch == ",":
            tape[ptr] = input[ip] if ip < len(input) else 0
            ip += 1
        elif ch == "[":
            if tape[ptr] == 0:
                pc = jump[pc]
        elif tape[ptr] != 0:
            pc = jump[pc]
        pc += 1
    if status == 0:
        return BFResult(bytes(out), count)
    message, kind = runtime_error(status, count, tape_size, max_output)
    return BFResult(bytes(out), count, message, kind)

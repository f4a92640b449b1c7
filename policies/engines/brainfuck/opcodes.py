"""The Brainfuck runtime's codes, shared by the compiler (`compiler.py`) and the kernel
(`kernel.py`): source command codes, opcodes, op row fields and kernel status codes.

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

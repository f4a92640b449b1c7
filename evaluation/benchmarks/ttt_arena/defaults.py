"""The arena's fixed names and defaults, light to import (the CLI reads them at start-up)."""

BENCHMARK_ID = "ttt-arena"
"""The `benchmark` of every arena log header."""

DEFAULT_SEED = 20261009
"""The arena's official suite seed (suite v1)."""

DEFAULT_TIMEOUT_MS = 20_000.0
"""Per-move time limit of an engine call (a Brainfuck move may run 100 M instructions)."""

MAX_TIMEOUT_MS = 86_400_000.0
"""The longest per-move limit a run or a log may name: a day (what a person is given in
`arcade-eval play`); a larger, infinite, NaN or non-positive `timeoutMs` is refused."""

MAX_SEED = 2**64 - 1
"""Seeds are 0 .. 2**64 - 1 (numpy's seed words)."""

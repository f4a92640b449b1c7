"""The arena's fixed names and defaults, light to import (the CLI reads them at start-up)."""

BENCHMARK_ID = "ttt-arena"
"""The `benchmark` of every arena log header."""

DEFAULT_SEED = 20261009
"""The arena's official suite seed (suite v1)."""

DEFAULT_TIMEOUT_MS = 20_000.0
"""Per-move time limit of an engine call (a Brainfuck move may run 100 M instructions)."""

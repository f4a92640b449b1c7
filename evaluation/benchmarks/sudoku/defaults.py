"""The Sudoku benchmark's fixed names and defaults, light to import (the CLI reads them at
start-up)."""

BENCHMARK_ID = "sudoku"
"""The `benchmark` of every Sudoku log header."""

DEFAULT_TIMEOUT_MS = 900_000.0
"""The safety net per answer (15 minutes): generous, since a timeout aborts the grid (the model
may think as long as its settings allow); it only stops a request that hangs."""

MAX_ATTEMPTS = 2
"""One answer, plus one retry only for a reply with no readable grid."""

"""The Sudoku benchmark's fixed names and defaults, light to import (the CLI reads them at
start-up)."""

BENCHMARK_ID = "sudoku"
"""The `benchmark` of every Sudoku log header."""

DEFAULT_TIMEOUT_MS = 900_000.0
"""Time limit of one answer: models may think as long as their settings allow (15 minutes)."""

MAX_ATTEMPTS = 2
"""One answer, plus one retry only for a reply with no readable grid."""

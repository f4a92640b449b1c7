"""The chess ladder's fixed names, light to import (the CLI and the registry read them at
start-up)."""

BENCHMARK_ID = "chess-ladder"
"""The `benchmark` of every chess ladder log header, and the benchmark's command and name."""

"""NARCADE's fixed names, light to import (the CLI and the registry read them at start-up)."""

BENCHMARK_ID = "narcade"
"""The `benchmark` of every NARCADE event-log header (`evaluation/core/eventlog.py`), and the
benchmark's command and name."""

"""`arcade-eval bench`: per-game throughput benches sharing one report shape (`report.py`)."""

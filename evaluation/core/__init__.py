"""What every benchmark shares: the one episode loop (play and replay), the run directory, the
event log, verify, the grid runner and executors, statistics and the command-line options.

The core imports no benchmark: benchmarks register themselves (`evaluation/benchmarks/__init__.py`)
and the core reads the registry (`registry.py`).
"""

"""`arcade-eval bench`: every registered env measured alike, plus the figures each game, engine
and benchmark adds of its own, in one report shape (`report.py`)."""

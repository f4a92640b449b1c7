"""The chess ladder: models play fixed-rating opponents (weak built-in rungs and Stockfish at
limited strength), never each other; adjudication, grading, ratings and reports."""

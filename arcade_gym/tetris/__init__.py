"""Tetris: the `tetris-bench@3` ruleset (guideline scoring, candidate placements) and NARCADE's
primitive-control variant, over one numba engine."""

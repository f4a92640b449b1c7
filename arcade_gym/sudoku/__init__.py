"""Sudoku: a numba solver, a human-technique grader (tiers 1..7), a seeded generator, set v1 and
the `arcade_gym/Sudoku-v0` env."""

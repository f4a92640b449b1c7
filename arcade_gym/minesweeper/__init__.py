"""Minesweeper (NARCADE rules 0.4.0): seeded boards with a safe 3x3 opening, one numba kernel per
step, a Gymnasium env and a question/answer contract for policies."""

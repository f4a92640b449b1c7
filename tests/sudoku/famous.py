"""Published puzzles the tests grade: hard ones from the literature and an easy newspaper one."""

from __future__ import annotations

BEYOND_PUZZLES: dict[str, str] = {
    # Arto Inkala's 2012 "world's hardest Sudoku" (press release, June 2012)
    "inkala-2012": (
        "800000000003600000070090200050007000000045700000100030001000068008500010090000400"
    ),
    # "Easter Monster" (jpf, Sudoku Players' Forum, 2007)
    "easter-monster": (
        "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
    ),
    # "AI Escargot" (Arto Inkala, 2006)
    "ai-escargot": (
        "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."
    ),
}

NEWSPAPER = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
"""Grid 01 of Project Euler problem 96 (newspaper style): naked singles alone finish it."""

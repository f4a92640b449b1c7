"""Tests of the Minesweeper game (NARCADE rules 0.4.0)."""

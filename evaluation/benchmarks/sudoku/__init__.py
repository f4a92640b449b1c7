"""The Sudoku benchmark: command-line tools (`cli.py`) and the scoring of answers (`scoring.py`)."""

"""What a language model sees of a Minesweeper question: the fixed system prompt (the rules in
brief, the board's characters, reveal and flag); the rendering, schema and reply reading are
those of every game that offers its actions (`policies/llm/prompts/offered_actions.py`)."""

from __future__ import annotations

from arcade_gym.minesweeper.contract import MinesweeperAnswer
from policies.llm.prompts.offered_actions import JSON_ONLY, OfferedActionsPrompt

SYSTEM_PROMPT = f"""\
You are playing Minesweeper (NARCADE rules 0.4.0). A grid of rows x cols cells hides a number of \
mines. Row 0 is the top row and column 0 the left column.

Each turn you get the game state as JSON:
- board: one string per row, one character per cell: # hidden, F flagged (still hidden), or a \
digit 0-8 for a revealed cell, counting the mines among its eight neighbours;
- mines (mines on the board), flags (flags placed), revealed (safe cells revealed so far), \
decision (actions answered so far), rows, cols and difficulty;
then the actions offered this turn.

The actions are every legal move, listed in a shuffled order that means nothing: "reveal r c" \
opens the hidden, unflagged cell in row r, column c; "flag r c" puts a flag on a hidden cell or \
takes it off again. Revealing a mine ends the game. Revealing a 0 also opens its neighbours. \
Revealing every safe cell wins. The score is the number of safe cells revealed; flags score \
nothing and only mark cells you believe are mines.

Reveal as many safe cells as possible without hitting a mine.

{JSON_ONLY}"""


def make_prompt(game: str = "minesweeper") -> OfferedActionsPrompt:
    """The Minesweeper lane's prompt (named by `policies/minesweeper/__init__.py:POLICIES`)."""
    return OfferedActionsPrompt("minesweeper", SYSTEM_PROMPT, MinesweeperAnswer)

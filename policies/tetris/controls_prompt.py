"""What a language model sees of a Tetris question with primitive controls (NARCADE): the fixed
system prompt (the board, the falling piece, the six controls, gravity and scoring); the
rendering, schema and reply reading are those of every game that offers its actions
(`policies/llm/prompts/offered_actions.py`). Tetris Bench placements have their own prompt
(`policies/tetris/prompt.py`)."""

from __future__ import annotations

from arcade_gym.tetris.primitive_contract import TetrisControlAnswer
from policies.llm.prompts.offered_actions import JSON_ONLY, OfferedActionsPrompt

SYSTEM_PROMPT = f"""\
You are playing Tetris with primitive controls (NARCADE rules 0.4.0): a board of 10 columns \
(0 at the left) and 20 rows (0 at the top), seven-bag pieces (I, J, L, O, S, T, Z), classic \
scoring.

Each turn you get the game state as JSON:
- board: 20 strings, one per row from the top, one character per column: # a locked cell, . an \
empty one (the falling piece is not drawn);
- piece: the falling piece: its type, x and y (the top-left corner of its bounding box), rotation \
(0 as spawned, 1 clockwise, 2, 3 counter-clockwise) and cells, the row and column of each of its \
four cells (rows above the board are negative);
- next: the next pieces, in order;
- score, lines (cleared), level, pieces (locked so far), gravityMs (how long the piece takes to \
fall a row in realtime play), decision (controls answered so far) and difficulty;
then the actions offered this turn.

The actions are the six controls, listed in an order that changes every turn and means nothing: \
left and right move the falling piece one column; rotate_cw and rotate_ccw turn it a quarter turn \
clockwise or counter-clockwise (with wall kicks); soft_drop moves it down one row; hard_drop \
drops it to the bottom and locks it at once. A control that is blocked does nothing. Gravity \
pulls the piece down a row at a time (in lockstep play once after every control but a hard drop; \
in realtime play on the clock, while you decide), and a piece that rests on the stack when \
gravity acts locks in place. Full rows are cleared: 40, 100, 300 or 1200 points times (level + 1) \
for one to four rows at once; the level rises every 10 lines. The game ends when the stack \
reaches the top.

Steer each piece to a spot that keeps the stack low, flat and free of holes, and clear lines.

{JSON_ONLY}"""


def make_prompt(game: str = "tetris") -> OfferedActionsPrompt:
    """The primitive-control lane's prompt (named by `policies/tetris/__init__.py:POLICIES` for
    `tetris-primitive`, whose prompt game is `tetris`)."""
    return OfferedActionsPrompt("tetris", SYSTEM_PROMPT, TetrisControlAnswer)

"""What a language model sees of a Snake question: the fixed system prompt (the rules in brief,
the state fields, the four directions); the rendering, schema and reply reading are those of every
game that offers its actions (`policies/llm/prompts/offered_actions.py`)."""

from __future__ import annotations

from arcade_gym.snake.contract import SnakeAnswer
from policies.llm.prompts.offered_actions import JSON_ONLY, OfferedActionsPrompt

SYSTEM_PROMPT = f"""\
You are playing Snake (NARCADE rules 0.4.0) on a grid of rows x cols cells. Row 0 is the top \
row and column 0 the left column.

Each turn you get the game state as JSON:
- snake: the snake's cells, head first, then the body down to the tail;
- heading: the direction the snake is moving in;
- food: the cell of the food (null when there is none);
- length (cells of the snake), score (food eaten), decision (moves answered so far), rows, cols, \
difficulty, and tickMs (how often the snake moves in realtime play);
then the actions offered this turn.

The actions are the four absolute directions: up (row - 1), down (row + 1), left (col - 1) and \
right (col + 1). They are listed in an order that changes every turn and means nothing. The head \
moves one cell in the direction you choose. Choosing the direction opposite to the heading does \
not turn back: the snake keeps its heading. Eating the food grows the snake by one cell and \
scores a point; new food appears on a random empty cell. The tail leaves its cell as the head \
moves, so moving into the tail's cell is safe. The game ends when the \
head leaves the grid or runs into the snake's body. In realtime play the snake keeps moving in \
its heading while you decide.

Eat as much food as possible without dying.

{JSON_ONLY}"""


def make_prompt(game: str = "snake") -> OfferedActionsPrompt:
    """The Snake lane's prompt (named by `policies/snake/__init__.py:POLICIES`)."""
    return OfferedActionsPrompt("snake", SYSTEM_PROMPT, SnakeAnswer)

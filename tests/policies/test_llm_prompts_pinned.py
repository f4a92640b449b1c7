"""Every game's LLM prompt renders byte for byte what it rendered when the prompts lived in
`policies/llm/prompts/` (commit 8e8f1ad): the same system prompt, messages, reply schema, probe,
description and versions for fixed questions. A change here makes results incomparable, so it
must come with a new PROMPT_VERSION and new digests."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import chess
import pytest

from arcade_gym.chess.contract import make_question
from arcade_gym.minesweeper.game import MinesweeperGame
from arcade_gym.snake.game import SnakeGame
from arcade_gym.sudoku.contract import SudokuQuestion
from arcade_gym.tetris.game import TetrisGame
from arcade_gym.tetris.primitive_game import TetrisControlGame
from arcade_gym.tictactoe.contract import TicTacToeQuestion
from policies.llm import prompt_for

DIGESTS = {
    "chess": "d848b3f4ac1d7af1",
    "minesweeper": "9635c62c9a37ce5c",
    "snake": "b04906a627d7b1dd",
    "sudoku": "ba6858a075d0067f",
    "tetris": "e9bd6c66634c0e00",
    "tetris-controls": "53d46c8f263968a8",
    "tictactoe": "93776d233a7cd2f4",
}
"""sha256 (first 16 hex digits) of each lane's rendering of `questions(game)`."""


def questions(game: str) -> list[Any]:
    if game == "chess":
        board = chess.Board()
        for san in ("e4", "c5", "Nf3"):
            board.push_san(san)
        return [
            make_question(board, "standard", attempt=1, feedback=None),
            make_question(board, "standard", attempt=2, feedback="Illegal"),
        ]
    if game == "tetris-controls":
        moved = TetrisControlGame("seed-02")
        for k in range(5):
            moved.step(("left", "rotate_cw", "soft_drop")[k % 3])
        return [TetrisControlGame("seed-01").question(), moved.question()]
    if game == "snake":
        return [SnakeGame("seed-01").question(), SnakeGame("seed-07").question()]
    if game == "minesweeper":
        return [MinesweeperGame("seed-01").question()]
    if game == "tetris":
        return [TetrisGame("seed-01").question(), TetrisGame("seed-04").question()]
    if game == "tictactoe":
        rows = ("XO...", ".X...", "..O..", ".....", ".....")
        return [TicTacToeQuestion(size=5, k=4, to_move="X", rows=rows)]
    return [SudokuQuestion.from_puzzle("53" + "0" * 79, "g")]


def rendering(game: str) -> list[Any]:
    prompt = prompt_for(game)
    probe = prompt.probe()
    return [
        prompt.prompt_version,
        prompt.adapter_version,
        prompt.description("M"),
        [probe.messages, probe.response_format],
        [[prompt.messages(q), prompt.response_format(q)] for q in questions(game)],
    ]


@pytest.mark.parametrize("game", sorted(DIGESTS))
def test_the_prompt_renders_as_it_always_did(game: str) -> None:
    text = json.dumps(rendering(game), sort_keys=True, default=str)
    assert hashlib.sha256(text.encode()).hexdigest()[:16] == DIGESTS[game]

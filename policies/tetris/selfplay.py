"""Play one IQ game of a brain on a `TetrisGame` directly, without the harness, to measure brains.

It follows the harness's loop (question -> act -> validate -> play or hold, three unusable answers
in a row end the game) so a brain's numbers here are the numbers it gets in the benchmark.
"""

from __future__ import annotations

from arcade_gym.tetris.contract import validate
from arcade_gym.tetris.game import TetrisGame
from arcade_gym.tetris.rules import END_ADAPTER_FAILURE, TICK_CAP
from policies.base import DecisionContext, Policy

IQ_BUDGET_MS = 20_000.0
"""The IQ time allowance per move (the seed's 20 s)."""

MAX_UNUSABLE = 3


def play_game(
    brain: Policy,
    seed: str,
    piece_cap: int = 500,
    *,
    tick_cap: int = TICK_CAP,
    budget_ms: float = IQ_BUDGET_MS,
) -> tuple[int, int, int, str]:
    """Play one game to its end. Returns `(score, lines, pieces, end_reason)`."""
    game = TetrisGame(seed, piece_cap=piece_cap, tick_cap=tick_cap)
    unusable = 0
    while not game.over:
        question = game.question()
        try:
            answer = brain.act(question, DecisionContext.with_budget(budget_ms))
        except Exception as exc:  # a crashing brain costs it the tick, as in the harness
            answer = {"error": repr(exc)}
        verdict = validate(answer, question)
        if not verdict.usable or verdict.placement is None:
            unusable += 1
            if unusable >= MAX_UNUSABLE:
                game.end(END_ADAPTER_FAILURE)
                break
            game.skip()
            continue
        unusable = 0
        if verdict.hold:
            game.hold()
        else:
            game.play(verdict.placement.x, verdict.placement.rotation)
    return game.score, game.lines, game.pieces, str(game.end_reason)

"""`py:tests.evaluation.ttt_arena.flaky:make`: the Tactician, except that our side fails now and
then.

`FAIL_ON` lists question numbers (1-based, per process) whose call fails with a service failure
(`FAIL_KIND = "service"`) or a run stop (`"stop"`).
"""

from __future__ import annotations

from typing import Any

from arcade_gym.tictactoe.contract import TicTacToeQuestion
from policies.base import DecisionContext, RunStopError, ServiceFailureError
from policies.tictactoe import TacticianPlayer

FAIL_ON: set[int] = set()
FAIL_KIND = "service"


class Flaky(TacticianPlayer):
    def __init__(self) -> None:
        super().__init__()
        self.slug = self.name = "flaky"
        self.kind = "engine"
        self.calls = 0

    def act(self, question: TicTacToeQuestion, ctx: DecisionContext | None = None) -> Any:
        self.calls += 1
        if self.calls in FAIL_ON:
            if FAIL_KIND == "stop":
                raise RunStopError("the cost cap is reached")
            raise ServiceFailureError("HTTP 503 from the provider")
        return super().act(question, ctx)


def make(game: str, seed: int) -> Flaky:
    return Flaky()

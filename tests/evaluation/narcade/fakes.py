"""Test policies loaded by spec (`py:tests.evaluation.narcade.fakes:<factory>`), also inside a
model's own spawned process, so they live in an importable module."""

from __future__ import annotations

import time
from typing import Any

from evaluation.benchmarks.narcade.protocol import POLICY_GAMES
from policies.base import DecisionContext, PolicyIdentity
from policies.specs import SpecOptions, make_policy

HERE = "tests.evaluation.narcade.fakes"


class _Fake(PolicyIdentity):
    def __init__(self, slug: str) -> None:
        super().__init__(slug=slug, name=slug, description="test policy", kind="baseline")


class Raising(_Fake):
    def act(self, question: Any, ctx: DecisionContext) -> Any:
        raise RuntimeError("model crashed")


class Hanging(_Fake):
    def act(self, question: Any, ctx: DecisionContext) -> Any:
        time.sleep(30)


class Slow(_Fake):
    """Thinks `seconds`, then answers like the heuristic."""

    def __init__(self, game: str, seed: int, seconds: float = 0.25, slug: str = "slow") -> None:
        super().__init__(slug)
        self.seconds = seconds
        game = POLICY_GAMES.get(game, game)  # a NARCADE game or the policy grammar's name
        self.inner = make_policy("heuristic", game, SpecOptions(seed=seed))

    def act(self, question: Any, ctx: DecisionContext) -> Any:
        time.sleep(self.seconds)
        return self.inner.act(question, ctx)


def raising(game: str, seed: int) -> Any:
    return Raising("raising")


def hanging(game: str, seed: int) -> Any:
    return Hanging("hanging")


def slow(game: str, seed: int) -> Any:
    return Slow(game, seed)


def steady(game: str, seed: int) -> Any:
    """The heuristic at 20 ms a decision: long enough to kill a run in the middle."""
    return Slow(game, seed, 0.02, "steady")


OUTAGE = {"on": True}
"""While on, `outage` policies fail on our side at their third decision of seed 101."""


class Outage(Slow):
    """The heuristic, but the service behind it fails (`ServiceFailureError`) mid-episode."""

    def __init__(self, game: str, seed: int) -> None:
        super().__init__(game, seed, 0.0, "outage")
        self.seed = seed
        self.calls = 0

    def act(self, question: Any, ctx: DecisionContext) -> Any:
        from policies.base import ServiceFailureError

        self.calls += 1
        if OUTAGE["on"] and self.seed == 101 and self.calls == 3:
            raise ServiceFailureError("the provider is down (HTTP 503)")
        return super().act(question, ctx)


def outage(game: str, seed: int) -> Any:
    return Outage(game, seed)


class Refused(_Fake):
    """A model whose key is refused: it latches `fatal_error` like a chat policy does."""

    def __init__(self) -> None:
        super().__init__("refused")
        self.fatal_error: Exception | None = None

    def act(self, question: Any, ctx: DecisionContext) -> Any:
        self.fatal_error = PermissionError("401 Unauthorized")
        raise self.fatal_error


def refused(game: str, seed: int) -> Any:
    return Refused()


def unbuildable(game: str, seed: int) -> Any:
    raise RuntimeError("the weights file is missing")

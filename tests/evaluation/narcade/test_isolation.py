"""One process per model (`isolation.py`): each model's games play in a process of its own, an
error comes back as itself, a process that dies loses only its unfinished games."""

from __future__ import annotations

import os
from typing import Any

import pytest

from evaluation.benchmarks.narcade.isolation import IsolatedExecutor
from evaluation.core.episode import RunStoppedError


def pid_of(item: tuple[str, str]) -> int:
    return os.getpid()


def stop_run(item: tuple[str, str]) -> int:
    raise RunStoppedError("the cost cap is reached", 7)


def die_on(item: tuple[str, str]) -> str:
    if item[1] == "die":
        os._exit(9)
    return item[1]


def _executor() -> IsolatedExecutor:
    return IsolatedExecutor(1, group=lambda item: item[0])


def test_each_model_plays_in_a_process_of_its_own() -> None:
    seen: dict[Any, int] = {}
    items = [("a", "1"), ("a", "2"), ("b", "1")]
    _executor().run(pid_of, items, lambda item, pid: seen.__setitem__(item, pid))
    assert list(seen) == items
    assert seen[("a", "1")] == seen[("a", "2")] != seen[("b", "1")]
    assert os.getpid() not in seen.values()


def test_an_error_in_a_models_process_comes_back_as_itself() -> None:
    with pytest.raises(RunStoppedError) as info:
        _executor().run(stop_run, [("a", "1")], lambda *_: None)
    assert info.value.reason == "the cost cap is reached" and info.value.decisions == 7


def test_a_process_that_dies_loses_only_its_unfinished_games() -> None:
    executor = _executor()
    seen: list[Any] = []
    items = [("a", "ok"), ("a", "die"), ("a", "late"), ("b", "ok")]
    executor.run(die_on, items, lambda item, _: seen.append(item))
    assert seen == [("a", "ok"), ("b", "ok")]
    assert executor.crashed == {"a": 9}

"""A NARCADE request and its validated settings share one declaration of what shapes the games
(`GameSettings`): every such field given to a request arrives in the `Settings` it resolves to."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import pytest

from evaluation.benchmarks.narcade.settings import GameSettings, NarcadeRunSettings, Settings
from evaluation.core.errors import RunError

CHANGED: dict[str, Any] = {
    "episodes": 2,
    "seed": 7,
    "mode": "lockstep",
    "difficulty": "easy",
    "max_seconds": 5.0,
    "max_pieces": 10,
    "max_decisions": 50,
    "trace": True,
    "timeout_ms": 1000.0,
    "failure_streak": 2,
    "models_file": "models.toml",
    "base_url": "http://127.0.0.1:9/v1",
    "cache_dir": "cache",
    "transcripts": True,
    "max_cost_usd": 1.5,
}
"""A valid value other than the default for every `GameSettings` field."""


def test_both_settings_have_every_game_shaping_field_once() -> None:
    shared = {field.name for field in fields(GameSettings)}
    assert set(CHANGED) == shared
    assert shared <= {field.name for field in fields(Settings)}
    assert shared <= {field.name for field in fields(NarcadeRunSettings)}
    assert all(CHANGED[name] != getattr(GameSettings(), name) for name in shared)


def test_every_game_shaping_field_of_a_request_reaches_its_settings() -> None:
    request = NarcadeRunSettings(models="heuristic", games="tetris,snake", **CHANGED)
    models, settings = request.resolve("box")
    assert models == ["heuristic"]
    assert {name: getattr(settings, name) for name in CHANGED} == CHANGED
    assert sorted(settings.games) == ["snake", "tetris"] and settings.hardware == "box"
    assert NarcadeRunSettings(hardware="mine").resolve("box")[1].hardware == "mine"


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [("episodes", 0, "--episodes"), ("mode", "fast", "--mode"), ("timeout_ms", -1.0, "timeout")],
)
def test_a_request_is_validated_when_it_resolves(field: str, value: Any, says: str) -> None:
    with pytest.raises(RunError, match=says):
        NarcadeRunSettings(**{field: value}).resolve()

"""`play_grid` notices a dead service once: after `abort_limit` games of one policy in a row are
aborted on our side the run stops, resumable, saying why; a finished game of that policy resets
its count, and another policy's games do not."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from evaluation.core.episode import GameAbortedError
from evaluation.core.grid import DEFAULT_ABORT_LIMIT, GridRun, Key, PolicyPool, play_grid
from evaluation.core.rundir import RunDir


def _verify(path: Path) -> Any:
    return SimpleNamespace(ok=True, message="", result=json.loads(path.read_text()))


def _agrees(saved: Mapping[str, Any], logged: Mapping[str, Any]) -> bool:
    return saved == logged


class Service:
    """Which games abort: `down` lists (spec, seed) pairs; `played` what was attempted."""

    def __init__(self, down: set[Key]) -> None:
        self.down = down
        self.played: list[Key] = []

    def play(self, policy: Any, key: Key, log: Path) -> dict[str, Any]:
        self.played.append(key)
        if key in self.down:
            log.write_text('{"endReason": "aborted"}')
            raise GameAbortedError("ServiceFailure: connection refused", 0)
        result = {"score": int(key[1])}
        log.write_text(json.dumps(result))
        return result


def _grid(out: Path, keys: list[Key], service: Service, limit: int | None) -> GridRun:
    run_dir = RunDir(out, "toy", {"keys": len(keys)})
    run_dir.prepare()
    pool = PolicyPool(lambda spec: spec, abort_limit=limit)
    return play_grid(
        run_dir, keys, service.play, pool, agrees=_agrees, verify=_verify, say=lambda _: None
    )


def _keys(*specs: str, n: int = 8) -> list[Key]:
    return [(spec, str(seed)) for spec in specs for seed in range(n)]


def test_three_aborts_in_a_row_stop_the_run_resumably_and_the_resume_finishes(
    tmp_path: Path,
) -> None:
    keys = _keys("llm")
    service = Service({("llm", str(seed)) for seed in range(2, 8)})
    grid = _grid(tmp_path / "run", keys, service, DEFAULT_ABORT_LIMIT)
    assert service.played == keys[:5]  # two finished, three aborted, then the stop
    assert grid.interrupted and grid.stop_reason is not None
    assert "3 games of llm in a row were aborted" in grid.stop_reason
    assert "connection refused" in grid.stop_reason
    assert len(grid.missing) == 6 and len(grid.aborted) == 3
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["status"] == "interrupted" and manifest["stopReason"] == grid.stop_reason

    service.down.clear()  # the endpoint is back
    again = _grid(tmp_path / "run", keys, service, DEFAULT_ABORT_LIMIT)
    assert not again.interrupted and not again.missing and len(again.finished) == 8


def test_a_finished_game_resets_the_count(tmp_path: Path) -> None:
    keys = _keys("llm")
    down: set[Key] = {("llm", s) for s in ("0", "1", "3", "4", "6", "7")}  # never three in a row
    service = Service(down)
    grid = _grid(tmp_path / "run", keys, service, 3)
    assert service.played == keys and not grid.interrupted and grid.stop_reason is None
    assert len(grid.aborted) == 6


def test_aborts_count_per_policy(tmp_path: Path) -> None:
    """Another policy's finished games do not hide a dead endpoint: its count is its own."""
    keys: list[Key] = [(spec, str(seed)) for seed in range(4) for spec in ("dead", "alive")]
    service = Service({key for key in keys if key[0] == "dead"})
    grid = _grid(tmp_path / "run", keys, service, 3)
    assert grid.stop_reason is not None and "games of dead in a row" in grid.stop_reason
    assert ("dead", "3") not in service.played


@pytest.mark.parametrize("limit", [None, 10])
def test_no_limit_or_a_high_one_plays_every_game(tmp_path: Path, limit: int | None) -> None:
    keys = _keys("llm", n=6)
    service = Service(set(keys))
    grid = _grid(tmp_path / "run", keys, service, limit)
    assert service.played == keys and not grid.interrupted and len(grid.aborted) == 6


def test_the_help_says_the_default_the_grid_uses() -> None:
    from evaluation.core.cli_options import ABORTS_DEFAULT_TEXT

    assert str(DEFAULT_ABORT_LIMIT) == ABORTS_DEFAULT_TEXT

"""`play_grid` stops one policy and goes on with the others: a saved game that `stops` names ends
its policy's run (also when it is kept on resume), a `PolicyStoppedError` from `play` sets its
game aside; `on_start` sees the kept games, `manifest()` adds fields to every manifest, and a
pool with `per_game` builds an instance per game."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from evaluation.core.errors import PolicyStoppedError
from evaluation.core.executor import LocalExecutor
from evaluation.core.grid import GridRun, Key, PolicyPool, play_grid
from evaluation.core.rundir import RunDir

KEYS: list[Key] = [(spec, str(seed)) for spec in ("good", "bad") for seed in range(4)]


def _verify(path: Path) -> Any:
    return SimpleNamespace(ok=True, message="", result=json.loads(path.read_text()))


def _agrees(saved: Mapping[str, Any], logged: Mapping[str, Any]) -> bool:
    return saved.get("score") == logged.get("score")


def _play(policy: Any, key: Key, log: Path) -> dict[str, Any]:
    """`bad` fails from seed 1 on; `stopper` raises before it plays."""
    if policy == "stopper":
        raise PolicyStoppedError("cannot be built")
    failed = policy == "bad" and int(key[1]) >= 1
    result = {"score": int(key[1]), "end": "failure" if failed else "ok"}
    log.write_text(json.dumps(result))
    return result


def _stops(key: Key, saved: Mapping[str, Any]) -> str | None:
    return f"failed at {key[1]}" if saved.get("end") == "failure" else None


def _grid(out: Path, **kw: Any) -> GridRun:
    run_dir = RunDir(out, "toy", {"keys": len(KEYS)})
    run_dir.prepare()
    options: dict[str, Any] = {"agrees": _agrees, "verify": _verify, "say": lambda _: None}
    return play_grid(run_dir, KEYS, _play, PolicyPool(lambda spec: spec), **options, **kw)


@pytest.mark.parametrize("concurrency", [1, 2])
def test_a_stopping_result_skips_the_rest_of_its_policy_and_a_resume_stops_it_again(
    tmp_path: Path, concurrency: int
) -> None:
    out = tmp_path / "run"
    grid = _grid(out, stops=_stops, executor=LocalExecutor(concurrency))
    stop = grid.stopped["bad"]
    # One thread: seed 1 stops it. Two: seeds 1 and 2 are in flight together, either may end first.
    first = [("bad", "1")] if concurrency == 1 else [("bad", "1"), ("bad", "2")]
    assert grid.complete("good") and stop.key in first
    assert stop.reason == f"failed at {stop.key[1]}" and stop.key in grid.finished
    played = [key for key in grid.finished if key[0] == "bad"]
    assert len(played) <= 1 + concurrency  # seeds 2 and 3 only while in flight
    assert ("bad", "3") in grid.missing
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "failed"

    seen: list[GridRun] = []
    again = _grid(out, stops=_stops, on_start=lambda run: seen.append(run))
    assert seen and stop.key in seen[0].finished and "bad" in seen[0].stopped
    assert again.missing == grid.missing  # the kept failure stops it before anything plays


def test_a_policy_stopped_by_play_is_set_aside_and_the_others_go_on(tmp_path: Path) -> None:
    out = tmp_path / "run"
    run_dir = RunDir(out, "toy", {})
    run_dir.prepare()
    keys: list[Key] = [("stopper", "0"), ("stopper", "1"), ("good", "0")]
    grid = play_grid(
        run_dir,
        keys,
        _play,
        PolicyPool(lambda spec: spec),
        agrees=_agrees,
        verify=_verify,
        say=lambda _: None,
    )
    assert grid.stopped["stopper"].reason == "cannot be built"
    assert list(grid.finished) == [("good", "0")]
    assert grid.missing == [("stopper", "0"), ("stopper", "1")]


def test_the_manifest_fields_of_the_benchmark_are_in_every_write(tmp_path: Path) -> None:
    out = tmp_path / "run"
    seen: list[dict[str, Any]] = []

    def extra() -> Mapping[str, Any]:
        if (out / "manifest.json").is_file():
            seen.append(json.loads((out / "manifest.json").read_text()))
        return {"format": "toy@1"}

    _grid(out, manifest=extra)
    final = json.loads((out / "manifest.json").read_text())
    assert final["format"] == "toy@1" and final["status"] == "complete"
    assert len(seen) == len(KEYS) + 1 and all(m["format"] == "toy@1" for m in seen)


def test_a_pool_with_per_game_builds_an_instance_per_game_and_keeps_the_latest() -> None:
    built: list[Any] = []

    def build(instance: Any) -> Any:
        built.append(instance)
        return object()

    pool = PolicyPool(build, per_game=lambda key: key[:2])
    first = pool.for_game(("a", "snake", "1"))
    assert pool.for_game(("a", "snake", "2")) is first
    other = pool.for_game(("a", "tetris", "1"))
    assert other is not first and pool.for_game(("a", "snake", "3")) is not first
    assert built == [("a", "snake"), ("a", "tetris"), ("a", "snake")]

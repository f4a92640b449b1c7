"""Replay frames of NARCADE episodes (`site_frames.py`, through `export_replay`): each frame is
the engine's state after the recorded decision, checked against a fresh game stepped by hand with
the log's actions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import evaluation.benchmarks  # noqa: F401  (registers NARCADE for export_replay)
from arcade_gym.core.clock import SimulatedClock
from arcade_gym.minesweeper.game import MinesweeperGame
from arcade_gym.snake.game import SnakeGame
from arcade_gym.tetris.primitive_game import TetrisControlGame
from arcade_gym.tetris.rules import PIECE_LETTERS
from evaluation.benchmarks.narcade.episode import EpisodeConfig, play_narcade
from evaluation.benchmarks.narcade.replays import ReplayError, replay_log
from evaluation.core.replay_export import UnverifiedLogError, export_replay
from policies.specs import SpecOptions, make_policy

POLICY_GAMES = {"snake": "snake", "minesweeper": "minesweeper", "tetris": "tetris-controls"}
CHECKED = (0, 1, 2, 7, 20, -1)
"""Frame indices compared with the hand-stepped game (0 is the start, -1 the end)."""


def _play(
    tmp_path: Path, game: str, mode: str, seed: int, policy: str = "heuristic", **caps: Any
) -> Path:
    config = EpisodeConfig(
        game=game,
        mode=mode,
        difficulty="easy",
        max_decisions=caps.get("max_decisions", 60),
        max_pieces=caps.get("max_pieces"),
    )
    log = tmp_path / f"{policy}-{game}-{mode}-{seed}.jsonl"
    agent = make_policy(policy, POLICY_GAMES[game], SpecOptions(seed=seed))
    play_narcade(agent, policy, config, seed, log, clock=SimulatedClock(caps.get("latency", 0)))
    return log


def _decisions(log: Path) -> list[dict[str, Any]]:
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    return [line for line in lines if line["type"] == "decision"]


def _states(log: Path, make: Any, step: Any) -> list[Any]:
    """A fresh game stepped by hand with the log's actions: its snapshot after each decision."""
    game = make()
    states = [step(game, None)]
    for event in _decisions(log):
        states.append(step(game, event))
    return states


def _indices(frames: list[Any]) -> list[int]:
    return sorted({i % len(frames) for i in CHECKED if abs(i) < len(frames)})


@pytest.mark.parametrize("mode", ["lockstep", "realtime"])
def test_snake_frames_are_the_engine_state_after_each_decision(tmp_path: Path, mode: str) -> None:
    log = _play(tmp_path, "snake", mode, 100, latency=400 if mode == "realtime" else 0)
    frames = export_replay(log).frames

    def step(game: SnakeGame, event: dict[str, Any] | None) -> dict[str, Any]:
        if event is not None and not game.over:
            elapsed = event["call"]["elapsedMs"] or 0.0
            if mode == "realtime" and elapsed > 0:
                game.advance(elapsed)
            if not game.over:
                game.step(event["verdict"]["action"] or game.heading)
        food = game.food
        return {
            "snake": [list(c) for c in game.snake_cells()],
            "food": None if food is None else list(food),
            "score": game.score,
            "length": game.length,
            "moves": game.moves,
        }

    states = _states(log, lambda: SnakeGame(100, "easy", max_decisions=60), step)
    assert len(frames) == len(states) == len(_decisions(log)) + 1
    for k in _indices(frames):
        assert {key: frames[k][key] for key in states[k]} == states[k], k
    assert frames[0]["length"] == 3 and "action" not in frames[0]
    assert frames[1]["action"] == _decisions(log)[0]["verdict"]["action"]
    assert frames[-1]["over"] and frames[-1]["endReason"] is not None


def test_minesweeper_frames_show_the_players_view_and_the_mines_after_the_end(
    tmp_path: Path,
) -> None:
    log = _play(tmp_path, "minesweeper", "turn-based", 104, policy="random")
    frames = export_replay(log).frames

    def step(game: MinesweeperGame, event: dict[str, Any] | None) -> list[str]:
        if event is not None:
            game.play(event["verdict"]["action"])
        return ["".join("#F012345678"[int(v) + 2] for v in row) for row in game.board]

    states = _states(log, lambda: MinesweeperGame(104, "easy", max_decisions=60), step)
    for k in range(len(frames) - 1):  # while playing, exactly what the player sees
        assert frames[k]["board"] == states[k], k
    end = frames[-1]
    assert end["over"] and end["endReason"] == "mine"  # random reveals a mine sooner or later
    game = MinesweeperGame(104, "easy")
    mines = {(r, c) for r in range(9) for c in range(9) if game.mines[r, c]}
    shown = {(r, c) for r, row in enumerate(end["board"]) for c, ch in enumerate(row) if ch in "*X"}
    assert shown == mines
    exploded = [
        (r, c) for r, row in enumerate(end["board"]) for c, ch in enumerate(row) if ch == "X"
    ]
    assert exploded == [tuple(end["cell"])]
    assert end["score"] == end["revealed"] == _decisions(log)[-1]["scoreAfter"]


def test_tetris_frames_use_the_shared_tetris_shape(tmp_path: Path) -> None:
    log = _play(tmp_path, "tetris", "lockstep", 101, max_decisions=150, max_pieces=12)
    frames = export_replay(log).frames

    def step(game: TetrisControlGame, event: dict[str, Any] | None) -> dict[str, Any]:
        if event is not None:
            game.step(event["verdict"]["action"])
        board = game.game.board.tolist()  # the engine's codes: PIECE_LETTERS[v - 1]
        cells = sorted([r, c] for r, c in game.piece_cells() if r >= 0)
        t = game.game.active[0]
        return {
            "board": board,
            "active": None if game.over else {"cells": cells, "kind": PIECE_LETTERS[t]},
            "score": game.score,
            "lines": game.lines,
            "level": game.level,
            "next": [PIECE_LETTERS[p] for p in game.game.next_pieces],
        }

    make = lambda: TetrisControlGame(101, "easy", max_pieces=12, max_decisions=150)  # noqa: E731
    states = _states(log, make, step)
    assert len(frames) == len(states)
    for k in [*_indices(frames), len(frames) // 2]:
        frame = dict(frames[k])
        if frame["active"] is not None:
            frame["active"] = {**frame["active"], "cells": sorted(frame["active"]["cells"])}
        assert {key: frame[key] for key in states[k]} == states[k], k
    assert frames[-1]["endReason"] == "piece cap" and frames[-1]["active"] is None
    assert any(any(v for row in f["board"] for v in row) for f in frames)


def test_tetris_ghost_is_the_active_piece_dropped(tmp_path: Path) -> None:
    log = _play(tmp_path, "tetris", "lockstep", 100, max_decisions=40, max_pieces=5)
    whole = 0
    for frame in export_replay(log).frames[1:-1]:
        active, ghost = frame["active"], frame["ghost"]
        assert ghost["kind"] == active["kind"] and len(ghost["cells"]) == 4
        assert all(frame["board"][r][c] == 0 for r, c in ghost["cells"])
        if len(active["cells"]) == 4:  # the whole piece is on the board
            whole += 1
            shift = {g[0] - a[0] for a, g in zip(active["cells"], ghost["cells"], strict=True)}
            assert len(shift) == 1 and shift.pop() >= 0
            assert [a[1] for a in active["cells"]] == [g[1] for g in ghost["cells"]]
    assert whole > 0


def test_a_log_that_does_not_verify_gives_no_frames(tmp_path: Path) -> None:
    log = _play(tmp_path, "snake", "lockstep", 100)
    lines = log.read_text().splitlines()
    event = json.loads(lines[3])
    event["scoreAfter"] += 1
    lines[3] = json.dumps(event)
    log.write_text("\n".join(lines) + "\n")
    with pytest.raises(UnverifiedLogError, match="at decision 2"):
        export_replay(log)


def test_export_replays_and_the_site_share_frames(tmp_path: Path) -> None:
    """`export-replays` writes the frames `export_replay` draws for the site (one exporter)."""
    run = tmp_path / "run"
    log = run / "logs" / "heuristic" / "snake" / "100.jsonl"
    log.parent.mkdir(parents=True)
    log.write_bytes(_play(tmp_path, "snake", "lockstep", 100).read_bytes())
    with pytest.raises(ReplayError, match="no matching result file"):
        replay_log(run, log)  # the export also checks the run's result file
    results = run / "results" / "heuristic" / "snake.json"
    results.parent.mkdir(parents=True)
    final = json.loads(log.read_text().splitlines()[-1])
    results.write_text(json.dumps({"episodes": [{"seed": 100, "score": final["score"]}]}))
    (run / "manifest.json").write_text(json.dumps({"benchmark": "narcade"}))
    document = replay_log(run, log)
    assert document["frames"] == export_replay(log).to_json()["frames"]
    assert document["final"]["score"] == final["score"] == document["frames"][-1]["score"]

"""Tetris throughput: Tetris-v3 and TetrisPrimitive-v3 steps, candidate questions, env memory.

`candidate_questions_per_s` is the question building the speed target names (one game, the raw
engine: every placement with its afterstate features); `question_objects_per_s` adds the contract
object a harness sends (pydantic, a grid per candidate).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np

from arcade_gym.tetris import engine as E
from arcade_gym.tetris.game import TetrisGame
from arcade_gym.tetris.warmup import warmup
from evaluation.throughput.report import (
    VECTOR_BATCH,
    add_vector_figures,
    env_memory_bytes,
    make_report,
    masked_random_steps,
    peer_status,
    rate,
)


def _masked_choice(mask: np.ndarray, u: float) -> int:
    """A uniform legal action from a uniform draw `u`; 0 for a finished episode (no legal one)."""
    legal = np.flatnonzero(mask)
    return int(legal[int(u * legal.size)]) if legal.size else 0


def tetris_v3_steps(seconds: float, seed: int = 0) -> float:
    """`gym.make("arcade_gym/Tetris-v3")`, uniform masked random actions, reset at episode end."""
    return masked_random_steps("arcade_gym/Tetris-v3", seconds, seed=seed)


def tetris_v3_vector_steps(seconds: float, num_envs: int = 8, seed: int = 0) -> float:
    """Total env steps per second of a synchronous vector of `Tetris-v3` envs (autoreset)."""
    envs = gym.make_vec("arcade_gym/Tetris-v3", num_envs=num_envs, vectorization_mode="sync")
    _, info = envs.reset(seed=seed)
    rng = np.random.default_rng(seed)

    def run(deadline: float) -> int:
        nonlocal info
        steps = 0
        while time.perf_counter() < deadline:
            for _ in range(32):
                masks = info["action_mask"]
                actions = np.array(
                    [_masked_choice(m, u) for m, u in zip(masks, rng.random(num_envs), strict=True)]
                )
                _, _, _, _, info = envs.step(actions)
                steps += num_envs
        return steps

    return rate(run, seconds)


def primitive_steps(seconds: float, seed: int = 0) -> float:
    """`gym.make("arcade_gym/TetrisPrimitive-v3")`, uniform random controls."""
    env = gym.make("arcade_gym/TetrisPrimitive-v3")
    env.reset(seed=seed)
    actions = np.random.default_rng(seed).integers(0, 6, 1 << 16).tolist()

    def run(deadline: float) -> int:
        steps = 0
        while True:
            for _ in range(1024):
                _, _, terminated, truncated, _ = env.step(actions[steps & 0xFFFF])
                steps += 1
                if terminated or truncated:
                    env.reset()
            if time.perf_counter() >= deadline:
                return steps

    return rate(run, seconds)


def _sample_positions(count: int, seed: int = 0) -> list[TetrisGame]:
    """Positions from games played by a seeded random policy (boards of every height)."""
    rng = np.random.default_rng(seed)
    positions: list[TetrisGame] = []
    game = TetrisGame(seed)
    while len(positions) < count:
        if game.over:
            game = TetrisGame(int(rng.integers(2**62)))
        positions.append(game.copy())
        legal = game.legal_placements()
        game.play(*legal[int(rng.integers(len(legal)))])
    return positions


def _passes_per_second(one_pass: Callable[[], None], per_pass: int, seconds: float) -> float:
    """Items per second of `one_pass()` (which handles `per_pass` items) repeated for `seconds`."""

    def run(deadline: float) -> int:
        done = 0
        while time.perf_counter() < deadline:
            one_pass()
            done += per_pass
        return done

    return rate(run, seconds)


def candidate_questions(seconds: float, seed: int = 0) -> float:
    """Raw engine: candidate generation with every afterstate's features (no Gym, no pydantic)."""
    positions = _sample_positions(512, seed)
    arrays = [(g.board, g.st, g.seq, g.cinfo, g.cfeat) for g in positions]
    generate = E.generate_candidates

    def one_pass() -> None:
        for board, st, seq, cinfo, cfeat in arrays:
            generate(board, st, seq, cinfo, cfeat)

    return _passes_per_second(one_pass, len(arrays), seconds)


def question_objects(seconds: float, seed: int = 0) -> float:
    """Whole Tetris Bench questions (`TetrisGame.question`: the contract object, every
    candidate's grid and features) per second, the figure a harness pays each tick."""
    positions = _sample_positions(256, seed)

    def one_pass() -> None:
        for game in positions:
            game.question()

    return _passes_per_second(one_pass, len(positions), seconds)


def bench_tetris(seconds: float = 3.0) -> dict[str, Any]:
    """Every Tetris figure of the issue's speed targets, as one JSON-able dict."""
    compile_s = warmup()
    results = {
        "tetris_v3_steps_per_s": tetris_v3_steps(seconds),
        "tetris_v3_vector8_steps_per_s": tetris_v3_vector_steps(seconds),
        "primitive_steps_per_s": primitive_steps(seconds),
        "candidate_questions_per_s": candidate_questions(seconds),
        "question_objects_per_s": question_objects(seconds),
        "tetris_v3_env_bytes": env_memory_bytes("arcade_gym/Tetris-v3"),
        "primitive_env_bytes": env_memory_bytes("arcade_gym/TetrisPrimitive-v3"),
    }
    durations: dict[str, float] = {}
    add_vector_figures(results, durations, "tetris_v3", "arcade_gym/Tetris-v3", seconds)
    # The same on the calling thread only (the default steps slices of games on every core).
    add_vector_figures(
        results, durations, "tetris_v3_1thread", "arcade_gym/Tetris-v3", seconds, threads=1
    )
    # With the two El-Tetris columns (placement_features="extended", the CEM baseline's input).
    add_vector_figures(
        results,
        durations,
        "tetris_v3_extended",
        "arcade_gym/Tetris-v3",
        seconds,
        placement_features="extended",
    )
    add_vector_figures(results, durations, "primitive", "arcade_gym/TetrisPrimitive-v3", seconds)
    return make_report(
        "tetris",
        seconds=seconds,
        compile_s=compile_s,
        results=results,
        targets={
            "tetris_v3_steps_per_s": 20_000,
            "primitive_steps_per_s": 150_000,
            "candidate_questions_per_s": 150_000,
            "tetris_v3_env_bytes": 1_000_000,
            f"tetris_v3_vector{VECTOR_BATCH}_steps_per_s": 300_000,
            f"primitive_vector{VECTOR_BATCH}_steps_per_s": 2_000_000,
        },
        peer=peer_status("tetris-gymnasium", "tetris_gymnasium"),
        durations=durations,
    )

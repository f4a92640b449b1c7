"""Tetris's own speed figures (`arcade-eval bench tetris` adds them to every env's steps/s).

`candidate_questions_per_s` is the question building the speed target names (one game, the raw
engine: every placement with its afterstate features); `question_objects_per_s` adds the contract
object a harness sends (pydantic, a grid per candidate). Beside them: a synchronous vector of
eight envs, the native vector env on one thread and with the extended placement features, env
memory, and the targets of both envs. `STEP_UNITS` says what one counted step of each env is.
"""

from __future__ import annotations

import time

import gymnasium as gym
import numpy as np

from arcade_gym.core.counting import StepUnit, VectorCounter
from arcade_gym.core.spaces import sample_rows
from arcade_gym.core.throughput import (
    VECTOR_BATCH,
    Figures,
    Peer,
    add_vector_figures,
    env_memory_bytes,
    passes_per_s,
    rate,
)
from arcade_gym.tetris import candidates as C
from arcade_gym.tetris.game import TetrisGame

TETRIS_ID = "arcade_gym/Tetris-v3"
PRIMITIVE_ID = "arcade_gym/TetrisPrimitive-v3"

STEP_UNITS = {
    "Tetris-v3": StepUnit(
        "one placement: the piece in play hard-dropped at a listed (x, rotation), or a hold; "
        "20x10 board, one player, guideline scoring"
    ),
    "TetrisPrimitive-v3": StepUnit(
        "one primitive control (left, right, rotate either way, soft or hard drop) and the "
        "gravity row after it; 20x10 board, one player"
    ),
}
"""What one counted step of each Tetris env is (`arcade_gym/core/counting.py`)."""

PEERS = "arcade_gym.tetris.peers:peer_pairs"
"""The pairs `arcade-eval bench --peers` measures (`arcade_gym/core/peers.py`)."""


def tetris_v3_vector_steps(seconds: float, num_envs: int = 8, seed: int = 0) -> float:
    """Counted steps per second of a synchronous vector of `Tetris-v3` envs (a slot's
    autoreset step is not counted)."""
    envs = gym.make_vec(TETRIS_ID, num_envs=num_envs, vectorization_mode="sync")
    counter = VectorCounter(envs, STEP_UNITS["Tetris-v3"], seed)
    rng = np.random.default_rng(seed)

    def run(deadline: float) -> int:
        steps = counter.tally.steps
        while time.perf_counter() < deadline:
            for _ in range(32):
                counter.step(sample_rows(counter.infos["action_mask"], rng))
        return counter.tally.steps - steps

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


def candidate_questions(seconds: float, seed: int = 0) -> float:
    """Raw engine: candidate generation with every afterstate's features (no Gym, no pydantic)."""
    positions = _sample_positions(512, seed)
    arrays = [(g.board, g.st, g.seq, g.cinfo, g.cfeat) for g in positions]
    generate = C.generate_candidates_into
    work, visited = C.scratch()

    def one_pass() -> None:
        for board, st, seq, cinfo, cfeat in arrays:
            generate(board, st, seq, cinfo, cfeat, work, visited)

    return passes_per_s(one_pass, len(arrays), seconds)


def question_objects(seconds: float, seed: int = 0) -> float:
    """Whole Tetris Bench questions (`TetrisGame.question`: the contract object, every
    candidate's grid and features) per second, the figure a harness pays each tick."""
    positions = _sample_positions(256, seed)

    def one_pass() -> None:
        for game in positions:
            game.question()

    return passes_per_s(one_pass, len(positions), seconds)


def bench_tetris(seconds: float = 3.0) -> Figures:
    """Tetris's figures beyond every env's generic steps/s, and the targets of both."""
    figures = Figures(
        results={
            "tetris_v3_vector8_steps_per_s": tetris_v3_vector_steps(seconds),
            "candidate_questions_per_s": candidate_questions(seconds),
            "question_objects_per_s": question_objects(seconds),
            "tetris_v3_env_bytes": env_memory_bytes(TETRIS_ID),
            "primitive_env_bytes": env_memory_bytes(PRIMITIVE_ID),
        },
        targets={
            "tetris_v3_steps_per_s": 20_000,
            "tetris_primitive_v3_steps_per_s": 150_000,
            "candidate_questions_per_s": 150_000,
            "tetris_v3_env_bytes": 1_000_000,
            f"tetris_v3_vector{VECTOR_BATCH}_steps_per_s": 300_000,
            f"tetris_primitive_v3_vector{VECTOR_BATCH}_steps_per_s": 2_000_000,
        },
        peer=Peer("tetris-gymnasium", "tetris_gymnasium"),
    )
    # The native vector env on the calling thread only (the default steps slices of games on
    # every core), and with the two El-Tetris columns (the CEM baseline's input).
    unit = STEP_UNITS["Tetris-v3"]
    for name, kwargs in (
        ("tetris_v3_1thread", {"threads": 1}),
        ("tetris_v3_extended", {"placement_features": "extended"}),
    ):
        add_vector_figures(
            figures.results, figures.durations, name, TETRIS_ID, seconds, unit=unit, **kwargs
        )
    figures.units.update(
        {
            "tetris_v3_vector8": f"{unit.text}; a synchronous vector of 8 envs",
            "candidate_questions": "one question: every placement of the piece in play with its "
            "afterstate features (the raw engine, no Gym, no pydantic)",
            "question_objects": "one Tetris Bench question object (pydantic, a grid per candidate)",
        }
    )
    return figures

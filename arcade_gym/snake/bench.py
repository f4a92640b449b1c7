"""Snake's own speed figures (`arcade-eval bench snake` adds them to `Snake-v0`'s steps/s): the
hard board, a synchronous vector of eight envs, questions per second and env memory.
`STEP_UNITS` says what one counted step of `Snake-v0` is."""

from __future__ import annotations

import time

import gymnasium as gym
import numpy as np

from arcade_gym.core.counting import StepUnit, VectorCounter
from arcade_gym.core.throughput import (
    VECTOR_BATCH,
    Figures,
    Peer,
    env_memory_bytes,
    masked_random_steps,
    passes_per_s,
    rate,
)
from arcade_gym.snake.game import SnakeGame

SNAKE_ID = "arcade_gym/Snake-v0"

STEP_UNITS = {
    "Snake-v0": StepUnit(
        "one move of the snake (any of the three directions that are not the reversal); "
        "easy 8x8 board unless the figure says hard (16x16), one player"
    ),
}
"""What one counted step of `Snake-v0` is (`arcade_gym/core/counting.py`)."""

PEERS = "arcade_gym.snake.peers:peer_pairs"
"""The pairs `arcade-eval bench --peers` measures (`arcade_gym/core/peers.py`)."""


def snake_v0_vector_steps(seconds: float, num_envs: int = 8, seed: int = 0) -> float:
    """Counted steps per second of a synchronous vector of `Snake-v0` envs (a slot's autoreset
    step is not counted)."""
    envs = gym.make_vec(SNAKE_ID, num_envs=num_envs, vectorization_mode="sync")
    counter = VectorCounter(envs, STEP_UNITS["Snake-v0"], seed)
    rng = np.random.default_rng(seed)

    def run(deadline: float) -> int:
        steps = counter.tally.steps
        while time.perf_counter() < deadline:
            for _ in range(64):
                # the reversal is the one masked action: step one of the other three
                offsets = rng.integers(1, 4, num_envs)
                reversal = np.argmin(counter.infos["action_mask"], axis=1)
                counter.step((reversal + offsets) % 4)
        return counter.tally.steps - steps

    return rate(run, seconds)


def questions(seconds: float, seed: int = 0) -> float:
    """`SnakeGame.question()` (the pydantic question every harness decision builds) per second,
    on positions of a random game."""
    rng = np.random.default_rng(seed)
    games: list[SnakeGame] = []
    game = SnakeGame(seed)
    while len(games) < 256:
        if game.over:
            game = SnakeGame(int(rng.integers(2**62)))
        games.append(game.copy())
        game.step(int(rng.choice(game.legal_directions())))

    def one_pass() -> None:
        for g in games:
            g.question()

    return passes_per_s(one_pass, len(games), seconds)


def bench_snake(seconds: float = 3.0) -> Figures:
    """Snake's figures beyond `Snake-v0`'s generic steps/s, and the targets."""
    return Figures(
        results={
            "snake_v0_hard_steps_per_s": masked_random_steps(
                SNAKE_ID, seconds, unit=STEP_UNITS["Snake-v0"], difficulty="hard"
            ),
            "snake_v0_vector8_steps_per_s": snake_v0_vector_steps(seconds),
            "snake_questions_per_s": questions(seconds),
            "snake_v0_env_bytes": env_memory_bytes(SNAKE_ID),
        },
        targets={
            "snake_v0_steps_per_s": 150_000,
            f"snake_v0_vector{VECTOR_BATCH}_steps_per_s": 3_800_000,
        },
        peer=Peer("jumanji Snake-v1", "jumanji"),
        units={
            "snake_v0_vector8": f"{STEP_UNITS['Snake-v0'].text}; a synchronous vector of 8 envs",
            "snake_questions": "one SnakeQuestion (pydantic) of a random game's position",
        },
    )

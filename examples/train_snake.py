"""Train PPO on NARCADE Snake (easy, 8x8) with the native vector env: N games per numba call.

`gym.make_vec("arcade_gym/Snake-v0", num_envs=N, vectorization_mode="vector_entry_point")`
steps every game in one kernel; `policies/sb3/vecenv.py` hands it to SB3 as a `VecEnv`. The
observation is `"flat"` (the five board planes and the length as one vector) for `MlpPolicy`.
Prints the mean length of recent games, saves the model, then plays it. Score it with the
official harness (easy board):

    arcade-eval narcade --policy sb3:models/snake-ppo.zip --games snake --difficulty easy ...

Budgets: `--minutes` (wall time) and `--timesteps`. Needs the `rl` extra.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import gymnasium as gym
import numpy as np
import torch
from stable_baselines3 import PPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import VecMonitor

import arcade_gym  # noqa: F401  (registers the arcade_gym/ envs)
from policies.sb3.vecenv import NativeVecEnv

START_LENGTH = 3


class Progress(BaseCallback):
    """Prints the mean final length of recent games now and then; stops at the deadline."""

    def __init__(self, deadline: float, every: int) -> None:
        super().__init__()
        self.deadline, self.every, self.next_print = deadline, every, every
        self.lengths: list[int] = []

    def _on_step(self) -> bool:
        for info in self.locals["infos"]:
            if "score" in info:
                self.lengths.append(START_LENGTH + int(info["score"]))
        if self.num_timesteps >= self.next_print:
            self.next_print += self.every
            recent = self.lengths[-200:] or [START_LENGTH]
            print(
                f"ppo steps {self.num_timesteps}: games {len(self.lengths)}, mean length of the "
                f"last 200 {np.mean(recent):.2f}",
                flush=True,
            )
        return time.monotonic() < self.deadline


def evaluate(path: Path, games: int) -> float:
    """Mean final length of `games` games on the single env, greedy."""
    model = PPO.load(path, device="cpu")
    env = gym.make("arcade_gym/Snake-v0", observation="flat")
    lengths = []
    for seed in range(games):
        observation, info = env.reset(seed=10_000 + seed)
        done = False
        while not done:
            action, _ = model.predict(observation, deterministic=True)
            observation, _, terminated, truncated, info = env.step(int(action))
            done = terminated or truncated
        lengths.append(info["length"])
    mean = float(np.mean(lengths))
    print(f"{path.name}: mean length {mean:.2f} over {games} games ({info['end_reason']} last)")
    return mean


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=15.0, help="wall-time budget")
    parser.add_argument("--timesteps", type=int, default=0, help="step budget (0: minutes only)")
    parser.add_argument("--out", default="models/snake-ppo.zip", help="model path")
    parser.add_argument("--envs", type=int, default=64, help="games in the vector env")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--gamma", type=float, default=0.99, help="PPO discount")
    parser.add_argument("--eval-games", type=int, default=20, help="games played after training")
    args = parser.parse_args()
    torch.set_num_threads(1)
    vector = gym.make_vec(
        "arcade_gym/Snake-v0",
        num_envs=args.envs,
        vectorization_mode="vector_entry_point",
        difficulty="easy",
        observation="flat",
    )
    env = VecMonitor(NativeVecEnv(vector, seed=args.seed))
    model = PPO(
        "MlpPolicy",
        env,
        n_steps=max(8, 4096 // args.envs),
        batch_size=1024,
        n_epochs=4,
        gamma=args.gamma,
        learning_rate=5e-4,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [256, 256]},
        seed=args.seed,
    )
    steps = args.timesteps or 10**9
    deadline = time.monotonic() + 60 * args.minutes
    every = max(model.n_steps * args.envs, min(steps // 20, 50_000))
    model.learn(total_timesteps=steps, callback=Progress(deadline, every))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    print(f"saved {out}")
    evaluate(out, args.eval_games)


if __name__ == "__main__":
    main()

"""Train PPO on 3x3 tic-tac-toe against the sparring ladder, without action masks.

Plain PPO does not mask, so the env runs with `illegal_action="penalty"`: a move on an occupied
square changes nothing and pays -1 (counted against the game's plies), and the agent learns to
avoid it. Training climbs the ladder on the native vector env (`policies/sb3/vecenv.py`): first
the random partner, then the greedy one (win, else block, else random), playing X and O in turn.
Prints progress, saves the model, then plays every rung (random, greedy, tactician, perfect) on
the single env. Score it in the arena (its 3x3 positions and matches; a 3x3 model answers no
larger board):

    arcade-eval ttt-arena --policy sb3:models/tictactoe-ppo.zip --output-dir runs/arena-ppo

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

LADDER = ("random", "greedy")
"""The partners trained against, in order (the ones the vector env plays in its kernel)."""
RUNGS = ("random", "greedy", "tactician", "perfect")


def vector_env(opponent: str, envs: int, seed: int) -> VecMonitor:
    vector = gym.make_vec(
        "arcade_gym/TicTacToe-v0",
        num_envs=envs,
        vectorization_mode="vector_entry_point",
        opponent=opponent,
        agent_mark="alternate",
        observation="flat",
        illegal_action="penalty",
    )
    return VecMonitor(NativeVecEnv(vector, seed=seed))


class Progress(BaseCallback):
    """Prints the recent mean return and illegal-move rate; stops at the phase's deadline."""

    def __init__(self, opponent: str, deadline: float, every: int) -> None:
        super().__init__()
        self.opponent, self.deadline, self.every = opponent, deadline, every
        self.next_print = every
        self.returns: list[float] = []

    def _on_step(self) -> bool:
        for info in self.locals["infos"]:
            if "episode" in info:
                self.returns.append(float(info["episode"]["r"]))
        if self.num_timesteps >= self.next_print:
            self.next_print += self.every
            print(
                f"vs {self.opponent}, steps {self.num_timesteps}: games {len(self.returns)}, mean "
                f"return of the last 500 {np.mean(self.returns[-500:] or [0]):+.3f}",
                flush=True,
            )
        return time.monotonic() < self.deadline


def play(model: PPO, opponent: str, games: int) -> dict[str, int]:
    """Wins, draws, losses and illegal moves over `games` games (X and O in turn), greedy."""
    env = gym.make(
        "arcade_gym/TicTacToe-v0",
        opponent=opponent,
        agent_mark="alternate",
        observation="flat",
        illegal_action="penalty",
    )
    tally = {"win": 0, "draw": 0, "loss": 0, "illegal": 0}
    observation, info = env.reset(seed=0)
    for _ in range(games):
        done = False
        reward = 0.0
        while not done:
            action, _ = model.predict(observation, deterministic=True)
            observation, reward, terminated, truncated, info = env.step(int(action))
            tally["illegal"] += int(info.get("illegal", False))
            done = terminated or truncated
        tally["win" if reward > 0 else "loss" if reward < 0 else "draw"] += 1
        observation, info = env.reset()
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=6.0, help="wall-time budget")
    parser.add_argument("--timesteps", type=int, default=0, help="step budget (0: minutes only)")
    parser.add_argument("--out", default="models/tictactoe-ppo.zip", help="model path")
    parser.add_argument("--envs", type=int, default=64, help="games in the vector env")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval-games", type=int, default=100, help="games per rung afterwards")
    args = parser.parse_args()
    torch.set_num_threads(1)
    model = PPO(
        "MlpPolicy",
        vector_env(LADDER[0], args.envs, args.seed),
        n_steps=max(8, 2048 // args.envs),
        batch_size=512,
        n_epochs=4,
        gamma=0.99,
        learning_rate=5e-4,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [128, 128]},
        seed=args.seed,
    )
    phase_steps = (args.timesteps or 10**9) // len(LADDER)
    for rung, opponent in enumerate(LADDER):
        if rung:
            model.set_env(vector_env(opponent, args.envs, args.seed + rung))
        deadline = time.monotonic() + 60 * args.minutes / len(LADDER)
        every = max(model.n_steps * args.envs, min(phase_steps // 10, 50_000))
        model.learn(
            phase_steps, callback=Progress(opponent, deadline, every), reset_num_timesteps=False
        )
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    print(f"saved {out}")
    for opponent in RUNGS:
        tally = play(model, opponent, args.eval_games)
        print(f"vs {opponent}: " + ", ".join(f"{k} {v}" for k, v in tally.items()))


if __name__ == "__main__":
    main()

"""Train MaskablePPO (sb3-contrib) on Tetris-v3 for a few thousand steps.

Needs the `rl` extra: `pip install torch==2.13.0 && pip install -e ".[rl]"` (the torch line keeps
pip from downloading a CUDA build). `--steps` sets the budget; the default is a smoke run.
"""

from __future__ import annotations

import argparse

import gymnasium as gym
from sb3_contrib import MaskablePPO

import arcade_gym  # noqa: F401  (registers the arcade_gym/ envs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=4096, help="environment steps to train for")
    args = parser.parse_args()
    env = gym.make("arcade_gym/Tetris-v3")
    model = MaskablePPO("MultiInputPolicy", env, n_steps=512, batch_size=128, seed=0, verbose=0)
    model.learn(total_timesteps=args.steps)
    observation, info = env.reset(seed=1)
    done = False
    while not done:
        action, _ = model.predict(observation, action_masks=info["action_mask"].astype(bool))
        observation, _, terminated, truncated, info = env.step(int(action))
        done = terminated or truncated
    print(f"after {args.steps} steps: score {info['score']}, pieces {info['pieces']}")


if __name__ == "__main__":
    main()

"""Play Tetris-v3 with uniform legal actions and print the board: the smallest complete loop."""

from __future__ import annotations

import gymnasium as gym

import arcade_gym  # noqa: F401  (registers the arcade_gym/ envs)

env = gym.make("arcade_gym/Tetris-v3", render_mode="ansi")
observation, info = env.reset(seed=0)
total = 0.0
terminated = truncated = False
while not (terminated or truncated):
    action = env.action_space.sample()  # MaskedDiscrete: always a legal placement (or hold)
    observation, reward, terminated, truncated, info = env.step(action)
    total += float(reward)
print(env.render())
print(f"episode over: {info['end_reason']}, score {info['score']}, return {total:.0f}")

"""The play setup of a game no benchmark records: its first env, played directly (`env_episode`,
`env_keys`), so any registered game is playable the moment its folder exists."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from arcade_gym.core.descriptor import GameDescriptor
from evaluation.play.human import Human
from evaluation.play.setups import HUMAN_LIMIT_MS, PlayError, PlayOption, PlaySetup, Setup, whole


def env_setup(game: GameDescriptor) -> PlaySetup:
    """`arcade-eval play NAME` for game `game` on its first env, seeded by `--seed`."""
    entry = game.envs[0]

    def setup(args: argparse.Namespace) -> Setup:
        from arcade_gym.registration import NAMESPACE, register_envs
        from evaluation.play import ENV_LOG_ID
        from evaluation.play.env_episode import MAX_STEPS, EnvEpisode, env_settings, play_env_game
        from evaluation.play.env_keys import EnvKeys

        seed = 0 if args.seed is None else whole(args.seed, "--seed")
        if seed < 0:
            raise PlayError(f"--seed must be >= 0, got {seed}")
        register_envs()  # a game registered after arcade_gym was imported
        env_id = f"{NAMESPACE}/{entry.id}"
        try:
            episode = EnvEpisode(env_id, seed, HUMAN_LIMIT_MS, MAX_STEPS)
        except ValueError as error:
            raise PlayError(str(error)) from None
        settings = env_settings(game.name, env_id, HUMAN_LIMIT_MS)

        def play(human: Human, log: Path) -> Any:
            return play_env_game(human, episode, settings, seed, log)

        keys = EnvKeys(game.title)
        run = {"envId": env_id}
        return Setup(ENV_LOG_ID, keys, seed, run, play, episode.close)

    return PlaySetup(
        name=game.name,
        game=game.name,
        summary=f"{game.title}: its env {entry.id} directly, one action index a move",
        options=(PlayOption("seed", "an env seed, env.reset(seed=N) (default 0)"),),
        setup=setup,
    )

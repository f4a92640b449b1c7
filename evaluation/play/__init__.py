"""`arcade-eval play GAME`: a person plays a benchmark's game in the terminal.

A person is a policy (`human.Human`): keystrokes become answers to the very questions the benchmark
asks any policy, played by the one episode loop and recorded by the benchmark's own play function,
so `arcade-eval verify` replays a person's game like any other. Nothing here names a game: each
benchmark declares its games' setups and keys in `evaluation/benchmarks/<name>/play.py`
(`setups.PlaySetup`, the `Benchmark.play` field); `catalogue` gathers them and gives every game no
benchmark plays a setup on its env (`env_setup`, `env_episode`, `env_keys`); `command` is the
sub-command; `screen` is curses; `cursor` a cell cursor the board games' keys share.

The logs of the games played on their env (`ENV_LOG_ID`) are registered here as a log kind, so
`arcade-eval verify` replays them as it replays a benchmark's (`env_episode.replay_env`).
"""

from __future__ import annotations

from evaluation.core.registry import Benchmark, lazy, register_log_kind

ENV_LOG_ID = "play-env"
"""The `benchmark` of a log of a game played on its env directly."""


def _no_commands(subparsers: object) -> None:
    """A log kind adds no command (`arcade-eval play` is the command that writes these logs)."""


register_log_kind(
    Benchmark(
        name=ENV_LOG_ID,
        summary="a game played on its env directly (`arcade-eval play`)",
        log_ids=(ENV_LOG_ID,),
        add_parsers=_no_commands,
        replay=lazy("evaluation.play.env_episode:replay_env"),
    )
)

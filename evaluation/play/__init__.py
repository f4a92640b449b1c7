"""`arcade-eval play GAME`: a person plays a benchmark's game in the terminal.

A person is a policy (`human.Human`): keystrokes become answers to the very questions the benchmark
asks any policy, played by the one episode loop and recorded by the benchmark's own play function,
so `arcade-eval verify` replays a person's game like any other. Nothing here names a game: each
benchmark declares its games' setups and keys in `evaluation/benchmarks/<name>/play.py`
(`setups.PlaySetup`, the `Benchmark.play` field); `catalogue` gathers them and gives every game no
benchmark plays a setup on its env (`env_setup`, `env_episode`, `env_keys`); `command` is the
sub-command; `screen` is curses; `cursor` a cell cursor the board games' keys share.
"""

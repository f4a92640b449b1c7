"""The timing loops every speed bench shares, and the figures a game's own bench hands back.

`arcade-eval bench` (`evaluation/throughput/`) measures every registered env with these loops; a
game's `bench.py` (named by its descriptor's `bench` field) adds only what no generic loop can
measure and returns it as `Figures`. Speed is measured here, never asserted in tests; callers warm
the kernels first, so compile time (or numba's cache load) is reported apart from throughput.
"""

from __future__ import annotations

import gc
import re
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym
import numpy as np

VECTOR_BATCH = 1024
"""Games per native vector env in the batched figures (the issue asks for 256 or more)."""


@dataclass(frozen=True)
class Peer:
    """A library to compare against: `module` is what it imports as. `measured_as` names the
    figure of the same report that measures it, when the bench measured it."""

    name: str
    module: str
    missing_note: str = ""
    measured_as: str | None = None


@dataclass
class Figures:
    """What a bench adds to a report: rates under `results`, their `targets`, wall times under
    `durations`, the seconds its own warmup took beyond the game's (`compile_s`), a `peer`, and
    `extra` top-level report keys (a ratio between two of its figures, say)."""

    results: dict[str, float] = field(default_factory=dict)
    targets: dict[str, float] = field(default_factory=dict)
    durations: dict[str, float] = field(default_factory=dict)
    compile_s: float = 0.0
    peer: Peer | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def env_key(env_id: str) -> str:
    """The prefix of an env's figures: `Tetris-v3` -> `tetris_v3`, `TicTacToe-v0` ->
    `tic_tac_toe_v0` (a namespace before `/` is dropped)."""
    name = env_id.rsplit("/", 1)[-1]
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).replace("-", "_").lower()


def rate(run: Callable[[float], int], seconds: float, *, cpu_time: bool = False) -> float:
    """Operations per second of `run(deadline) -> operations done`.

    `cpu_time=True` divides by this process's CPU time instead of the wall clock: the figure a
    quiet machine would show when other work shares the cores.
    """
    t0 = time.perf_counter()
    c0 = time.process_time()
    done = run(t0 + seconds)
    elapsed = time.process_time() - c0 if cpu_time else time.perf_counter() - t0
    return done / max(elapsed, 1e-9)


def passes_per_s(one_pass: Callable[[], None], per_pass: int, seconds: float) -> float:
    """Items per second of `one_pass()` (which handles `per_pass` items), repeated for `seconds`
    and run at least once."""

    def run(deadline: float) -> int:
        done = 0
        while True:
            one_pass()
            done += per_pass
            if time.perf_counter() >= deadline:
                return done

    return rate(run, seconds)


def _random_step_loop(env: gym.Env[Any, Any], seed: int) -> Callable[[float], int]:
    """Steps of `env` with uniform random legal actions until a deadline, resetting at episode
    end. A Discrete action is drawn by rejection from a pre-drawn stream of uniform indices
    against `info["action_mask"]` (every action when the env gives no mask): exactly uniform
    over the mask and cheaper than listing the legal actions every step, so the figure measures
    the env rather than the chooser (a mask that allows nothing is a ValueError). Any other
    action space is sampled by the space itself."""
    _, info = env.reset(seed=seed)
    space = env.action_space
    discrete = space if isinstance(space, gym.spaces.Discrete) else None
    n_actions = int(discrete.n) if discrete is not None else 1
    start = int(discrete.start) if discrete is not None else 0
    every = np.ones(n_actions, np.bool_)
    draws = np.random.default_rng(seed).integers(0, n_actions, 1 << 16).tolist()
    space.seed(seed)
    name = env.spec.id if env.spec is not None else type(env).__name__

    def run(deadline: float) -> int:
        nonlocal info
        steps = k = 0
        while True:
            for _ in range(256):
                if discrete is None:
                    action: Any = space.sample()
                else:
                    mask = info.get("action_mask", every)
                    a = draws[k & 0xFFFF]
                    k += 1
                    tries = 0
                    while not mask[a]:
                        a = draws[k & 0xFFFF]
                        k += 1
                        tries += 1
                        if tries > 1 << 16:
                            raise ValueError(f"{name}: its action_mask allows no action")
                    action = start + a
                _, _, terminated, truncated, info = env.step(action)
                steps += 1
                if terminated or truncated:
                    _, info = env.reset()
            if time.perf_counter() >= deadline:
                return steps

    return run


def random_step_rates(
    env_id: str, seconds: float, *, seed: int = 0, **make_kwargs: Any
) -> dict[str, float]:
    """Steps of `gym.make(env_id)` with uniform random legal actions (resets included), per
    second of wall clock (`steps_per_s`) and of this process's CPU time (`steps_per_cpu_s`),
    both from the one run."""
    run = _random_step_loop(gym.make(env_id, **make_kwargs), seed)
    t0, c0 = time.perf_counter(), time.process_time()
    steps = run(t0 + seconds)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {"steps_per_s": steps / max(wall, 1e-9), "steps_per_cpu_s": steps / max(cpu, 1e-9)}


def masked_random_steps(
    env_id: str, seconds: float, *, seed: int = 0, cpu_time: bool = False, **make_kwargs: Any
) -> float:
    """Steps per second of `gym.make(env_id)` with uniform random legal actions, resetting at
    episode end (the loop of `random_step_rates`); `cpu_time=True`: per CPU second."""
    return rate(
        _random_step_loop(gym.make(env_id, **make_kwargs), seed), seconds, cpu_time=cpu_time
    )


def vector_steps(
    env_id: str,
    seconds: float,
    *,
    num_envs: int = VECTOR_BATCH,
    repeats: int = 5,
    seed: int = 0,
    **make_kwargs: Any,
) -> dict[str, float]:
    """Total steps per second of `gym.make_vec(env_id, num_envs, "vector_entry_point")` with
    random legal actions from its batched masked sampler, autoreset included.

    The first reset and step (numba compiling the batch kernels, or loading them from its cache)
    are timed apart as `compile_s`; then `repeats` windows of `seconds / repeats` each give the
    median wall-clock and CPU-time rates.
    """
    t0 = time.perf_counter()
    envs = gym.make_vec(
        env_id, num_envs=num_envs, vectorization_mode="vector_entry_point", **make_kwargs
    )
    envs.reset(seed=seed)
    envs.step(envs.action_space.sample())
    compile_s = time.perf_counter() - t0
    walls, cpus = [], []
    for _ in range(repeats):
        w0, c0 = time.perf_counter(), time.process_time()
        deadline = w0 + seconds / repeats
        steps = 0
        while time.perf_counter() < deadline:
            for _ in range(8):
                envs.step(envs.action_space.sample())
            steps += 8 * num_envs
        walls.append(steps / (time.perf_counter() - w0))
        cpus.append(steps / max(time.process_time() - c0, 1e-9))
    envs.close()
    return {
        "steps_per_s": float(np.median(walls)),
        "steps_per_cpu_s": float(np.median(cpus)),
        "compile_s": compile_s,
    }


def add_vector_figures(
    results: dict[str, float],
    durations: dict[str, float],
    name: str,
    env_id: str,
    seconds: float,
    **make_kwargs: Any,
) -> None:
    """Put `vector_steps` into a report: `<name>_vector1024_steps_per_s` (and per CPU second)
    beside the single-env figures, and its compile time under `seconds`."""
    figures = vector_steps(env_id, seconds, **make_kwargs)
    key = f"{name}_vector{VECTOR_BATCH}"
    results[f"{key}_steps_per_s"] = figures["steps_per_s"]
    results[f"{key}_steps_per_cpu_s"] = figures["steps_per_cpu_s"]
    durations[f"{key}_compile_or_cache_load"] = figures["compile_s"]


def aec_random_steps(env: Any, seed: int = 0) -> Callable[[float], int]:
    """A PettingZoo AEC env's steps until a deadline (`last`, then `step`), each move uniform
    among the legal ones of the observation's `action_mask`; dead steps of finished agents and
    resets are included. The returned runner keeps its game between calls, so two runners can be
    interleaved in chunks."""
    env.reset(seed=seed)
    u = np.random.default_rng(seed).random(1 << 16).tolist()
    count = 0

    def run(deadline: float) -> int:
        nonlocal count
        steps = 0
        while True:
            for _ in range(128):
                obs, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                    if not env.agents:
                        env.reset()
                else:
                    legal = np.flatnonzero(obs["action_mask"])
                    env.step(int(legal[int(u[count & 0xFFFF] * legal.size)]))
                steps += 1
                count += 1
            if time.perf_counter() >= deadline:
                return steps

    return run


def env_memory_bytes(env_id: str, count: int = 50, **make_kwargs: Any) -> float:
    """Python-heap bytes each extra reset env instance adds (tracemalloc, numpy included)."""
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    envs = []
    for i in range(count):
        env = gym.make(env_id, **make_kwargs)
        env.reset(seed=i)
        envs.append(env)
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before) / count

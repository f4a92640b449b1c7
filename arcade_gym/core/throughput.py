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

from arcade_gym.core.counting import (
    DEFAULT_UNIT,
    AecCounter,
    EnvCounter,
    StepUnit,
    Tally,
    VectorCounter,
)

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
    `durations`, the seconds its own warmup took beyond the game's (`compile_s`), a `peer`,
    `extra` top-level report keys (a ratio between two of its figures, say), and `units`: what
    one counted step (or item) of the figures starting with each key is."""

    results: dict[str, float] = field(default_factory=dict)
    targets: dict[str, float] = field(default_factory=dict)
    durations: dict[str, float] = field(default_factory=dict)
    compile_s: float = 0.0
    peer: Peer | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    units: dict[str, str] = field(default_factory=dict)


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


def random_legal(mask: np.ndarray, draws: list[float], k: int) -> tuple[int, int]:
    """A uniform legal index of `mask` by rejection from a stream of uniform floats in [0, 1)
    (`draws`, a power-of-two long list, read from position `k`): exactly uniform over the mask
    and cheaper than listing the legal actions every step. Returns `(action, next k)`;
    ValueError when the mask allows nothing."""
    size = len(draws) - 1
    n = len(mask)
    a = int(draws[k & size] * n)
    k += 1
    tries = 0
    while not mask[a]:
        a = int(draws[k & size] * n)
        k += 1
        tries += 1
        if tries > size:
            raise ValueError("the action mask allows no action")
    return a, k


def single_runner(counter: EnvCounter, seed: int) -> Callable[[float], int]:
    """`counter`'s env stepped with uniform random legal actions of its unit's kind until a
    deadline; returns the steps counted (its tally keeps resets and plies). A Discrete action is
    drawn by `random_legal`; any other action space is sampled by the space itself."""
    env = counter.env
    space = env.action_space
    discrete = space if isinstance(space, gym.spaces.Discrete) else None
    start = int(discrete.start) if discrete is not None else 0
    draws = np.random.default_rng(seed).random(1 << 16).tolist()
    space.seed(seed)
    k = 0

    def run(deadline: float) -> int:
        nonlocal k
        steps = counter.tally.steps
        while True:
            for _ in range(256):
                if discrete is None:
                    action: Any = space.sample()
                else:
                    a, k = random_legal(counter.mask(), draws, k)
                    action = start + a
                counter.step(action)
            if time.perf_counter() >= deadline:
                return counter.tally.steps - steps

    return run


def vector_runner(
    counter: VectorCounter, seed: int, *, plies: bool = False
) -> Callable[[float], int]:
    """`counter`'s vector env stepped with random legal actions of its unit's kind (the batched
    sampler of its action space) until a deadline; returns the steps counted, or the plies with
    `plies=True`."""
    space = counter.envs.action_space
    space.seed(seed)

    def run(deadline: float) -> int:
        before = counter.tally.plies if plies else counter.tally.steps
        while True:
            for _ in range(8):
                counter.step(space.sample(mask=counter.masks()))
            if time.perf_counter() >= deadline:
                after = counter.tally.plies if plies else counter.tally.steps
                return after - before

    return run


def _per_second(done: Tally, wall: float, cpu: float, plies: bool) -> dict[str, float]:
    """A tally as rates: steps per wall and CPU second, resets per second, plies per second when
    `plies` (the unit counts them for this kind of env)."""
    rates = {
        "steps_per_s": done.steps / max(wall, 1e-9),
        "steps_per_cpu_s": done.steps / max(cpu, 1e-9),
        "resets_per_s": done.resets / max(wall, 1e-9),
    }
    if plies:
        rates["plies_per_s"] = done.plies / max(wall, 1e-9)
        rates["plies_per_cpu_s"] = done.plies / max(cpu, 1e-9)
    return rates


def random_step_rates(
    env_id: str,
    seconds: float,
    *,
    seed: int = 0,
    unit: StepUnit = DEFAULT_UNIT,
    **make_kwargs: Any,
) -> dict[str, float]:
    """Counted steps of `gym.make(env_id)` with uniform random legal actions of the unit's kind,
    per second of wall clock (`steps_per_s`) and of this process's CPU time (`steps_per_cpu_s`),
    from the one run: resets are timed (a game has to start) but never counted as steps; they
    are `resets_per_s`, and the plies of a two-player step `plies_per_s`."""
    counter = EnvCounter(gym.make(env_id, **make_kwargs), unit, seed)
    run = single_runner(counter, seed)
    before = counter.tally.copy()
    t0, c0 = time.perf_counter(), time.process_time()
    run(t0 + seconds)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    done = counter.tally.since(before)
    return _per_second(done, wall, cpu, unit.plies is not None)


def masked_random_steps(
    env_id: str,
    seconds: float,
    *,
    seed: int = 0,
    cpu_time: bool = False,
    unit: StepUnit = DEFAULT_UNIT,
    **make_kwargs: Any,
) -> float:
    """Counted steps per second of `gym.make(env_id)` with uniform random legal actions (the
    loop of `random_step_rates`); `cpu_time=True`: per CPU second."""
    rates = random_step_rates(env_id, seconds, seed=seed, unit=unit, **make_kwargs)
    return rates["steps_per_cpu_s" if cpu_time else "steps_per_s"]


def vector_steps(
    env_id: str,
    seconds: float,
    *,
    num_envs: int = VECTOR_BATCH,
    repeats: int = 5,
    seed: int = 0,
    unit: StepUnit = DEFAULT_UNIT,
    **make_kwargs: Any,
) -> dict[str, float]:
    """Counted steps per second of `gym.make_vec(env_id, num_envs, "vector_entry_point")` with
    random legal actions of the unit's kind (`VectorCounter`: a slot's autoreset step is dead,
    not counted), summed over its games.

    The first reset and step (numba compiling the batch kernels, or loading them from its cache)
    are timed apart as `compile_s`; then `repeats` windows of `seconds / repeats` each give the
    median wall-clock and CPU-time rates (`resets_per_s` and `plies_per_s` likewise).
    """
    t0 = time.perf_counter()
    envs = gym.make_vec(
        env_id, num_envs=num_envs, vectorization_mode="vector_entry_point", **make_kwargs
    )
    counter = VectorCounter(envs, unit, seed)
    space = envs.action_space
    space.seed(seed)
    counter.step(space.sample(mask=counter.masks()))
    compile_s = time.perf_counter() - t0
    windows = []
    for _ in range(repeats):
        before = counter.tally.copy()
        w0, c0 = time.perf_counter(), time.process_time()
        deadline = w0 + seconds / repeats
        while time.perf_counter() < deadline:
            for _ in range(8):
                counter.step(space.sample(mask=counter.masks()))
        wall, cpu = time.perf_counter() - w0, time.process_time() - c0
        done = counter.tally.since(before)
        windows.append(_per_second(done, wall, cpu, unit.vector_plies is not None))
    envs.close()
    figures = {name: float(np.median([w[name] for w in windows])) for name in windows[0]}
    figures["compile_s"] = compile_s
    return figures


def add_vector_figures(
    results: dict[str, float],
    durations: dict[str, float],
    name: str,
    env_id: str,
    seconds: float,
    *,
    unit: StepUnit = DEFAULT_UNIT,
    **make_kwargs: Any,
) -> None:
    """Put `vector_steps` into a report: `<name>_vector1024_steps_per_s` (and per CPU second,
    plies when the unit counts them) beside the single-env figures, and its compile time under
    `seconds`."""
    figures = vector_steps(env_id, seconds, unit=unit, **make_kwargs)
    key = f"{name}_vector{VECTOR_BATCH}"
    for figure in ("steps_per_s", "steps_per_cpu_s", "plies_per_s", "plies_per_cpu_s"):
        if figure in figures:
            results[f"{key}_{figure}"] = figures[figure]
    durations[f"{key}_compile_or_cache_load"] = figures["compile_s"]


def aec_runner(counter: AecCounter, seed: int = 0) -> Callable[[float], int]:
    """A PettingZoo AEC env's plies until a deadline (`last`, then `step`), each move uniform
    among the legal ones of the observation's `action_mask`: finished agents' dead steps and
    resets are played (and timed) but never counted. The runner keeps its game between calls,
    so two runners can be interleaved in chunks; it returns the plies of this call."""
    u = np.random.default_rng(seed).random(1 << 16).tolist()
    count = 0

    def run(deadline: float) -> int:
        nonlocal count
        plies = counter.tally.plies
        while True:
            for _ in range(128):
                mask = counter.mask()
                if mask is None:
                    counter.step(None)
                    continue
                legal = np.flatnonzero(mask)
                counter.step(int(legal[int(u[count & 0xFFFF] * legal.size)]))
                count += 1
            if time.perf_counter() >= deadline:
                return counter.tally.plies - plies

    return run


def aec_random_steps(env: Any, seed: int = 0) -> Callable[[float], int]:
    """`aec_runner` on a fresh `AecCounter` of `env`: plies (dead steps excluded) until a
    deadline."""
    return aec_runner(AecCounter(env, seed), seed)


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

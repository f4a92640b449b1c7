"""Our envs beside their peers (issue 23, item 5): the pairs `arcade-eval bench --peers` measures.

A `PeerPair` is one figure of ours and the same figure of a peer library (Jumanji, pgx,
PettingZoo, tetris-gymnasium), the same game on the same board where the peer allows it, counted
in the same unit (`unit` says it for both sides). Each side is built by a function of the batch
size N that returns a runner (`run(deadline) -> steps counted`) and the seconds its first call
took (JAX's compile, or our kernels' cache load), so compile time is reported apart. The two
runners alternate in short chunks in one process (`interleaved`): the machine's load shifts both
alike, and the rates are per second of wall clock and of CPU time.

The pairs live in each game's folder (`arcade_gym/<game>/peers.py`, named by its bench module's
`PEERS`); the peers themselves are the optional `peers` extra, imported only when a pair is
built, so this module and the core install need none of them.
"""

from __future__ import annotations

import importlib.util
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import gymnasium as gym

from arcade_gym.core.counting import DEFAULT_UNIT, AecCounter, EnvCounter, StepUnit, VectorCounter
from arcade_gym.core.throughput import aec_runner, single_runner, vector_runner

Runner = Callable[[float], int]
"""`run(deadline) -> steps counted` until the perf-counter deadline; it keeps its games."""

Built = tuple[Runner, float]
"""A built side: its runner and the seconds its construction and first call took."""


@dataclass(frozen=True)
class PeerPair:
    """One figure of ours and a peer's.

    `kind` is `single` (one env, one call per step) or `batched` (our native vector env against
    the peer's `jax.vmap` + `lax.scan`). `ours(n)` and `peer(n)` build a side for N games (1 for
    single). A batched pair is measured at `games` on both sides, then each side at its best N
    of `sweep` (a short probe picks it). `requires` names the modules the peer needs.
    """

    name: str
    kind: str
    unit: str
    ours: Callable[[int], Built]
    peer: Callable[[int], Built]
    requires: tuple[str, ...]
    games: int = 1
    sweep: tuple[int, ...] = ()

    def available(self) -> bool:
        """Whether every module the peer needs is installed."""
        return all(installed(module) for module in self.requires)


def installed(module: str) -> bool:
    """Whether `module` can be imported (found, and not blocked in `sys.modules`)."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def timed(build: Callable[[], Runner]) -> Built:
    """`build()` and its runner's first chunk (compile or cache load) timed together."""
    t0 = time.perf_counter()
    run = build()
    run(0.0)
    return run, time.perf_counter() - t0


def interleaved(
    runners: dict[str, Runner], seconds: float, chunks: int = 6
) -> dict[str, dict[str, float]]:
    """Each runner's counted steps per wall and CPU second, measured in `chunks` alternating
    turns of `seconds / chunks` each (so both sides meet the same load)."""
    done = dict.fromkeys(runners, 0)
    wall = dict.fromkeys(runners, 0.0)
    cpu = dict.fromkeys(runners, 0.0)
    for _ in range(chunks):
        for name, run in runners.items():
            w0, c0 = time.perf_counter(), time.process_time()
            done[name] += run(w0 + seconds / chunks)
            wall[name] += time.perf_counter() - w0
            cpu[name] += time.process_time() - c0
    return {
        name: {
            "steps_per_s": done[name] / max(wall[name], 1e-9),
            "steps_per_cpu_s": done[name] / max(cpu[name], 1e-9),
            "steps": float(done[name]),
        }
        for name in runners
    }


def best_games(
    build: Callable[[int], Built], sweep: tuple[int, ...], seconds: float, rounds: int = 3
) -> int:
    """The N of `sweep` at which a side steps the most per wall second: each N is built once and
    probed `rounds` times in turn (`seconds / rounds` a probe), and its best probe counts, so a
    load spike during one probe does not pick a slow N."""
    runners = [build(n)[0] for n in sweep]
    best_rate = [0.0] * len(sweep)
    for _ in range(rounds):
        for k, run in enumerate(runners):
            t0 = time.perf_counter()
            steps = run(t0 + seconds / rounds)
            best_rate[k] = max(best_rate[k], steps / max(time.perf_counter() - t0, 1e-9))
    return sweep[max(range(len(sweep)), key=best_rate.__getitem__)]


def our_single(env_id: str, unit: StepUnit = DEFAULT_UNIT, **kwargs: Any) -> Callable[[int], Built]:
    """Our side of a single pair: `gym.make(env_id)` with random legal actions of the unit's
    kind, counting its steps."""

    def build(_: int) -> Built:
        counter = EnvCounter(gym.make(env_id, **kwargs), unit)
        return timed(lambda: single_runner(counter, 0))

    return build


def our_vector(
    env_id: str, unit: StepUnit = DEFAULT_UNIT, *, plies: bool = False, **kwargs: Any
) -> Callable[[int], Built]:
    """Our side of a batched pair: the native vector env of N games with random legal actions
    of the unit's kind, counting steps (a slot's autoreset step not counted), or plies."""

    def build(games: int) -> Built:
        envs = gym.make_vec(
            env_id, num_envs=games, vectorization_mode="vector_entry_point", **kwargs
        )
        counter = VectorCounter(envs, unit)
        return timed(lambda: vector_runner(counter, 0, plies=plies))

    return build


def any_aec(make: Callable[[], Any]) -> Callable[[int], Built]:
    """A side that plays a PettingZoo AEC env (`make()`, ours or a peer's): plies, a finished
    agent's dead step not counted."""

    def build(_: int) -> Built:
        counter = AecCounter(make())
        return timed(lambda: aec_runner(counter))

    return build


def any_gym_single(make: Callable[[], Any]) -> Callable[[int], Built]:
    """A side that plays a Gymnasium env made by `make()` (a peer's), every action legal:
    uniform random actions, a reset at each episode end (timed, not counted)."""

    def build(_: int) -> Built:
        counter = EnvCounter(make())
        return timed(lambda: single_runner(counter, 0))

    return build

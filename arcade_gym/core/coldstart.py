"""First use of an env, measured from inside a fresh process: what `arcade-eval bench coldstart`
runs once per env (with an empty numba cache, then again on the cache that run left).

`python -c BOOTSTRAP TARGET...` times the import of gymnasium and arcade_gym, then, for each
target, `make`, `reset` and one `step` with a legal action, and prints one JSON line. A target is
`env:ID` (`gym.make`), `vector:ID` (`gym.make_vec(..., vectorization_mode="vector_entry_point")`)
or `aec:NAME` (`arcade_gym.multiagent.NAME.env()`). Every numba compilation in the process is
recorded through numba's event API (`numba.core.event`, kind `numba:compile`): one record per
kernel and signature with its own time (`selfSeconds`, callees excluded) and its time with the
kernels it compiled on the way (`totalSeconds`). A cache load raises no such event; those are
counted from the dispatchers' cache-hit counters instead.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

VECTOR_GAMES = 8
"""Games per vector env in a first-use run: what compiles does not depend on the count."""

BOOTSTRAP = """
import sys, time
t0, c0 = time.perf_counter(), time.process_time()
from numba.core import event
class Listener(event.Listener):
    buffer = []
    def on_start(self, e):
        self.buffer.append((time.perf_counter(), time.process_time(), e))
    on_end = on_start
listener = Listener()
event.register("numba:compile", listener)
import gymnasium, arcade_gym
from arcade_gym.core import coldstart
coldstart.main(sys.argv[1:], t0, c0, listener)
"""
"""The child's whole program (`python -c BOOTSTRAP TARGET...`): the clock starts before numba,
gymnasium and arcade_gym are imported, so the import is part of the figure, and the compile
listener is in place before anything can compile (a kernel compiled at import shows)."""


class CompileRecorder:
    """Reads numba's `numba:compile` events (BOOTSTRAP's listener keeps `(wall, cpu, event)`
    from before anything compiles): each compiled kernel and signature with its own and its
    inclusive seconds, wall and CPU (a kernel compiles the kernels it calls inside its own
    compilation)."""

    def __init__(self, listener: Any) -> None:
        self._listener = listener
        self._read = 0

    def take(self) -> list[dict[str, Any]]:
        """The compilations finished since the last call, slowest own time first."""
        buffer = self._listener.buffer
        stack: list[list[Any]] = []
        records: list[dict[str, Any]] = []
        for wall, cpu, event in buffer[self._read :]:
            if event.is_start:
                function = event.data["dispatcher"].py_func
                name = f"{function.__module__}.{function.__qualname__}"
                signature = ", ".join(str(arg) for arg in event.data["args"])
                stack.append([name, signature, wall, cpu, 0.0, 0.0])
                continue
            name, signature, wall0, cpu0, child_wall, child_cpu = stack.pop()
            total, total_cpu = wall - wall0, cpu - cpu0
            if stack:
                stack[-1][4] += total
                stack[-1][5] += total_cpu
            records.append(
                {
                    "kernel": name,
                    "signature": signature,
                    "selfSeconds": total - child_wall,
                    "selfCpuSeconds": total_cpu - child_cpu,
                    "totalSeconds": total,
                }
            )
        self._read = len(buffer)
        return sorted(records, key=lambda r: -r["selfCpuSeconds"])


def cache_loads() -> int:
    """How many kernel signatures this process loaded from numba's cache (every dispatcher of
    the arcade_gym and policies modules imported so far)."""
    from numba.core.dispatcher import Dispatcher

    loads = 0
    for name, module in list(sys.modules.items()):
        if not name.startswith(("arcade_gym", "policies")) or module is None:
            continue
        for value in list(vars(module).values()):
            if isinstance(value, Dispatcher):
                loads += sum(value.stats.cache_hits.values())
    return loads


def _legal(mask: np.ndarray | None, n: int) -> int:
    """The first legal action of a mask (0 without one)."""
    if mask is None:
        return 0
    legal = np.flatnonzero(np.asarray(mask).reshape(-1)[:n])
    return int(legal[0]) if legal.size else 0


def _env_phases(env_id: str) -> dict[str, Callable[[], Any]]:
    import gymnasium as gym

    state: dict[str, Any] = {}

    def make() -> None:
        state["env"] = gym.make(env_id)

    def reset() -> None:
        _, state["info"] = state["env"].reset(seed=0)

    def step() -> None:
        env = state["env"]
        space = env.action_space
        if isinstance(space, gym.spaces.Discrete):
            action: Any = int(space.start) + _legal(state["info"].get("action_mask"), int(space.n))
        else:
            action = space.sample()
        env.step(action)
        env.close()

    return {"make": make, "reset": reset, "step": step}


def _vector_phases(env_id: str) -> dict[str, Callable[[], Any]]:
    import gymnasium as gym

    state: dict[str, Any] = {}

    def make() -> None:
        state["envs"] = gym.make_vec(
            env_id, num_envs=VECTOR_GAMES, vectorization_mode="vector_entry_point"
        )

    def reset() -> None:
        _, state["infos"] = state["envs"].reset(seed=0)

    def step() -> None:
        envs = state["envs"]
        space = envs.single_action_space
        masks = state["infos"].get("action_mask")
        if isinstance(space, gym.spaces.Discrete) and masks is not None:
            actions: Any = np.array(
                [int(space.start) + _legal(masks[i], int(space.n)) for i in range(envs.num_envs)]
            )
        else:
            actions = envs.action_space.sample()
        envs.step(actions)
        envs.close()

    return {"make": make, "reset": reset, "step": step}


def _aec_phases(name: str) -> dict[str, Callable[[], Any]]:
    import importlib

    state: dict[str, Any] = {}

    def make() -> None:
        state["env"] = importlib.import_module(f"arcade_gym.multiagent.{name}").env()

    def reset() -> None:
        state["env"].reset(seed=0)

    def step() -> None:
        env = state["env"]
        obs, *_ = env.last()
        env.step(_legal(obs["action_mask"], len(obs["action_mask"])))
        env.close()

    return {"make": make, "reset": reset, "step": step}


PHASES: dict[str, Callable[[str], dict[str, Callable[[], Any]]]] = {
    "env": _env_phases,
    "vector": _vector_phases,
    "aec": _aec_phases,
}
"""Target kind -> the make, reset and step of its first use."""


def target_phases(target: str) -> dict[str, Callable[[], Any]]:
    """The make, reset and step of `target` (`KIND:NAME`), to be run in that order."""
    kind, _, name = target.partition(":")
    if kind not in PHASES or not name:
        raise ValueError(f"target must read KIND:NAME with KIND in {sorted(PHASES)}: {target!r}")
    return PHASES[kind](name)


def use(target: str) -> None:
    """Make, reset and step `target` once, untimed: what building numba's cache runs for each
    env (`arcade_gym/core/build_cache.py`)."""
    for run in target_phases(target).values():
        run()


def first_use(target: str, recorder: CompileRecorder) -> dict[str, Any]:
    """One target's phases (wall and CPU seconds each) and the kernels each compiled."""
    phases: dict[str, dict[str, float]] = {}
    kernels: list[dict[str, Any]] = []
    for phase, run in target_phases(target).items():
        w0, c0 = time.perf_counter(), time.process_time()
        run()
        wall, cpu = time.perf_counter() - w0, time.process_time() - c0
        phases[phase] = {"wallSeconds": wall, "cpuSeconds": cpu}
        kernels += [dict(record, phase=phase) for record in recorder.take()]
    return {
        "target": target,
        "phases": phases,
        "wallSeconds": sum(p["wallSeconds"] for p in phases.values()),
        "cpuSeconds": sum(p["cpuSeconds"] for p in phases.values()),
        "compileSeconds": sum(k["selfSeconds"] for k in kernels),
        "compileCpuSeconds": sum(k["selfCpuSeconds"] for k in kernels),
        "kernels": kernels,
    }


def main(targets: list[str], t0: float, c0: float, listener: Any) -> None:
    """The child's body (after BOOTSTRAP's imports): every target in order, one JSON line."""
    recorder = CompileRecorder(listener)
    imported: dict[str, Any] = {
        "wallSeconds": time.perf_counter() - t0,
        "cpuSeconds": time.process_time() - c0,
        "kernels": recorder.take(),
    }
    results = [first_use(target, recorder) for target in targets]
    report = {
        "import": imported,
        "targets": results,
        "wallSeconds": time.perf_counter() - t0,
        "cpuSeconds": time.process_time() - c0,
        "cacheLoads": cache_loads(),
    }
    sys.stdout.write(json.dumps(report) + "\n")

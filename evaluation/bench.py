"""Throughput benchmarks (`arcade-eval bench`): steps per second, questions per second, memory.

Speed is measured here, never asserted in tests. Compile time is reported on its own; every
throughput figure is taken after the kernels are warm.
"""

from __future__ import annotations

import gc
import importlib.util
import platform
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np

import arcade_gym
from arcade_gym.tetris import engine as E
from arcade_gym.tetris.game import TetrisGame
from arcade_gym.tetris.warmup import warmup


def rate(run: Callable[[float], int], seconds: float, *, cpu_time: bool = False) -> float:
    """Operations per second of `run(deadline) -> operations done`.

    `cpu_time=True` divides by this process's CPU time instead of the wall clock: the figure a
    quiet machine would show when other work shares the cores.
    """
    t0 = time.perf_counter()
    c0 = time.process_time()
    done = run(t0 + seconds)
    elapsed = time.process_time() - c0 if cpu_time else time.perf_counter() - t0
    return done / elapsed


def masked_random_steps(
    env_id: str, seconds: float, *, seed: int = 0, cpu_time: bool = False, **make_kwargs: Any
) -> float:
    """Steps per second of `gym.make(env_id)` with uniform random legal actions, resetting at
    episode end. A legal action is drawn by rejection from a pre-drawn stream of uniform indices:
    exactly uniform over the mask and cheaper than listing the legal actions every step, so the
    figure measures the env rather than the chooser."""
    env = gym.make(env_id, **make_kwargs)
    _, info = env.reset(seed=seed)
    n_actions = int(env.action_space.n)  # type: ignore[attr-defined]
    draws = np.random.default_rng(seed).integers(0, n_actions, 1 << 16).tolist()

    def run(deadline: float) -> int:
        nonlocal info
        steps = k = 0
        while True:
            for _ in range(256):
                mask = info["action_mask"]
                a = draws[k & 0xFFFF]
                k += 1
                while not mask[a]:
                    a = draws[k & 0xFFFF]
                    k += 1
                _, _, terminated, truncated, info = env.step(a)
                steps += 1
                if terminated or truncated:
                    _, info = env.reset()
            if time.perf_counter() >= deadline:
                return steps

    return rate(run, seconds, cpu_time=cpu_time)


def peer_status(name: str, module: str, missing_note: str = "") -> dict[str, Any]:
    """Whether a peer library is installed to compare against."""
    installed = importlib.util.find_spec(module) is not None
    note = (
        "not measured yet"
        if installed
        else (missing_note or "install it to measure it beside ours")
    )
    return {"name": name, "installed": installed, "note": note}


def make_report(
    game: str,
    *,
    seconds: float,
    compile_s: float,
    results: dict[str, float],
    targets: dict[str, float],
    peer: dict[str, Any],
    durations: dict[str, float] | None = None,
) -> dict[str, Any]:
    """The one JSON shape every `arcade-eval bench GAME` writes."""
    report: dict[str, Any] = {
        "game": game,
        "package_version": arcade_gym.__version__,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "seconds_per_figure": seconds,
        "compile_or_cache_load_s": compile_s,
        "results": results,
        "targets": targets,
        "peer": peer,
    }
    if durations:
        report["seconds"] = durations
    return report


def _masked_choice(mask: np.ndarray, u: float) -> int:
    """A uniform legal action from a uniform draw `u`; 0 for a finished episode (no legal one)."""
    legal = np.flatnonzero(mask)
    return int(legal[int(u * legal.size)]) if legal.size else 0


def tetris_v3_steps(seconds: float, seed: int = 0) -> float:
    """`gym.make("arcade_gym/Tetris-v3")`, uniform masked random actions, reset at episode end."""
    return masked_random_steps("arcade_gym/Tetris-v3", seconds, seed=seed)


def tetris_v3_vector_steps(seconds: float, num_envs: int = 8, seed: int = 0) -> float:
    """Total env steps per second of a synchronous vector of `Tetris-v3` envs (autoreset)."""
    envs = gym.make_vec("arcade_gym/Tetris-v3", num_envs=num_envs, vectorization_mode="sync")
    _, info = envs.reset(seed=seed)
    rng = np.random.default_rng(seed)

    def run(deadline: float) -> int:
        nonlocal info
        steps = 0
        while time.perf_counter() < deadline:
            for _ in range(32):
                masks = info["action_mask"]
                actions = np.array(
                    [_masked_choice(m, u) for m, u in zip(masks, rng.random(num_envs), strict=True)]
                )
                _, _, _, _, info = envs.step(actions)
                steps += num_envs
        return steps

    return rate(run, seconds)


def primitive_steps(seconds: float, seed: int = 0) -> float:
    """`gym.make("arcade_gym/TetrisPrimitive-v3")`, uniform random controls."""
    env = gym.make("arcade_gym/TetrisPrimitive-v3")
    env.reset(seed=seed)
    actions = np.random.default_rng(seed).integers(0, 6, 1 << 16).tolist()

    def run(deadline: float) -> int:
        steps = 0
        while True:
            for _ in range(1024):
                _, _, terminated, truncated, _ = env.step(actions[steps & 0xFFFF])
                steps += 1
                if terminated or truncated:
                    env.reset()
            if time.perf_counter() >= deadline:
                return steps

    return rate(run, seconds)


def _sample_positions(count: int, seed: int = 0) -> list[TetrisGame]:
    """Positions from games played by a seeded random policy (boards of every height)."""
    rng = np.random.default_rng(seed)
    positions: list[TetrisGame] = []
    game = TetrisGame(seed)
    while len(positions) < count:
        if game.over:
            game = TetrisGame(int(rng.integers(2**62)))
        positions.append(game.copy())
        legal = game.legal_placements()
        game.play(*legal[int(rng.integers(len(legal)))])
    return positions


def candidate_questions(seconds: float, seed: int = 0) -> float:
    """Raw engine: candidate generation with every afterstate's features (no Gym, no pydantic)."""
    positions = _sample_positions(512, seed)
    arrays = [(g.board, g.st, g.seq, g.cinfo, g.cfeat) for g in positions]
    generate = E.generate_candidates

    def run(deadline: float) -> int:
        done = 0
        while time.perf_counter() < deadline:
            for board, st, seq, cinfo, cfeat in arrays:
                generate(board, st, seq, cinfo, cfeat)
            done += len(arrays)
        return done

    return rate(run, seconds)


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


def bench_tetris(seconds: float = 3.0) -> dict[str, Any]:
    """Every Tetris figure of the issue's speed targets, as one JSON-able dict."""
    compile_s = warmup()
    results = {
        "tetris_v3_steps_per_s": tetris_v3_steps(seconds),
        "tetris_v3_vector8_steps_per_s": tetris_v3_vector_steps(seconds),
        "primitive_steps_per_s": primitive_steps(seconds),
        "candidate_questions_per_s": candidate_questions(seconds),
        "tetris_v3_env_bytes": env_memory_bytes("arcade_gym/Tetris-v3"),
        "primitive_env_bytes": env_memory_bytes("arcade_gym/TetrisPrimitive-v3"),
    }
    return make_report(
        "tetris",
        seconds=seconds,
        compile_s=compile_s,
        results=results,
        targets={
            "tetris_v3_steps_per_s": 20_000,
            "primitive_steps_per_s": 150_000,
            "candidate_questions_per_s": 50_000,
            "tetris_v3_env_bytes": 1_000_000,
        },
        peer=peer_status("tetris-gymnasium", "tetris_gymnasium"),
    )


def format_table(report: dict[str, Any]) -> str:
    """The bench report as an aligned text table."""
    lines = [
        f"arcade-gym {report['package_version']} bench: {report['game']} "
        f"(python {report['python']}, {report['machine']})",
        f"compile / cache load: {report['compile_or_cache_load_s']:.2f} s",
    ]
    targets = report.get("targets", {})
    for name, value in report["results"].items():
        target = targets.get(name)
        unit = "bytes" if name.endswith("_bytes") else "/s"
        check = ""
        if target is not None:
            at_most = unit == "bytes"
            ok = value <= target if at_most else value >= target
            relation = "<=" if at_most else ">="
            check = f"  (target {relation} {target:,}: {'ok' if ok else 'MISSED'})"
        lines.append(f"  {name:<32} {value:>14,.0f} {unit}{check}")
    for name, value in report.get("seconds", {}).items():
        lines.append(f"  {name:<32} {value:>14.2f} s")
    peer = report.get("peer")
    if peer:
        lines.append(
            f"peer {peer['name']}: {'installed' if peer['installed'] else 'not installed'}"
            f" ({peer['note']})"
        )
    return "\n".join(lines)

"""The generic bench: every env of a game measured the same way, plus the game's own figures.

For each env of a game's descriptor (`arcade_gym/core/descriptor.py`): steps per second of wall
clock and of CPU time with uniform random legal actions through `gym.make`, and, when it has a
native vector env, that env's figures at `VECTOR_BATCH` games with its compile or cache-load time
apart. The game's warmup is timed as the report's compile time. A game's `bench` function adds
only what no generic loop measures (`arcade_gym.core.throughput.Figures`); an engine's or a
benchmark's bench is reported the same way, on its own.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from arcade_gym.core.counting import DEFAULT_UNIT, StepUnit
from arcade_gym.core.descriptor import GameDescriptor
from arcade_gym.core.throughput import (
    VECTOR_BATCH,
    Figures,
    add_vector_figures,
    env_key,
    random_step_rates,
)
from arcade_gym.core.warmup import warm
from arcade_gym.registration import NAMESPACE
from evaluation.core.registry import lazy
from evaluation.throughput.report import make_report, peer_report


def step_units(game: GameDescriptor) -> dict[str, StepUnit]:
    """Env id (no namespace) -> what one counted step of it is: the `STEP_UNITS` of the module
    the game's `bench` names (an env it does not list counts every step as one)."""
    if game.bench is None:
        return {}
    module = importlib.import_module(game.bench.partition(":")[0])
    units: dict[str, StepUnit] = getattr(module, "STEP_UNITS", {})
    return units


def env_figures(game: GameDescriptor, seconds: float) -> Figures:
    """The generic figures of every env of `game` (its kernels already warm): counted steps
    per wall and CPU second (resets timed, never counted), plies when its unit counts them, and
    its native vector env's, with what one step is under `units`."""
    figures = Figures()
    units = step_units(game)
    for entry in game.envs:
        env_id = f"{NAMESPACE}/{entry.id}"
        key = env_key(entry.id)
        unit = units.get(entry.id, DEFAULT_UNIT)
        rates = random_step_rates(env_id, seconds, unit=unit)
        for figure in ("steps_per_s", "steps_per_cpu_s", "plies_per_s", "plies_per_cpu_s"):
            if figure in rates:
                figures.results[f"{key}_{figure}"] = rates[figure]
        figures.units[key] = unit.text
        if entry.vector_entry_point is not None:
            add_vector_figures(figures.results, figures.durations, key, env_id, seconds, unit=unit)
            figures.units[f"{key}_vector{VECTOR_BATCH}"] = (
                f"{unit.text}; summed over {VECTOR_BATCH:,} games, a slot's autoreset step "
                "not counted"
            )
    return figures


def report_of(name: str, seconds: float, compile_s: float, *parts: Figures) -> dict[str, Any]:
    """One report from the figures of `parts`, in order (a later part may not redefine a
    figure, and a target must name a figure: either is a bug in a bench)."""
    results: dict[str, float] = {}
    durations: dict[str, float] = {}
    targets: dict[str, float] = {}
    extra: dict[str, Any] = {}
    units: dict[str, str] = {}
    peer = None
    for part in parts:
        clash = (results.keys() & part.results.keys()) | (durations.keys() & part.durations.keys())
        if clash:
            raise ValueError(f"bench {name}: figures measured twice: {sorted(clash)}")
        results.update(part.results)
        durations.update(part.durations)
        targets.update(part.targets)
        extra.update(part.extra)
        units.update(part.units)
        compile_s += part.compile_s
        peer = part.peer or peer
    unknown = sorted(targets.keys() - results.keys())
    if unknown:
        raise ValueError(f"bench {name}: targets name no figure: {unknown}")
    report = make_report(
        name,
        seconds=seconds,
        compile_s=compile_s,
        results=results,
        targets=targets,
        peer=peer_report(peer) if peer is not None else None,
        durations=durations,
    )
    if units:
        report["units"] = units
    report.update(extra)
    return report


def game_report(game: GameDescriptor, seconds: float) -> dict[str, Any]:
    """Every env of `game` measured generically, then its own `bench` figures when it has one."""
    compile_s = warm(game.name)
    parts = [env_figures(game, seconds)]
    if game.bench is not None:
        own: Callable[[float], Figures] = lazy(game.bench)
        parts.append(own(seconds))
    return report_of(game.name, seconds, compile_s, *parts)


def figures_report(name: str, bench: Callable[[float], Figures], seconds: float) -> dict[str, Any]:
    """The report of a bench that measures no env (an engine's, a benchmark's)."""
    return report_of(name, seconds, 0.0, bench(seconds))

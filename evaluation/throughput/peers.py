"""`arcade-eval bench --peers`: every figure of ours beside its peer library's, in one sitting.

The pairs come from the games (`PEERS` in each game's bench module names a function returning
`arcade_gym.core.peers.PeerPair`s), so this module names no game. A single pair runs our env and
the peer's one call per step; a batched pair our native vector env and the peer's `jax.vmap` +
`lax.scan`, first at the same N, then each side at its best N of the pair's sweep. The two sides
alternate in short chunks (`interleaved`), so the machine's load meets both; each figure is
reported per wall second and per CPU second, with the ratio ours / peer, each side's compile (or
cache load) time apart, and the load average before and after. The peers are the optional
`peers` extra (`pip install -e ".[peers]"`); a pair whose peer is not installed is listed as
skipped.
"""

from __future__ import annotations

import importlib
import os
import platform
from collections.abc import Callable
from typing import Any

import arcade_gym
from arcade_gym.core.peers import PeerPair, best_games, installed, interleaved
from arcade_gym.games import descriptors
from evaluation.core.errors import RunError
from evaluation.core.registry import lazy
from evaluation.throughput.report import load_average

EXTRA = 'pip install -e ".[peers]"'
"""How a user installs the peers (never part of the core install or of CI)."""


def peer_pairs() -> list[PeerPair]:
    """Every game's pairs, in the games' order (a game whose bench names no `PEERS` has none)."""
    pairs: list[PeerPair] = []
    for game in descriptors():
        if game.bench is None:
            continue
        module = importlib.import_module(game.bench.partition(":")[0])
        target = getattr(module, "PEERS", None)
        if target is not None:
            build: Callable[[], list[PeerPair]] = lazy(target)
            pairs.extend(build())
    return pairs


def _sides(pair: PeerPair, ours_games: int, peer_games: int, seconds: float) -> dict[str, Any]:
    """Both sides built (each one's compile or cache load timed apart) and interleaved."""
    load = load_average()
    ours, ours_compile = pair.ours(ours_games)
    peer, peer_compile = pair.peer(peer_games)
    rates = interleaved({"ours": ours, "peer": peer}, seconds)
    return {
        "oursGames": ours_games,
        "peerGames": peer_games,
        "ours": _camel(rates["ours"]),
        "peer": _camel(rates["peer"]),
        "ratio": rates["ours"]["steps_per_s"] / max(rates["peer"]["steps_per_s"], 1e-9),
        "cpuRatio": rates["ours"]["steps_per_cpu_s"] / max(rates["peer"]["steps_per_cpu_s"], 1e-9),
        "compileSeconds": {"ours": ours_compile, "peer": peer_compile},
        "loadAverage": [load, load_average()],
    }


def _camel(rates: dict[str, float]) -> dict[str, float]:
    return {
        "stepsPerSecond": rates["steps_per_s"],
        "stepsPerCpuSecond": rates["steps_per_cpu_s"],
        "steps": rates["steps"],
    }


def measure_pair(pair: PeerPair, seconds: float) -> dict[str, Any]:
    """One pair: single at one game each; batched at the pair's N on both sides, then each side
    at its best N (`best_games`: three probes of `seconds / 6` per N of the sweep pick it)."""
    entry: dict[str, Any] = {"pair": pair.name, "kind": pair.kind, "unit": pair.unit}
    if pair.kind == "single":
        entry["same"] = _sides(pair, 1, 1, seconds)
        return entry
    entry["same"] = _sides(pair, pair.games, pair.games, seconds)
    if pair.sweep:
        probe = seconds / 2
        ours_best = best_games(pair.ours, pair.sweep, probe)
        peer_best = best_games(pair.peer, pair.sweep, probe)
        entry["best"] = _sides(pair, ours_best, peer_best, seconds)
    return entry


def peers_report(
    seconds: float,
    *,
    only: str | None = None,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Every pair (or those whose name contains `only`) measured; RunError naming the extra when
    no peer is installed at all."""
    pairs = [p for p in peer_pairs() if only is None or only.lower() in p.name.lower()]
    if not pairs:
        raise RunError(f"bench --peers: no pair's name contains {only!r}")
    available = [p for p in pairs if p.available()]
    if not available:
        raise RunError(f"bench --peers: no peer library is installed; {EXTRA}")
    report: dict[str, Any] = {
        "bench": "peers",
        "packageVersion": arcade_gym.__version__,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpuCount": os.cpu_count(),
        "secondsPerFigure": seconds,
        "pairs": [],
        "skipped": [
            {"pair": p.name, "missing": [m for m in p.requires if not installed(m)]}
            for p in pairs
            if not p.available()
        ],
    }
    for pair in available:
        if progress is not None:
            progress(f"peers: {pair.name}")
        report["pairs"].append(measure_pair(pair, seconds))
    return report


def _row(name: str, run: dict[str, Any]) -> str:
    ours, peer = run["ours"], run["peer"]
    games = (
        f"N={run['oursGames']}/{run['peerGames']}"
        if run["oursGames"] > 1 or run["peerGames"] > 1
        else "single"
    )
    return (
        f"  {name:<58} {games:>12} {ours['stepsPerSecond']:>13,.0f} "
        f"{peer['stepsPerSecond']:>13,.0f} {run['ratio']:>7.2f}x {run['cpuRatio']:>7.2f}x "
        f"{run['compileSeconds']['peer']:>7.1f} {run['loadAverage'][0]:>5.1f}"
    )


def format_peers(report: dict[str, Any]) -> str:
    """The peers report as a text table: ours and the peer per wall second, the ratios per wall
    and CPU second, the peer's compile seconds and the load average; then what one step is."""
    lines = [
        f"arcade-gym {report['packageVersion']} bench --peers (python {report['python']}, "
        f"{report['machine']}, {report['cpuCount']} cores, {report['secondsPerFigure']} s a "
        "figure, interleaved)",
        f"  {'pair':<58} {'games':>12} {'ours/s':>13} {'peer/s':>13} {'ratio':>8} "
        f"{'cpu':>8} {'compile':>7} {'load':>5}",
    ]
    for entry in report["pairs"]:
        lines.append(_row(entry["pair"], entry["same"]))
        if "best" in entry:
            lines.append(_row("  (each side at its best N)", entry["best"]))
    lines.append("  one step:")
    for entry in report["pairs"]:
        lines.append(f"    {entry['pair']}: {entry['unit']}")
    for skipped in report["skipped"]:
        lines.append(
            f"  skipped {skipped['pair']}: {', '.join(skipped['missing'])} not installed ({EXTRA})"
        )
    return "\n".join(lines)

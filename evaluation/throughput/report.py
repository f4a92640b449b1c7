"""The one report shape every `arcade-eval bench NAME` writes, and its text table.

The timing loops live in `arcade_gym/core/throughput.py`; `evaluation/throughput/run.py` fills this
shape. Compile time is reported on its own; every throughput figure is taken after the kernels are
warm.
"""

from __future__ import annotations

import importlib.util
import os
import platform
from typing import Any

import arcade_gym
from arcade_gym.core.throughput import Peer


def peer_status(name: str, module: str, missing_note: str = "") -> dict[str, Any]:
    """Whether a peer library is installed to compare against: `arcade-eval bench --peers`
    measures it beside ours in one sitting."""
    installed = importlib.util.find_spec(module) is not None
    note = (
        "measured beside ours by `arcade-eval bench --peers`"
        if installed
        else (missing_note or 'not installed: pip install -e ".[peers]"')
        + ", then `arcade-eval bench --peers`"
    )
    return {"name": name, "installed": installed, "note": note}


def peer_report(peer: Peer) -> dict[str, Any]:
    """A bench's `Peer` as the report's `peer`: measured in the same report, or whether it is
    installed."""
    if peer.measured_as is not None:
        return {
            "name": peer.name,
            "installed": True,
            "note": f"measured above as {peer.measured_as}",
        }
    return peer_status(peer.name, peer.module, peer.missing_note)


def load_average() -> float:
    """The machine's one-minute load average (0 where the platform has none): figures measured
    under load say so."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return 0.0


def make_report(
    game: str,
    *,
    seconds: float,
    compile_s: float,
    results: dict[str, float],
    targets: dict[str, float],
    peer: dict[str, Any] | None,
    durations: dict[str, float] | None = None,
) -> dict[str, Any]:
    """The one JSON shape every `arcade-eval bench NAME` writes (`peer` left out when None)."""
    report: dict[str, Any] = {
        "game": game,
        "package_version": arcade_gym.__version__,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "seconds_per_figure": seconds,
        "load_average": load_average(),
        "compile_or_cache_load_s": compile_s,
        "results": results,
        "targets": targets,
    }
    if peer is not None:
        report["peer"] = peer
    if durations:
        report["seconds"] = durations
    return report


def format_table(report: dict[str, Any]) -> str:
    """The bench report as an aligned text table."""
    lines = [
        f"arcade-gym {report['package_version']} bench: {report['game']} "
        f"(python {report['python']}, {report['machine']})",
        f"compile / cache load: {report['compile_or_cache_load_s']:.2f} s; "
        f"load average {report.get('load_average', 0.0):.1f}",
    ]
    targets = report.get("targets", {})
    durations = report.get("seconds", {})
    width = max((len(name) for name in (*report["results"], *durations)), default=0)
    for name, value in report["results"].items():
        target = targets.get(name)
        unit = "bytes" if name.endswith("_bytes") else "/s"
        check = ""
        if target is not None:
            at_most = unit == "bytes"
            ok = value <= target if at_most else value >= target
            relation = "<=" if at_most else ">="
            check = f"  (target {relation} {target:,}: {'ok' if ok else 'MISSED'})"
        lines.append(f"  {name:<{width}} {value:>14,.0f} {unit}{check}")
    for name, value in durations.items():
        lines.append(f"  {name:<{width}} {value:>14.2f} s")
    for prefix, text in report.get("units", {}).items():
        lines.append(f"  one step of {prefix}*: {text}")
    peer = report.get("peer")
    if peer:
        lines.append(
            f"peer {peer['name']}: {'installed' if peer['installed'] else 'not installed'}"
            f" ({peer['note']})"
        )
    return "\n".join(lines)

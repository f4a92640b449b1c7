"""`arcade-eval bench coldstart`: first use of every registered env, as a user meets it.

Each target (every env id through `gym.make`, every native vector env, every PettingZoo env) runs
in a fresh process with an empty numba cache (`NUMBA_CACHE_DIR` a new temporary folder): import,
make, reset and one step, each timed in wall and CPU seconds, with every kernel numba compiled on
the way (`arcade_gym/core/coldstart.py`). A second process on the cache the first one left gives
the warm figure. Then every target together in one process, cold and warm, and optionally a
command (the README's quick start) timed until its run directory holds its first decision. The
machine's load average is recorded beside each run: under load, compare CPU seconds.
"""

from __future__ import annotations

import json
import os
import platform
import shlex
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import arcade_gym
from arcade_gym.core.coldstart import BOOTSTRAP
from arcade_gym.registration import first_use_targets
from evaluation.core.errors import RunError
from evaluation.throughput.report import load_average

CHILD_TIMEOUT_S = 900.0
"""A child that takes longer than this is stopped and reported as a failure of the bench."""

TOP_KERNELS = 8
"""Kernels listed per target in the report (by own compile time; the JSON keeps them all)."""


def coldstart_targets() -> list[str]:
    """Every registered env as a first-use target: `env:ID`, `vector:ID`, `aec:NAME`."""
    return first_use_targets()


class ChildFailedError(Exception):
    """A first-use process failed or timed out (its last line of error output says why)."""


def _child_env(cache_dir: str | None) -> dict[str, str]:
    """The environment of a child on the numba cache in `cache_dir`, or, when None, on the
    package's own cache (`__pycache__` beside its sources: what `pip install .` builds)."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = cache_dir
    return env


def run_child(targets: Sequence[str], cache_dir: str | None) -> dict[str, Any]:
    """One fresh process measuring `targets` in order on the numba cache in `cache_dir` (the
    package's own cache when None)."""
    env = _child_env(cache_dir)
    load = load_average()
    try:
        done = subprocess.run(
            [sys.executable, "-c", BOOTSTRAP, *targets],
            env=env,
            capture_output=True,
            text=True,
            timeout=CHILD_TIMEOUT_S,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise ChildFailedError(f"took over {CHILD_TIMEOUT_S:.0f} s") from None
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        tail = done.stderr.strip().splitlines()[-1:] or ["no output"]
        raise ChildFailedError(tail[0][:300])
    report: dict[str, Any] = json.loads(lines[-1])
    report["loadAverage"] = [load, load_average()]
    return report


def _kernel_totals(kernels: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Kernels summed over their signatures, slowest first."""
    totals: dict[str, dict[str, Any]] = {}
    for record in kernels:
        name = record["kernel"]
        entry = totals.setdefault(
            name, {"kernel": name, "selfSeconds": 0.0, "selfCpuSeconds": 0.0, "signatures": 0}
        )
        entry["selfSeconds"] += record["selfSeconds"]
        entry["selfCpuSeconds"] += record["selfCpuSeconds"]
        entry["signatures"] += 1
    return sorted(totals.values(), key=lambda e: -e["selfCpuSeconds"])


def _summary(child: dict[str, Any]) -> dict[str, Any]:
    """A child's figures: its process (import included) and each target's phases and kernels."""
    kernels = [k for t in child["targets"] for k in t["kernels"]] + child["import"]["kernels"]
    return {
        "wallSeconds": child["wallSeconds"],
        "cpuSeconds": child["cpuSeconds"],
        "importSeconds": child["import"]["wallSeconds"],
        "compileSeconds": sum(k["selfSeconds"] for k in kernels),
        "compileCpuSeconds": sum(k["selfCpuSeconds"] for k in kernels),
        "kernelsCompiled": len(kernels),
        "kernelsCompiledAtImport": len(child["import"]["kernels"]),
        "cacheLoads": child["cacheLoads"],
        "loadAverage": child["loadAverage"],
        "phases": {t["target"]: t["phases"] for t in child["targets"]},
        "kernels": _kernel_totals(kernels),
        "compilations": kernels,
    }


def cold_and_warm(targets: Sequence[str]) -> dict[str, Any]:
    """`targets` in one process on an empty cache, then in another on the cache it left, then
    in a third on the package's own cache (`installed`: a fresh install's first use, its
    `kernelsCompiled` 0 when the install built the cache); a failure is reported as an error."""
    with tempfile.TemporaryDirectory(prefix="arcade-coldstart-") as cache_dir:
        try:
            cold = _summary(run_child(targets, cache_dir))
            warm = _summary(run_child(targets, cache_dir))
            installed = _summary(run_child(targets, None))
        except ChildFailedError as failed:
            return {"error": str(failed)}
    return {"cold": cold, "warm": warm, "installed": installed}


def first_decision_s(
    command: Sequence[str], cache_dir: str | None, timeout: float
) -> dict[str, Any]:
    """Seconds from starting `command --output-dir DIR` until a log in DIR holds a decision
    (a JSONL log's second line: its header is the first); the process is then stopped. On the
    numba cache in `cache_dir`, or the package's own when None."""
    load = load_average()
    with tempfile.TemporaryDirectory(prefix="arcade-quickstart-") as out:
        run_dir = Path(out) / "run"
        env = _child_env(cache_dir)
        t0 = time.perf_counter()
        process = subprocess.Popen(
            [*command, "--output-dir", str(run_dir)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        seconds: float | None = None
        try:
            while seconds is None and time.perf_counter() - t0 < timeout:
                if process.poll() is not None and not _has_decision(run_dir):
                    tail = (process.stderr.read() if process.stderr else "").strip()
                    raise RunError(
                        f"bench coldstart: {shlex.join(command)} ended before its first "
                        f"decision: {(tail.splitlines() or ['no output'])[-1]}"
                    )
                if _has_decision(run_dir):
                    seconds = time.perf_counter() - t0
                time.sleep(0.05)
        finally:
            if process.poll() is None:
                process.terminate()
            process.wait()
    if seconds is None:
        raise RunError(f"bench coldstart: {shlex.join(command)}: no decision in {timeout:.0f} s")
    return {"firstDecisionSeconds": seconds, "loadAverage": [load, load_average()]}


def _has_decision(run_dir: Path) -> bool:
    """Whether any JSONL log under `run_dir` (not through links) has a line after its header."""
    if not run_dir.is_dir():
        return False
    for path in run_dir.rglob("*.jsonl"):
        if path.is_symlink() or not path.is_file():
            continue
        with open(path, "rb") as handle:
            if len(handle.read(1 << 16).splitlines()) >= 2:
                return True
    return False


def quickstart(command: Sequence[str]) -> dict[str, Any]:
    """`first_decision_s` of `command` on an empty cache, then on the cache it left, then on the
    package's own cache (`installed`)."""
    with tempfile.TemporaryDirectory(prefix="arcade-coldstart-") as cache_dir:
        cold = first_decision_s(command, cache_dir, CHILD_TIMEOUT_S)
        warm = first_decision_s(command, cache_dir, CHILD_TIMEOUT_S)
    installed = first_decision_s(command, None, CHILD_TIMEOUT_S)
    return {"command": shlex.join(command), "cold": cold, "warm": warm, "installed": installed}


def coldstart_report(
    targets: Sequence[str] | None = None,
    *,
    together: bool = True,
    command: Sequence[str] | None = None,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """First use of each target alone, of all of them in one process, and of `command`."""
    import numba

    chosen = list(targets) if targets is not None else coldstart_targets()
    unknown = sorted(set(chosen) - set(coldstart_targets()))
    if unknown:
        raise RunError(f"bench coldstart: unknown targets {unknown}; known: {coldstart_targets()}")
    report: dict[str, Any] = {
        "bench": "coldstart",
        "packageVersion": arcade_gym.__version__,
        "python": platform.python_version(),
        "numba": numba.__version__,
        "machine": platform.machine(),
        "cpuCount": os.cpu_count(),
        "targets": {},
    }
    for target in chosen:
        if progress is not None:
            progress(f"coldstart: {target}")
        report["targets"][target] = cold_and_warm([target])
    if together:
        if progress is not None:
            progress("coldstart: every target in one process")
        report["together"] = {"targets": chosen, **cold_and_warm(chosen)}
    if command:
        if progress is not None:
            progress(f"coldstart: {shlex.join(command)}")
        report["quickstart"] = quickstart(command)
    return report


def _line(name: str, run: dict[str, Any], width: int) -> str:
    cold, warm, installed = run["cold"], run["warm"], run["installed"]
    kernels = ", ".join(
        f"{k['kernel'].rsplit('.', 1)[-1]} {k['selfCpuSeconds']:.2f}" for k in cold["kernels"][:3]
    )
    return (
        f"  {name:<{width}} {cold['wallSeconds']:7.2f} {cold['cpuSeconds']:7.2f} "
        f"{cold['compileCpuSeconds']:7.2f} {cold['kernelsCompiled']:5d} {warm['wallSeconds']:7.2f} "
        f"{warm['cpuSeconds']:7.2f} {installed['wallSeconds']:7.2f} "
        f"{installed['cpuSeconds']:7.2f} {installed['kernelsCompiled']:5d} "
        f"{cold['loadAverage'][0]:5.1f}  {kernels}"
    )


def format_coldstart(report: dict[str, Any]) -> str:
    """The coldstart report as a text table (seconds; load = one-minute load average)."""
    rows = dict(report["targets"])
    if "together" in report:
        rows["all targets, one process"] = report["together"]
    width = max((len(name) for name in rows), default=10)
    lines = [
        f"arcade-gym {report['packageVersion']} bench coldstart (python {report['python']}, "
        f"numba {report['numba']}, {report['machine']}, {report['cpuCount']} cores)",
        f"  {'first use (import+make+reset+step)':<{width}} {'cold':>7} {'cpu':>7} "
        f"{'compile':>7} {'jits':>5} {'warm':>7} {'cpu':>7} {'package':>7} {'cpu':>7} "
        f"{'jits':>5} {'load':>5}  slowest kernels (own CPU s)",
    ]
    for name, run in rows.items():
        if "error" in run:
            lines.append(f"  {name:<{width}} failed: {run['error']}")
        else:
            lines.append(_line(name, run, width))
    quick = report.get("quickstart")
    if quick:
        cold, warm, installed = quick["cold"], quick["warm"], quick["installed"]
        lines.append(
            f"  {quick['command']}: first decision after {cold['firstDecisionSeconds']:.2f} s "
            f"cold (load {cold['loadAverage'][0]:.1f}), {warm['firstDecisionSeconds']:.2f} s warm, "
            f"{installed['firstDecisionSeconds']:.2f} s on the package's cache"
        )
    lines.append(
        "  cold: an empty numba cache; warm: the cache the cold run left; package: the cache "
        "beside the installed sources, as `pip install .` builds it (policies/build_cache.py)"
    )
    return "\n".join(lines)

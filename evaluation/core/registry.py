"""The benchmarks the command line and `verify` know: each benchmark folder registers one object.

The core never imports a benchmark: `evaluation/benchmarks/__init__.py` registers them (one line
each), and the CLI and `verify` read this registry.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from evaluation.core.eventlog import LogContents


@dataclass(frozen=True)
class Replay:
    """What a benchmark rebuilds from a log to replay it: the episode at its start, the recorded
    decision events and result line (upgraded to the current format when the log is older)."""

    episode: Any  # evaluation.core.episode.Episode
    events: list[dict[str, Any]]
    result: dict[str, Any] | None


@dataclass(frozen=True)
class Benchmark:
    """One benchmark as the core sees it.

    `log_ids` are the header `benchmark` values it replays; `reads_log` claims older headers
    without one. `add_parsers(subparsers)` adds its sub-commands to `arcade-eval`. `replay`
    rebuilds a game from a log (it may raise ValueError for a header it cannot start from).
    `rederive`, when given, returns the policy that must have produced a log's answers if its
    header names a deterministic built-in (None otherwise): `verify` then checks every answer.
    `frame(episode, event)` snapshots a replayed episode as JSON for the site's replay viewers
    (`event` is the decision just applied, None for the start); `site(inputs, build)` adds the
    benchmark's pages to a site being built (`evaluation/site/`). `bench(seconds)` measures the
    benchmark's own speed (`arcade_gym.core.throughput.Figures`) for `arcade-eval bench`.
    `play()` lists the games a person plays under it with `arcade-eval play`
    (`evaluation.play.setups.PlaySetup`s, from `evaluation/benchmarks/<name>/play.py`).
    `suite(request)` plays the benchmark for `arcade-eval suite` (`evaluation.suite.part`:
    a `SuiteRequest` in, a `Part` out, from `evaluation/benchmarks/<name>/suite_run.py`).
    `live(options)` lists the runs a page may start under `arcade-eval serve`
    (`evaluation.core.live.LiveRun`s; `options` maps each of `live_options`, the server flags
    they read, to its value or None).
    `compare(run_dir, a, b)` pairs two policies (the benchmark's own specs) of one finished run
    of it unit by unit (`evaluation.suite.paired.Paired` per headline, A - B, with the
    benchmark's own interval; `[]`: nothing pairs them), for the site's comparison pages; from
    `evaluation/benchmarks/<name>/compare.py`, None when the benchmark pairs nothing.
    """

    name: str
    summary: str
    log_ids: tuple[str, ...]
    add_parsers: Callable[[Any], None]
    replay: Callable[[LogContents], Replay]
    reads_log: Callable[[Mapping[str, Any]], bool] | None = None
    rederive: Callable[[Mapping[str, Any]], Any] | None = None
    frame: Callable[[Any, Mapping[str, Any] | None], dict[str, Any]] | None = None
    site: Callable[..., list[Any]] | None = None
    bench: Callable[[float], Any] | None = None
    play: Callable[[], Sequence[Any]] | None = None
    suite: Callable[[Any], Any] | None = None
    live: Callable[[Mapping[str, str | None]], Sequence[Any]] | None = None
    live_options: tuple[Any, ...] = ()
    compare: Callable[[Any, str, str], Sequence[Any]] | None = None


def lazy(target: str) -> Callable[..., Any]:
    """`"package.module:function"` as a function that imports its module on the first call, so
    registering a benchmark at start-up loads none of its kernels."""
    return _Lazy(target)


class _Lazy:
    """What `lazy` returns: a callable object rather than a closure, so a benchmark pickles (by
    its functions' names) for another process (`registrations`)."""

    def __init__(self, target: str) -> None:
        self.target = target
        attribute = target.partition(":")[2]
        self.__name__ = self.__qualname__ = attribute
        self.__doc__ = f"`{target}`, imported on first use."

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        module_name, _, attribute = self.target.partition(":")
        return getattr(importlib.import_module(module_name), attribute)(*args, **kwargs)


_BENCHMARKS: dict[str, Benchmark] = {}
_LOG_KINDS: dict[str, Benchmark] = {}


def register(benchmark: Benchmark) -> Benchmark:
    """Add a benchmark (idempotent for the same object; a second one under a name is a bug)."""
    known = _BENCHMARKS.get(benchmark.name)
    if known is not None and known is not benchmark:
        raise ValueError(f"benchmark {benchmark.name!r} is registered twice")
    _BENCHMARKS[benchmark.name] = benchmark
    return benchmark


def benchmarks() -> list[Benchmark]:
    """Every registered benchmark, in registration order."""
    return list(_BENCHMARKS.values())


def register_log_kind(kind: Benchmark) -> Benchmark:
    """Add logs that no benchmark writes but `verify` replays like any (the games `arcade-eval
    play` plays on their env directly): only `name`, `log_ids` and `replay` are read, it adds
    no command and `benchmarks()` does not list it. Idempotent for the same object."""
    known = _LOG_KINDS.get(kind.name)
    if (known is not None and known is not kind) or kind.name in _BENCHMARKS:
        raise ValueError(f"log kind {kind.name!r} is registered twice")
    _LOG_KINDS[kind.name] = kind
    return kind


def registrations() -> tuple[tuple[Benchmark, ...], tuple[Benchmark, ...]]:
    """Every benchmark and log kind registered, for `register_all` in a process that must replay
    the same logs (the site's replay workers, `evaluation/site/replay_pool.py`). It pickles when
    each function of each is a module-level one or `lazy`."""
    return tuple(_BENCHMARKS.values()), tuple(_LOG_KINDS.values())


def register_all(found: tuple[tuple[Benchmark, ...], tuple[Benchmark, ...]]) -> None:
    """Register what `registrations` returned, in another process: a name already registered
    there (by importing the same package while unpickling) keeps its own object."""
    for benchmark in found[0]:
        _BENCHMARKS.setdefault(benchmark.name, benchmark)
    for kind in found[1]:
        if kind.name not in _BENCHMARKS:
            _LOG_KINDS.setdefault(kind.name, kind)


def for_header(header: Mapping[str, Any]) -> Benchmark | None:
    """The benchmark (or log kind) that replays a log with this header (None: none does)."""
    log_id = header.get("benchmark")
    for benchmark in (*_BENCHMARKS.values(), *_LOG_KINDS.values()):
        if log_id is not None and log_id in benchmark.log_ids:
            return benchmark
        if log_id is None and benchmark.reads_log is not None and benchmark.reads_log(header):
            return benchmark
    return None


def add_all_parsers(subparsers: Any) -> None:
    """Every registered benchmark's sub-commands."""
    for benchmark in _BENCHMARKS.values():
        benchmark.add_parsers(subparsers)

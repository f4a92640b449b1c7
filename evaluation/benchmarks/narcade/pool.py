"""NARCADE's policies: built from the one grammar (`policies/specs.py`), one instance per episode
for seeded policies and one per game for LLMs, with the run's cost meter.

Policies come with the game names `snake`, `minesweeper` and `tetris-controls`: `random` (seeded
by the episode seed), `heuristic`, `llm:SLUG` (built and pre-flighted once per game and thread),
`py:MODULE:FACTORY` (`FACTORY(game, seed)` per episode), `cmd:`/`bf:` where the game takes them.

`narcade_pool` is the `evaluation/core/grid.py:PolicyPool` of a run. Everything it holds travels
to a model's own process by pickle; the cost meter is made in the process that plays (one per run
and process), starting from what the run's result files say was spent, so one cap holds across
the models' processes (they play one after another) and across resumes.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from evaluation.benchmarks.narcade.protocol import POLICY_GAMES
from evaluation.benchmarks.narcade.results import run_cost
from evaluation.benchmarks.narcade.settings import Settings
from evaluation.core.errors import PolicyStoppedError, RunError
from evaluation.core.grid import DEFAULT_ABORT_LIMIT, Key, PolicyPool

_METERS: dict[str, Any] = {}
"""The cost meter of each run (by its token) in this process."""
_METERS_LOCK = threading.Lock()


def make_policy(
    spec: str,
    game: str,
    seed: int,
    settings: Settings,
    *,
    preflight: bool = True,
    meter: Any = None,
) -> Any:
    """The policy `spec` names for NARCADE `game` (random baselines seeded by the episode seed;
    LLMs with the run's cache, transcripts and cost `meter`); RunError says what is wrong with
    the spec."""
    from policies.specs import SpecError, SpecOptions
    from policies.specs import make_policy as make

    options = SpecOptions(
        seed=seed,
        timeout_ms=settings.timeout_ms,
        models_file=settings.models_file,
        base_url=settings.base_url,
        preflight=preflight,
        cache_dir=settings.cache_dir,
        meter=meter,
        transcripts=settings.transcripts,
    )
    try:
        return make(spec, POLICY_GAMES[game], options)
    except SpecError as error:
        raise RunError(str(error)) from None


def check_models(models: Sequence[str], settings: Settings) -> None:
    """Build each model's policy for each game once without any network call, so a bad spec
    stops the run before it starts (an LLM's pre-flight happens where it plays)."""
    for spec in models:
        for game in settings.games:
            try:
                make_policy(spec, game, settings.seed, settings, preflight=False)
            except RunError:
                raise
            except Exception as exc:  # a factory that fails is a bad --policy, not a crash
                raise RunError(
                    f"--policy {spec}: cannot build it for {game} ({type(exc).__name__}: {exc})"
                ) from None


def instance_of(key: Key) -> tuple[str, ...]:
    """Which games share a policy instance: an LLM's games of one game (one pre-flight), else
    one instance per episode (seeded by it)."""
    spec, game = key[0], key[1]
    return (spec, game) if spec.startswith("llm:") else tuple(key)


def _meter(settings: Settings, out: str, token: str) -> Any:
    if settings.max_cost_usd is None:
        return None
    with _METERS_LOCK:
        if token not in _METERS:
            from policies.llm.cost_meter import CostMeter

            _METERS[token] = CostMeter(settings.max_cost_usd, spent_usd=run_cost(Path(out)))
        return _METERS[token]


def build(settings: Settings, out: str, token: str, instance: tuple[str, ...]) -> Any:
    """The policy of `instance_of(key)`; a policy that cannot be built (a failed pre-flight)
    stops its model (`PolicyStoppedError`), not the run."""
    spec, game = instance[0], instance[1]
    seed = int(instance[2]) if len(instance) > 2 else settings.seed
    try:
        return make_policy(spec, game, seed, settings, meter=_meter(settings, out, token))
    except Exception as exc:
        raise PolicyStoppedError(f"could not build the policy: {exc}") from None


def narcade_pool(
    settings: Settings,
    out: str | Path,
    token: str,
    *,
    abort_limit: int | None = DEFAULT_ABORT_LIMIT,
) -> PolicyPool:
    """The pool of a run into `out` (`token` names the run's cost meter; `abort_limit`: see
    `PolicyPool.abort_limit`)."""
    return PolicyPool(
        functools.partial(build, settings, str(out), token),
        token=token,
        per_game=instance_of,
        abort_limit=abort_limit,
    )

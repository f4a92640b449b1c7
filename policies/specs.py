"""The one policy grammar of every command: a SPEC names a policy for a given game.

    NAME               a built-in of that game (`random`, `heuristic`, `search`, `perfect`, ...);
    NAME:ARG           a built-in that takes an argument (e.g. `techniques:3`)
    policy:NAME        the same built-in (the arena's older spelling)
    llm:SLUG           a chat model from the registry (`arcade-eval models list`)
    py:MODULE:FACTORY  `FACTORY(game, seed)` from an importable module returns the policy
    bf:PATH            a Brainfuck program (`policies/engines/brainfuck/`)
    cmd:COMMAND        an external program, one process per move (text in, text out)
    uci:COMMAND        a UCI chess engine (`uci:stockfish?UCI_Elo=1500`)
    cli:COMMAND        an agent command-line tool: the prompt on stdin, the reply on stdout
    sb3:PATH.zip       a Stable-Baselines3 model (`sb3:ALGO:PATH.zip` names the algorithm)
    ppo:PATH.pt        a model trained by `examples/ppo.py` (`policies/ppo/`); a tic-tac-toe
                       board model takes `?depth=D&nodes=N`: a search at play time

Built-ins and engines come from each game's policies folder (`POLICIES`, read through
`policies/game_policies.py`), so adding a game adds nothing here; adding a prefix is one entry in
`PREFIXES`.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arcade_gym.games import policy_games
from policies.game_policies import GamePolicies, UnknownGameError, policies_for

FREE_FORM = ("cmd", "cli", "uci", "py")
"""Prefixes whose body may contain commas: a flag value starting with one is a single spec."""


class SpecError(ValueError):
    """A policy spec that names nothing usable: one line that says what to write instead."""


@dataclass(frozen=True)
class SpecOptions:
    """What a spec may need besides its text: the episode seed for seeded built-ins, the
    per-move time limit for external programs, and for chat models the registry, endpoint,
    response cache, the run's cost meter (`--max-cost-usd`) and transcripts."""

    seed: int = 0
    timeout_ms: float | None = None
    models_file: str | None = None
    base_url: str | None = None
    preflight: bool = True
    cache_dir: str | None = None
    meter: Any = None
    transcripts: bool = False
    extra: Mapping[str, Any] | None = None


def split_specs(values: str | Iterable[str]) -> list[str]:
    """Specs from repeatable and/or comma-separated flag values, in order, without duplicates
    (`cmd:`, `cli:`, `uci:` and `py:` values are kept whole: commands may contain commas)."""
    out: list[str] = []
    for value in [values] if isinstance(values, str) else values:
        text = value.strip()
        if text.partition(":")[0] in FREE_FORM:
            parts = [text]
        else:
            parts = [p.strip() for p in text.split(",")]
        for part in parts:
            if part and part not in out:
                out.append(part)
    return out


def _policies(game: str) -> GamePolicies:
    try:
        return policies_for(game)
    except UnknownGameError as error:
        raise SpecError(str(error)) from None


def builtin_names(game: str) -> list[str]:
    """The built-in policy names of `game`."""
    return list(_policies(game).builtins)


def _call_factory(factory: Callable[..., Any], arg: str | None, seed: int) -> Any:
    params = inspect.signature(factory).parameters
    kwargs = {"seed": seed} if "seed" in params else {}
    return factory(arg, **kwargs) if arg is not None else factory(**kwargs)


def _builtin(body: str, game: str, options: SpecOptions) -> Any:
    name, _, arg = body.partition(":")
    builtins = _policies(game).builtins
    factory = builtins.get(name)
    if factory is None:
        raise SpecError(
            f"unknown {game} policy {body!r}: choose a built-in ({', '.join(builtins)}) or "
            "llm:SLUG, py:MODULE:FACTORY, bf:PATH, cmd:COMMAND"
        )
    try:
        return _call_factory(factory, arg or None, options.seed)
    except (TypeError, ValueError) as exc:
        raise SpecError(f"policy {body!r}: {exc}") from None


def _py(body: str, game: str, options: SpecOptions) -> Any:
    module_name, _, attr = body.partition(":")
    if not module_name or not attr:
        raise SpecError(f"py:{body}: write a Python factory as py:MODULE:FACTORY")
    try:
        factory = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise SpecError(f"py:{body}: cannot import {module_name}.{attr} ({exc})") from None
    if not callable(factory):
        raise SpecError(f"py:{body}: {module_name}.{attr} is not callable")
    return factory(game, options.seed)


def _chat_options(options: SpecOptions) -> dict[str, Any]:
    return {
        "cache_dir": options.cache_dir,
        "meter": options.meter,
        "transcripts": options.transcripts,
    }


def _checked(policy: Any, what: str, options: SpecOptions) -> Any:
    """One pre-flight call in the benchmark's own reply format (unless switched off)."""
    from policies.llm import PreflightError

    if options.preflight:
        try:
            policy.preflight()
        except (PreflightError, OSError) as error:
            raise SpecError(f"{what}: {error}") from None
    return policy


def _llm(body: str, game: str, options: SpecOptions) -> Any:
    """The game's chat lane for registered model `body`."""
    from policies.llm import RegistryError
    from policies.llm.lanes import make_llm_policy

    try:
        policy = make_llm_policy(
            body,
            game,
            models_file=options.models_file,
            base_url=options.base_url,
            **_chat_options(options),
        )
    except (RegistryError, ValueError, OSError) as error:
        raise SpecError(f"llm:{body}: {error}") from None
    return _checked(policy, f"llm:{body}", options)


def _cli(body: str, game: str, options: SpecOptions) -> Any:
    """An agent command-line tool playing the game's chat lane (prompt on stdin, reply on
    stdout, one process per decision)."""
    from policies.llm.lanes import make_cli_policy

    try:
        policy = make_cli_policy(
            body, game, models_file=options.models_file, **_chat_options(options)
        )
    except ValueError as error:
        raise SpecError(f"cli:{body}: {error}") from None
    return _checked(policy, f"cli:{body}", options)


def _engine(kind: str) -> Callable[[str, str, SpecOptions], Any]:
    """An engine prefix: the game's policies say which engines speak its text contract."""

    def make(body: str, game: str, options: SpecOptions) -> Any:
        factory = _policies(game).engines.get(kind)
        if factory is None:
            players = [g for g in policy_games() if kind in _policies(g).engines]
            raise SpecError(
                f"{kind}: engines do not play {game}; they play {', '.join(players) or 'nothing'}"
            )
        if kind == "bf" and not Path(body).is_file():
            raise SpecError(f"bf:{body}: no such Brainfuck file")
        return factory(body, options)

    return make


def _sb3(body: str, game: str, options: SpecOptions) -> Any:
    from policies.sb3 import SB3ModelError, make_sb3_policy

    try:
        return make_sb3_policy(body, game, options)
    except SB3ModelError as error:
        raise SpecError(str(error)) from None


def _ppo(body: str, game: str, options: SpecOptions) -> Any:
    try:
        from policies.ppo.policy import PPOModelError, make_ppo_policy
    except ImportError as exc:
        raise SpecError(f"ppo:{body}: ppo: models need torch (the rl extra) ({exc})") from None
    try:
        return make_ppo_policy(body, game, options)
    except PPOModelError as error:
        raise SpecError(str(error)) from None


PREFIXES: dict[str, Callable[[str, str, SpecOptions], Any]] = {
    "policy": _builtin,
    "llm": _llm,
    "py": _py,
    "bf": _engine("bf"),
    "cmd": _engine("cmd"),
    "cli": _cli,
    "uci": _engine("uci"),
    "sb3": _sb3,
    "ppo": _ppo,
}
"""Prefix -> `make(body, game, options)`."""


def make_policy(spec: str, game: str, options: SpecOptions | None = None) -> Any:
    """The policy `spec` names for `game`; `SpecError` (one clear line) for anything else."""
    options = options or SpecOptions()
    text = spec.strip()
    prefix, sep, body = text.partition(":")
    make = PREFIXES.get(prefix) if sep else None
    if make is None:
        return _builtin(text, game, options)
    if not body.strip():
        raise SpecError(f"{spec!r}: nothing after {prefix}:")
    return make(body.strip(), game, options)

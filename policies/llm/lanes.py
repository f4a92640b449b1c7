"""Every LLM lane is a prompt module plus the chat-policy base; this module binds them by game.

`make_llm_policy(slug, game)` builds the lane of a registered model for any game whose policies
name a prompt factory (`GamePolicies.prompt`, `policies/game_policies.py`; the prompt lives in
`policies/<game>/prompt.py`), so this module names no game. `make_cli_policy(command, game)`
plays the same lanes through an agent command-line tool (`cli:COMMAND`); a registry entry with
that very `command` gives it its name, list price and limits.

A lane knows which benchmark it serves from its prompt (`ChatPrompt.benchmark`, the benchmark
whose questions the prompt answers) and sends that benchmark's completion budget: the entry's
`limits` for the lane's game or benchmark, else the rule of `policies/llm/budgets.py` over the
prompt's `reply_tokens`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from arcade_gym.games import policy_game
from policies.game_policies import UnknownGameError, load, policies_for
from policies.llm.budgets import DEFAULT_REPLY_TOKENS
from policies.llm.chat_policy import ChatPolicy
from policies.llm.cost_meter import CostMeter
from policies.llm.prompts.base import ChatPrompt
from policies.llm.registry import ModelSpec, get_spec, load_registry


def prompt_for(game: str) -> ChatPrompt:
    """The prompt of `game`'s LLM lane; ValueError when no LLM lane plays it."""
    try:
        policies = policies_for(game)
    except UnknownGameError as error:
        raise ValueError(f"LLMs do not play {game!r}: {error}") from None
    if policies.prompt is None:
        raise ValueError(f"LLMs do not play {game!r} yet (its policies name no prompt)")
    make = load(policies.prompt)
    if not callable(make):
        raise ValueError(f"{policies.prompt} is not a prompt factory")
    prompt: ChatPrompt = make(policies.prompt_game or game)
    return prompt


def _spec(slug: str, models_file: str | Path | None, base_url: str | None) -> ModelSpec:
    return get_spec(slug, load_registry(models_file)).with_base_url(base_url)


def lane_spec(spec: ModelSpec, game: str, prompt: ChatPrompt) -> ModelSpec:
    """`spec` with the completion budget of `game`'s lane: keyed by the game (its current name)
    and then the benchmark the prompt serves; sized by the prompt's reply budget."""
    try:
        name = policy_game(game)
    except KeyError:
        name = game
    benchmark = getattr(prompt, "benchmark", None)
    keys = tuple(k for k in (name, benchmark) if isinstance(k, str) and k)
    reply_tokens = getattr(prompt, "reply_tokens", DEFAULT_REPLY_TOKENS)
    return spec.for_lane(keys, int(reply_tokens))


def _client(spec: ModelSpec, cache_dir: str | Path | None) -> Any:
    if cache_dir is None:
        return spec.client()
    from policies.llm.cache import ResponseCache

    return spec.client(cache=ResponseCache(cache_dir))


def make_llm_policy(
    slug: str,
    game: str,
    *,
    models_file: str | Path | None = None,
    base_url: str | None = None,
    cache_dir: str | Path | None = None,
    meter: CostMeter | None = None,
    transcripts: bool = False,
) -> ChatPolicy:
    """The `llm:SLUG` lane of `game`: the registered model (`models_file` None: the built-in
    registry; `base_url` points it at another server), with the response cache in `cache_dir`,
    the run's cost `meter` and `transcripts` (request messages in the telemetry) when given.
    RegistryError names the known slugs; ValueError a game no lane plays."""
    prompt = prompt_for(game)
    spec = lane_spec(_spec(slug, models_file, base_url), game, prompt)
    return ChatPolicy(
        spec,
        prompt,
        _client(spec, cache_dir),
        meter=meter,
        transcripts=transcripts,
    )


def registered_command(command: str, models_file: str | Path | None = None) -> ModelSpec | None:
    """The registry entry whose `command` is `command` (words compared, spacing aside), if any."""
    words = command.split()
    for spec in load_registry(models_file).values():
        if spec.command is not None and spec.command.split() == words:
            return spec
    return None


def cli_spec(command: str, *, models_file: str | Path | None = None, **settings: Any) -> ModelSpec:
    """The registry entry for an agent CLI named by its command (`cli:claude -p`): the entry of
    the registry (`models_file`, else the built-in one) with that very `command` when there is
    one (its name, list price and limits), else a bare one without a price; `settings`
    override fields (e.g. `pricing`, `timeout_s`). No JSON schema: the prompt asks for the
    format."""
    known = registered_command(command, models_file)
    if known is not None:
        if not settings:
            return known
        return ModelSpec.model_validate({**known.model_dump(), **settings})
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", command.strip()).strip("-") or "cli"
    values: dict[str, Any] = {
        "slug": slug[:60],
        "name": command.strip(),
        "provider": "agent-cli",
        "model": command.strip(),
        "command": command.strip(),
        "json_schema": False,
        "timeout_s": 300.0,
        "api_key_env": "",
    }
    values.update(settings)
    return ModelSpec.model_validate(values)


def make_cli_policy(
    command: str,
    game: str,
    *,
    models_file: str | Path | None = None,
    cache_dir: str | Path | None = None,
    meter: CostMeter | None = None,
    transcripts: bool = False,
    **settings: Any,
) -> ChatPolicy:
    """The `cli:COMMAND` lane of `game`: the game's prompt on the tool's stdin, its stdout read
    as the reply (with its tokens and cost when the tool prints them,
    `policies/llm/cli_output.py`), one process per decision (killed with its tree when the
    decision ends); `models_file` is where a registry entry for the command is looked up."""
    prompt = prompt_for(game)
    spec = lane_spec(cli_spec(command, models_file=models_file, **settings), game, prompt)
    return ChatPolicy(spec, prompt, _client(spec, cache_dir), meter=meter, transcripts=transcripts)

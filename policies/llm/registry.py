"""The model registry: hosted or local chat models described as data, so adding one needs no code.

A registry is a TOML or JSON file holding a list of models (`[[models]]` in TOML,
`{"models": [...]}` or a bare list in JSON); a table keyed by slug works too. Keys may be
spelled with underscores (`max_tokens`) or in the seed's camelCase (`maxTokens`); unknown keys
are refused so a typo does not silently change a setting. The built-in registry ships as
`policies/llm/models.toml`.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic.alias_generators import to_camel

from policies.llm.budgets import Limit, as_limit, lane_budget
from policies.llm.client import (
    DEFAULT_API_KEY_ENV,
    DEFAULT_BASE_URL,
    ChatClient,
    ChatReply,
    TokenParam,
)
from policies.llm.costs import MAX_CALL_COST_USD, CallCost, estimated_cost
from policies.llm.rate_limit import limiter_for

DEFAULT_MODELS_FILE = "models.toml"
"""The built-in registry, a data file of this package."""

_CONFIG = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid", frozen=True)
_LIMIT_KEY = re.compile(r"[a-z0-9][a-z0-9._-]{0,63}")


class RegistryError(ValueError):
    """A registry file that cannot be read, or a slug it does not hold (one clear message)."""


class Pricing(BaseModel):
    """The list price in USD per million tokens: input, output, and optionally cached input
    (prompt-cache reads; absent: the input price). Used for providers that report no cost and
    as the API-equivalent cost of agent CLIs."""

    model_config = ConfigDict(populate_by_name=True, extra="forbid", frozen=True)

    input: float = Field(alias="in", ge=0)
    output: float = Field(alias="out", ge=0)
    cached: float | None = Field(default=None, ge=0)

    def cost_usd(self, prompt_tokens: int, completion_tokens: int, cached_tokens: int = 0) -> float:
        """What `prompt_tokens` in (`cached_tokens` of them read from a prompt cache) and
        `completion_tokens` out cost at these rates."""
        cached = min(max(cached_tokens, 0), prompt_tokens)
        rate = self.input if self.cached is None else self.cached
        fresh = (prompt_tokens - cached) * self.input + cached * rate
        return (fresh + completion_tokens * self.output) / 1_000_000


class Reasoning(BaseModel):
    """Reasoning settings, sent as OpenRouter's unified `reasoning` object (absent: not sent)."""

    model_config = _CONFIG

    effort: Literal["minimal", "low", "medium", "high"] | None = None
    max_tokens: int | None = Field(default=None, ge=0)
    enabled: bool | None = None
    exclude: bool | None = None

    def to_request(self) -> dict[str, Any]:
        """The request's `reasoning` object (only the settings given)."""
        return self.model_dump(exclude_none=True)


ReasoningEffort = Literal["none", "minimal", "low", "medium", "high"]


class ModelSpec(BaseModel):
    """One chat model and how to call it.

    `api_key_env` names the environment variable holding the key; an empty string means none (a
    local server). `json_schema` says whether the server honours `response_format` JSON schemas;
    without it the prompt's JSON-only instruction and the tolerant parser do the work.
    `token_param` names the completion-budget key (`max_completion_tokens` for OpenAI reasoning
    models, `none` to send no budget); `reasoning` is OpenRouter's object, `reasoning_effort` the
    OpenAI-native top-level field; `extra_body` is merged into every request (provider routing).
    `requests_per_minute` spaces this model's requests. `command` runs an agent command-line
    tool instead of calling a server (`cli:`; the prompt on stdin, the reply on stdout).
    `limits` sets the completion budget per benchmark, keyed by the lane's game or benchmark
    (`policies/llm/budgets.py` has the rule for a benchmark without one); `for_lane` resolves it.
    `seed` says whether the server takes a request `seed` (repeated sampling, `--repeats`, sends
    one per repeat; false: the repeats sample without it).
    """

    model_config = _CONFIG

    slug: str = Field(min_length=1, pattern=r"^[A-Za-z0-9][A-Za-z0-9._:/-]*$")
    name: str = ""
    description: str = ""
    provider: str = "OpenRouter"
    model: str = Field(min_length=1)
    kind: Literal["llm"] = "llm"
    temperature: float = Field(default=0.0, ge=0, le=2)
    max_tokens: int = Field(default=80, ge=1)
    token_param: TokenParam = "max_tokens"
    json_schema: bool = False
    reasoning: Reasoning | None = None
    reasoning_effort: ReasoningEffort | None = None
    pricing: Pricing | None = None
    base_url: str = DEFAULT_BASE_URL
    api_key_env: str | None = DEFAULT_API_KEY_ENV
    extra_headers: dict[str, str] = Field(default_factory=dict)
    extra_body: dict[str, Any] = Field(default_factory=dict)
    timeout_s: float = Field(default=60.0, gt=0)
    requests_per_minute: float | None = Field(default=None, gt=0)
    command: str | None = Field(default=None, min_length=1)
    limits: dict[str, Limit] = Field(default_factory=dict)
    seed: bool = True

    @field_validator("limits", mode="before")
    @classmethod
    def _numbers_are_budgets(cls, value: Any) -> Any:
        if not isinstance(value, Mapping):
            return value
        for key in value:
            if not isinstance(key, str) or not _LIMIT_KEY.fullmatch(key):
                raise ValueError(
                    f"limits key {key!r} must name a benchmark or game, lower case (e.g. narcade)"
                )
        return {key: as_limit(limit) for key, limit in value.items()}

    @field_validator("base_url")
    @classmethod
    def _http_url(cls, value: str) -> str:
        if not value.startswith(("http://", "https://")):
            raise ValueError(f"base_url must start with http:// or https://, got {value!r}")
        return value.rstrip("/")

    @field_validator("api_key_env")
    @classmethod
    def _empty_is_none(cls, value: str | None) -> str | None:
        return value or None

    @property
    def display_name(self) -> str:
        """The name for tables (the slug when no name is given)."""
        return self.name or self.slug

    def with_base_url(self, base_url: str | None) -> ModelSpec:
        """This spec pointed at another server (None: unchanged)."""
        if base_url is None:
            return self
        return ModelSpec.model_validate({**self.model_dump(), "base_url": base_url})

    def for_lane(self, keys: tuple[str, ...], reply_tokens: int) -> ModelSpec:
        """This spec with the completion budget of the lane named by `keys` (its game, then its
        benchmark) whose answers need `reply_tokens` (`policies/llm/budgets.py`)."""
        max_tokens, token_param = lane_budget(
            max_tokens=self.max_tokens,
            token_param=self.token_param,
            limits=self.limits,
            keys=keys,
            reply_tokens=reply_tokens,
            reasoning=self.reasoning.to_request() if self.reasoning is not None else None,
            reasoning_effort=self.reasoning_effort,
        )
        return self.model_copy(update={"max_tokens": max_tokens, "token_param": token_param})

    def client(self, **kwargs: Any) -> Any:
        """The client of this model: a `ChatClient` for its server (keyword arguments go to
        ChatClient; the model's requests-per-minute limiter is added), or, with `command`, a
        `CliChatClient` running the agent CLI (`policies/llm/cli_backend.py`)."""
        if self.command is not None:
            from policies.llm.cli_backend import CliChatClient

            return CliChatClient(self.command, timeout_s=self.timeout_s, cache=kwargs.get("cache"))
        if self.requests_per_minute is not None and "rate_limiter" not in kwargs:
            kwargs["rate_limiter"] = limiter_for(
                self.base_url, self.model, self.requests_per_minute
            )
        return ChatClient(
            self.base_url, self.api_key_env, self.extra_headers, self.timeout_s, **kwargs
        )

    def request_options(self) -> dict[str, Any]:
        """The model's settings as `ChatClient.build_body` keyword arguments."""
        return {
            "model": self.model,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "token_param": self.token_param,
            "reasoning": self.reasoning.to_request() if self.reasoning is not None else None,
            "reasoning_effort": self.reasoning_effort,
            "extra_body": self.extra_body,
        }

    def price(self, reply: ChatReply, *, max_usd: float = MAX_CALL_COST_USD) -> CallCost:
        """The reply's cost: the provider's sane figure (`reported`), else tokens x pricing
        (`estimated`), else unknown (with a note when a figure was refused). An agent CLI
        (`command`) runs on a subscription that bills no request: its cost is API-equivalent,
        the tokens at the list price first, else the figure the tool itself reported."""
        if self.command is not None:
            listed = self._list_price(CallCost(), reply, max_usd)
            if listed.usd is not None:
                return listed
            reported = _reported(reply)
            notes = "; ".join(n for n in (listed.note, reported.note) if n) or None
            return CallCost(reported.usd, reported.source, notes)
        return self._list_price(_reported(reply), reply, max_usd)

    def _list_price(self, reported: CallCost, reply: ChatReply, max_usd: float) -> CallCost:
        pricing = self.pricing
        return estimated_cost(
            reported,
            None if pricing is None else pricing.input,
            None if pricing is None else pricing.output,
            reply.prompt_tokens,
            reply.completion_tokens,
            max_usd=max_usd,
            cached_tokens=reply.cached_tokens,
            price_cached=None if pricing is None else pricing.cached,
        )

    def cost_usd(self, reply: ChatReply) -> float | None:
        """`price(reply).usd`: reported, else estimated, else None (unpriced)."""
        return self.price(reply).usd


def _reported(reply: ChatReply) -> CallCost:
    """The reply's reported cost (a reply built by hand may carry only `cost_usd`)."""
    if reply.reported.usd is None and reply.cost_usd is not None:
        return CallCost(reply.cost_usd, "reported")
    return reply.reported


def _entries(data: Any, source: str) -> list[dict[str, Any]]:
    """The model tables of a registry document, whatever of the accepted shapes it has."""
    if isinstance(data, Mapping) and "models" in data:
        data = data["models"]
    if isinstance(data, Mapping):  # keyed by slug
        out = []
        for slug, entry in data.items():
            if not isinstance(entry, Mapping):
                raise RegistryError(f"{source}: model {slug!r} must be a table")
            out.append({"slug": slug, **entry})
        return out
    if isinstance(data, list) and all(isinstance(entry, Mapping) for entry in data):
        return [dict(entry) for entry in data]
    raise RegistryError(f"{source}: expected a list of models ([[models]] in TOML)")


def parse_registry(text: str, *, fmt: Literal["toml", "json"], source: str) -> dict[str, ModelSpec]:
    """Parse registry text into slug -> ModelSpec; duplicate slugs and bad entries are refused."""
    try:
        data = tomllib.loads(text) if fmt == "toml" else json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        raise RegistryError(f"{source}: not valid {fmt.upper()}: {exc}") from None
    specs: dict[str, ModelSpec] = {}
    for index, entry in enumerate(_entries(data, source)):
        label = entry.get("slug", f"#{index + 1}")
        try:
            spec = ModelSpec.model_validate(entry)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in err['loc']) or 'entry'}: {err['msg']}"
                for err in exc.errors()
            )
            raise RegistryError(f"{source}: model {label!r}: {problems}") from None
        if spec.slug in specs:
            raise RegistryError(f"{source}: slug {spec.slug!r} appears twice")
        specs[spec.slug] = spec
    return specs


def load_registry(path: str | Path | None = None) -> dict[str, ModelSpec]:
    """slug -> ModelSpec from a `.toml` or `.json` file (None: the built-in registry)."""
    if path is None:
        text = resources.files("policies.llm").joinpath(DEFAULT_MODELS_FILE).read_text("utf-8")
        return parse_registry(text, fmt="toml", source=f"built-in {DEFAULT_MODELS_FILE}")
    file = Path(path)
    try:
        text = file.read_text("utf-8")
    except FileNotFoundError:
        raise RegistryError(f"models file {file} does not exist") from None
    except (OSError, UnicodeError) as exc:
        raise RegistryError(f"cannot read models file {file}: {exc}") from None
    fmt: Literal["toml", "json"] = "json" if file.suffix.lower() == ".json" else "toml"
    return parse_registry(text, fmt=fmt, source=str(file))


def get_spec(slug: str, registry: Mapping[str, ModelSpec]) -> ModelSpec:
    """The spec of `slug`; an unknown slug lists the known ones."""
    try:
        return registry[slug]
    except KeyError:
        known = ", ".join(sorted(registry)) or "(none)"
        raise RegistryError(f"unknown model {slug!r}; known models: {known}") from None

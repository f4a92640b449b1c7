"""Live runs: what a benchmark offers `arcade-eval serve` to start from a browser page.

A benchmark describes each run it offers as a `LiveRun`: a form of typed fields (a choice, a
bounded integer, a yes/no) and `argv`, which turns checked values into the `arcade-eval` command
line that does the run (so a live run writes exactly what the command writes). Settings that
belong to the person starting the server, not to the page (a folder to read), are `LiveOption`s:
`serve` adds each as a flag of its own. The server knows no benchmark: it reads these from the
registry (`evaluation/core/registry.py`, `Benchmark.live` and `Benchmark.live_options`).

`check_values` is the one validator: every value a page sends goes through it, and a bad one is
refused with one line naming the field and what it takes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from evaluation.core.errors import RunError

FieldKind = Literal["choice", "int", "bool"]
KEY = re.compile(r"[a-z][a-z0-9-]{0,40}")
"""Run keys and field names: short lowercase words (they appear in URLs, JSON and HTML ids)."""
DIGITS = re.compile(r"-?[0-9]{1,20}")
"""An integer as text (the page's number boxes send text)."""
MAX_CHOICE = 200
"""The longest choice value a page may send."""


class LiveError(RunError):
    """A request for a live run that cannot be started as sent: one line naming the fix."""


@dataclass(frozen=True)
class LiveField:
    """One input of a live run's form. `choice` takes one of `choices`; `int` an integer (or its
    decimal text) from `minimum` to `maximum`; `bool` true or false. `default` is used when a
    page leaves it out."""

    name: str
    label: str
    kind: FieldKind
    default: Any
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    help: str = ""

    def __post_init__(self) -> None:
        if not KEY.fullmatch(self.name):
            raise ValueError(f"live field name {self.name!r} is not a short lowercase word")
        if self.kind == "choice" and not self.choices:
            raise ValueError(f"live field {self.name!r} offers no choices")

    def check(self, value: Any) -> Any:
        """`value` as this field takes it; `LiveError` naming the field otherwise."""
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise LiveError(f"{self.name} must be true or false")
            return value
        if self.kind == "int":
            low = self.minimum if self.minimum is not None else "any"
            high = self.maximum if self.maximum is not None else "any"
            if isinstance(value, str) and DIGITS.fullmatch(value):
                value = int(value)  # a page sends what its box holds (2**64 - 1 is no JS number)
            if isinstance(value, bool) or not isinstance(value, int):
                raise LiveError(f"{self.name} must be an integer from {low} to {high}")
            if (self.minimum is not None and value < self.minimum) or (
                self.maximum is not None and value > self.maximum
            ):
                raise LiveError(f"{self.name} must be an integer from {low} to {high}")
            return value
        if not isinstance(value, str) or len(value) > MAX_CHOICE or value not in self.choices:
            shown = ", ".join(self.choices[:20]) + (", ..." if len(self.choices) > 20 else "")
            raise LiveError(f"{self.name} must be one of: {shown}")
        return value

    def to_dict(self) -> dict[str, Any]:
        """The field as the page reads it (camelCase keys)."""
        return {
            "name": self.name,
            "label": self.label,
            "kind": self.kind,
            "default": self.default,
            "choices": list(self.choices),
            "minimum": self.minimum,
            "maximum": self.maximum,
            "help": self.help,
        }


@dataclass(frozen=True)
class LiveRun:
    """A run a page may start. `argv(values)` gets every field's checked value and returns the
    `arcade-eval` arguments that do it; `steps` is how many progress lines a run prints when
    known (the page shows a fraction; a report may follow them), None otherwise."""

    key: str
    title: str
    description: str
    fields: tuple[LiveField, ...]
    argv: Callable[[Mapping[str, Any]], list[str]]
    steps: int | None = None

    def __post_init__(self) -> None:
        if not KEY.fullmatch(self.key):
            raise ValueError(f"live run key {self.key!r} is not a short lowercase word")
        names = [f.name for f in self.fields]
        if len(set(names)) != len(names):
            raise ValueError(f"live run {self.key!r} has two fields of one name")

    def to_dict(self) -> dict[str, Any]:
        """The run as the page reads it."""
        return {
            "key": self.key,
            "title": self.title,
            "description": self.description,
            "fields": [f.to_dict() for f in self.fields],
            "steps": self.steps,
        }


@dataclass(frozen=True)
class LiveOption:
    """A server setting a benchmark's live runs read: `serve` adds `--<name>` (a path or word)
    with `help`; the benchmark's `live(options)` gets its value under `name` (None: not given)."""

    name: str
    help: str
    metavar: str = "VALUE"

    def __post_init__(self) -> None:
        if not KEY.fullmatch(self.name):
            raise ValueError(f"live option {self.name!r} is not a short lowercase word")


def check_values(run: LiveRun, values: Any) -> dict[str, Any]:
    """Every field of `run` with its checked value (defaults for those left out); `LiveError`
    for anything that is not a mapping of known field names to good values."""
    if not isinstance(values, Mapping):
        raise LiveError("values must be an object of field names to values")
    known = {f.name: f for f in run.fields}
    unknown = sorted(str(name)[:40] for name in values if name not in known)
    if unknown:
        raise LiveError(
            f"{run.key} takes no field {unknown[0]!r}; its fields: {', '.join(known) or 'none'}"
        )
    return {
        name: field.check(values[name]) if name in values else field.default
        for name, field in known.items()
    }


def find_run(runs: Sequence[LiveRun], key: Any) -> LiveRun:
    """The run of `runs` named `key`; `LiveError` naming the offered ones otherwise."""
    for run in runs:
        if run.key == key:
            return run
    offered = ", ".join(r.key for r in runs) or "none"
    return_key = str(key)[:40] if isinstance(key, str) else type(key).__name__
    raise LiveError(f"no live run {return_key!r}; offered: {offered}")

"""The base of every contract model: snake_case in Python, the benchmarks' camelCase on the wire.

A policy written in any language reads and writes the same JSON documents, while Python code
keeps Python names.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

WIRE = ConfigDict(alias_generator=to_camel, populate_by_name=True)
"""The model config of contract models (extend it, e.g. `ConfigDict(**WIRE, frozen=True)`)."""


class WireModel(BaseModel):
    """A contract model: camelCase aliases; `to_dict()` and `to_json()` give the wire form."""

    model_config = WIRE

    def to_dict(self) -> dict[str, Any]:
        """The JSON-compatible wire form (camelCase keys, nulls kept)."""
        return self.model_dump(by_alias=True, mode="json")

    def to_json(self) -> str:
        """Compact camelCase JSON (nulls kept), as sent to out-of-process policies."""
        return self.model_dump_json(by_alias=True)

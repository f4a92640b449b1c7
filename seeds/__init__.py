"""The public benchmark inputs, installed as `arcade_gym.seeds` (see README.md here)."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any


def load_json(relative_path: str) -> Any:
    """Parse a JSON file shipped in the seeds folder, e.g. `"tetris/public-seeds.json"`."""
    return json.loads(resources.files(__name__).joinpath(relative_path).read_text())

"""Reading `sb3:[ALGO:]PATH.zip`: which algorithm saved the file, the loaded model, its identity.

An SB3 zip does not name its algorithm, but its `data` entry records the policy class (pickled,
with its module) and the algorithm's hyper-parameters; `read_algorithm` tells PPO, A2C,
MaskablePPO, DQN, QR-DQN and TRPO apart from those. The identity is a slug from the file name
plus a short hash of the file's bytes, so a log names exactly which model played.
"""

from __future__ import annotations

import base64
import importlib
import json
import zipfile
from pathlib import Path
from typing import Any

from policies.model_files import file_slug

ALGORITHMS: dict[str, str] = {
    "PPO": "stable_baselines3:PPO",
    "A2C": "stable_baselines3:A2C",
    "DQN": "stable_baselines3:DQN",
    "MaskablePPO": "sb3_contrib:MaskablePPO",
    "QRDQN": "sb3_contrib:QRDQN",
    "TRPO": "sb3_contrib:TRPO",
}
"""Algorithm name -> `module:class`; the discrete-action algorithms an arcade-gym model uses."""


class ModelFileError(ValueError):
    """A model file that cannot be played: missing, not an SB3 zip, or an unknown algorithm."""


def parse_body(body: str) -> tuple[str | None, Path]:
    """`"PPO:models/x.zip"` -> ("PPO", path); `"models/x.zip"` -> (None, path). The algorithm
    name is matched without regard to case."""
    head, sep, rest = body.partition(":")
    if sep:
        for name in ALGORITHMS:
            if name.lower() == head.strip().lower():
                return name, Path(rest.strip())
    return None, Path(body)


def _data(path: Path) -> dict[str, Any]:
    try:
        with zipfile.ZipFile(path) as archive:
            data = json.loads(archive.read("data"))
    except (OSError, zipfile.BadZipFile, KeyError, ValueError) as exc:
        raise ModelFileError(f"{path}: not a Stable-Baselines3 model zip ({exc})") from None
    if not isinstance(data, dict):
        raise ModelFileError(f"{path}: the model's data entry is not a JSON object")
    return data


def _policy_class(data: dict[str, Any]) -> type | None:
    entry = data.get("policy_class")
    if not isinstance(entry, dict) or ":serialized:" not in entry:
        return None
    try:
        import cloudpickle

        cls = cloudpickle.loads(base64.b64decode(entry[":serialized:"]))
    except Exception:  # an unimportable custom class: fall back to the hyper-parameters
        return None
    return cls if isinstance(cls, type) else None


def read_algorithm(path: Path) -> str:
    """The algorithm that saved `path`, from its policy class and hyper-parameter names."""
    data = _data(path)
    cls = _policy_class(data)
    if cls is not None:
        from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
        from sb3_contrib.qrdqn.policies import QRDQNPolicy
        from stable_baselines3.dqn.policies import DQNPolicy

        if issubclass(cls, MaskableActorCriticPolicy):
            return "MaskablePPO"
        if issubclass(cls, QRDQNPolicy):
            return "QRDQN"
        if issubclass(cls, DQNPolicy):
            return "DQN"
    if "cg_max_steps" in data:
        return "TRPO"
    if "clip_range" in data:
        return "PPO"
    if "target_update_interval" in data:
        return "DQN"
    if "n_steps" in data and "gae_lambda" in data:
        return "A2C"
    raise ModelFileError(
        f"{path}: cannot tell which algorithm saved it; name it: sb3:ALGO:{path} with ALGO one "
        f"of {', '.join(ALGORITHMS)}"
    )


def load_model(algorithm: str | None, path: Path) -> tuple[str, Any]:
    """(algorithm name, the model loaded on the CPU)."""
    if not path.is_file():
        raise ModelFileError(f"{path}: no such model file")
    name = algorithm or read_algorithm(path)
    module_name, _, class_name = ALGORITHMS[name].partition(":")
    try:
        cls = getattr(importlib.import_module(module_name), class_name)
    except ImportError as exc:
        raise ModelFileError(f"{name} needs the rl extra: pip install -e '.[rl]' ({exc})") from None
    try:
        return name, cls.load(path, device="cpu")
    except Exception as exc:  # SB3 raises many kinds on a foreign or corrupt file
        raise ModelFileError(
            f"{path}: {name} cannot load it ({type(exc).__name__}: {exc})"
        ) from None


def model_slug(path: Path, digest: str) -> str:
    """`sb3-<file stem>-<hash>`."""
    return file_slug("sb3", path, digest)

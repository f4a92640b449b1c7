"""One file per trained `ppo:` model: the weights, the architecture, the env it was trained on and
the observation normaliser's statistics, so `--policy ppo:PATH` plays it with nothing else.

The file is a `torch.save` of a plain dict: `format` and `version`, `meta` (a JSON text: env id,
env options, architecture, preset, the single observation's shapes, how it was trained) and
`state` (the state dict: weights and buffers, the running normaliser included). It is read back
with `torch.load(weights_only=True)`, which unpickles tensors and plain containers only, so a
model file from elsewhere cannot run code; everything in `meta` is checked before use.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from policies.ppo.network import ActorCritic, build

FORMAT = "arcade-gym-ppo"
VERSION = 1
MAX_BYTES = 256 << 20
"""Largest model file read (the presets' models are well under 1 MB)."""
_SCALARS = (str, int, float, bool, type(None))


class ModelFileError(ValueError):
    """A model file that cannot be played: one line naming the file and what is wrong."""


@dataclass
class PPOModel:
    """A trained actor-critic and what it was trained on."""

    env_id: str
    env_kwargs: dict[str, Any]
    """Options of the training env (`gym.make(env_id, **env_kwargs)`), JSON scalars only."""
    arch: dict[str, Any]
    network: ActorCritic
    obs_shapes: dict[str, list[int]]
    """Shape of each part of one structured observation (key "" for an env whose observation is
    one array): what a question's observation must match."""
    preset: str = ""
    trained: dict[str, Any] = field(default_factory=dict)
    """Steps, seconds, seed, hyper-parameters and final figures: for the reader, never used."""


def save_model(path: Path, model: PPOModel) -> None:
    """Write `model` to `path` (by atomic replace: a reader never sees half a file)."""
    meta = {
        "envId": model.env_id,
        "envKwargs": model.env_kwargs,
        "arch": model.arch,
        "obsShapes": model.obs_shapes,
        "preset": model.preset,
        "trained": model.trained,
    }
    payload = {"format": FORMAT, "version": VERSION, "meta": json.dumps(meta, sort_keys=True)}
    payload["state"] = model.network.state_dict()
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.partial")
    torch.save(payload, partial)
    os.replace(partial, path)


def _fail(path: Path, why: str) -> ModelFileError:
    return ModelFileError(f"{path}: {why}")


def _meta(path: Path, payload: Any) -> dict[str, Any]:
    if not isinstance(payload, dict) or payload.get("format") != FORMAT:
        raise _fail(path, f"not an {FORMAT} model file (saved by examples/ppo.py)")
    if payload.get("version") != VERSION:
        raise _fail(path, f"model file version {payload.get('version')!r}; this reads {VERSION}")
    try:
        meta = json.loads(payload.get("meta", ""))
    except (TypeError, ValueError):
        raise _fail(path, "its description is not JSON") from None
    if not isinstance(meta, dict):
        raise _fail(path, "its description is not a JSON object")
    if not isinstance(meta.get("envId"), str) or not isinstance(meta.get("arch"), dict):
        raise _fail(path, "its description names no env id or architecture")
    kwargs = meta.get("envKwargs", {})
    if not isinstance(kwargs, dict) or not all(isinstance(v, _SCALARS) for v in kwargs.values()):
        raise _fail(path, "its env options are not a JSON object of plain values")
    shapes = meta.get("obsShapes", {})
    if not isinstance(shapes, dict) or not all(
        isinstance(s, list) and all(isinstance(d, int) for d in s) for s in shapes.values()
    ):
        raise _fail(path, "its observation shapes are not lists of ints")
    return meta


def load_model(path: Path) -> PPOModel:
    """The model saved at `path`, on the CPU, in eval mode; `ModelFileError` says why not."""
    if not path.is_file():
        raise _fail(path, "no such model file")
    if path.stat().st_size > MAX_BYTES:
        raise _fail(path, f"larger than {MAX_BYTES >> 20} MB: not a model this loader reads")
    try:
        payload = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as exc:  # torch raises many kinds on a foreign or corrupt file
        raise _fail(path, f"not a torch model file ({type(exc).__name__})") from None
    meta = _meta(path, payload)
    try:
        network = build(meta["arch"])
    except ValueError as exc:
        raise _fail(path, str(exc)) from None
    state = payload.get("state")
    if not isinstance(state, dict):
        raise _fail(path, "it holds no weights")
    try:
        network.load_state_dict(state)
    except (RuntimeError, TypeError) as exc:
        first = str(exc).strip().splitlines()[:2]
        raise _fail(path, f"its weights do not fit its architecture ({' '.join(first)})") from None
    network.eval()
    return PPOModel(
        env_id=meta["envId"],
        env_kwargs=dict(meta.get("envKwargs", {})),
        arch=dict(meta["arch"]),
        network=network,
        obs_shapes={str(k): list(v) for k, v in meta.get("obsShapes", {}).items()},
        preset=str(meta.get("preset", "")),
        trained=trained if isinstance(trained := meta.get("trained"), dict) else {},
    )


def observation_shapes(space: Any) -> dict[str, list[int]]:
    """`obs_shapes` of a single structured observation space (a Dict, or one Box)."""
    parts = getattr(space, "spaces", None)
    if isinstance(parts, dict):
        return {str(key): list(part.shape or ()) for key, part in parts.items()}
    return {"": list(space.shape or ())}

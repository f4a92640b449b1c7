"""A linear Tetris controller from a weights file: `linear:PATH.json` in the policy grammar.

The cross-entropy baseline of `examples/train_tetris.py` learns one weight per `Tetris-v3`
placement feature plus a hold margin; this brain plays those weights on the official benchmark
exactly as the training kernel played them (`policies/tetris/linear_kernels.py`): the same
scores, the same tie rule, the same hold lookahead (`GreedyBrain`).

The file is JSON: `format` (`arcade-gym/tetris-linear@1`), `features` (the basic or extended
column names of `Tetris-v3`'s `placement_features`, in order), `weights` (one number each),
`holdMargin` (a number, or null to never hold) and an optional free-form `training` record.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from arcade_gym.tetris import engine as E
from arcade_gym.tetris.game import TetrisGame
from arcade_gym.tetris.rules import PLACEMENT_FEATURE_SETS
from policies.model_files import file_digest, file_slug
from policies.tetris.greedy import GreedyBrain
from policies.tetris.linear_kernels import linear_scores

FORMAT = "arcade-gym/tetris-linear@1"


class LinearWeights(BaseModel):
    """The weights file, checked: a known feature set, one finite weight per feature."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=True)

    format: str
    features: tuple[str, ...]
    weights: tuple[float, ...]
    hold_margin: float | None = Field(default=None, alias="holdMargin")
    training: dict[str, Any] | None = None

    @model_validator(mode="after")
    def _consistent(self) -> LinearWeights:
        if self.format != FORMAT:
            raise ValueError(f"format is {self.format!r}, expected {FORMAT!r}")
        if self.features not in PLACEMENT_FEATURE_SETS.values():
            sets = "; ".join(f"{k}: {', '.join(v)}" for k, v in PLACEMENT_FEATURE_SETS.items())
            raise ValueError(f"features must be one of Tetris-v3's placement feature sets ({sets})")
        if len(self.weights) != len(self.features):
            raise ValueError(f"{len(self.weights)} weights for {len(self.features)} features")
        if not all(math.isfinite(w) for w in self.weights):
            raise ValueError("every weight must be a finite number")
        if self.hold_margin is not None and not math.isfinite(self.hold_margin):
            raise ValueError("holdMargin must be a finite number or null (never hold)")
        return self


def save_linear_weights(
    path: Path,
    weights: Iterable[float],
    *,
    features: str = "extended",
    hold_margin: float | None,
    training: Mapping[str, Any] | None = None,
) -> Path:
    """Write a weights file `linear:` plays (`features`: a `placement_features` name)."""
    record = LinearWeights(
        format=FORMAT,
        features=PLACEMENT_FEATURE_SETS[features],
        weights=tuple(float(w) for w in weights),
        hold_margin=None if hold_margin is None else float(hold_margin),
        training=dict(training) if training is not None else None,
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record.model_dump(by_alias=True), indent=2) + "\n")
    return path


def load_linear_weights(path: Path) -> LinearWeights:
    """The checked weights file; `ValueError` (one line naming the file) for anything else."""
    if not path.is_file():
        raise ValueError(
            f"{path}: no such weights file (train one: python "
            "examples/train_tetris.py --method cem --out PATH.json)"
        )
    try:
        return LinearWeights.model_validate(json.loads(path.read_text()))
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}: not JSON ({error})") from None
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "file"
        raise ValueError(f"{path}: {where}: {first['msg']}") from None


class LinearBrain(GreedyBrain):
    """Linear weights on the placement features of every listed candidate, greedy, with hold
    lookahead; `linear:PATH.json` builds one from a weights file."""

    def __init__(self, path: str | Path | None = None, *, temperature: float = 5.0) -> None:
        if path is None:
            raise ValueError(
                "write linear:PATH.json, a weights file saved by "
                "examples/train_tetris.py --method cem"
            )
        file = Path(path)
        record = load_linear_weights(file)
        digest = file_digest(file)
        super().__init__(
            slug=file_slug("linear", file, digest),
            name=f"Linear {file.stem}",
            description=(
                f"Linear weights {file.name} (sha256 {digest}...) on the Tetris-v3 placement "
                "features, greedy with hold lookahead"
            ),
            kind="rl",
            adapter_version="1",
            model=f"linear:{file.name}@{digest}",
        )
        self.weights = np.array(record.weights, np.float64)
        self.hold_margin = math.inf if record.hold_margin is None else record.hold_margin
        self.temperature = temperature
        self._rows = np.empty(E.H, np.int64)
        self._scores = np.empty(E.MAX_CANDIDATES, np.float64)

    def scores(self, game: TetrisGame) -> np.ndarray:
        """weights . features of each candidate (a topping-out one far below the rest)."""
        linear_scores(
            game.board, game.st, game.cinfo, game.cfeat, self.weights, self._rows, self._scores
        )
        return self._scores[: game.n_candidates].copy()

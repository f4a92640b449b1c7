"""An SB3 policy for `Tetris-v3` that scores every candidate's afterstate with shared weights.

`Tetris-v3`'s `placements` observation holds, per action, the features of the board that action
leads to (`arcade_gym/tetris/env.py`). The classic controllers (El-Tetris, cross-entropy) rank
placements by one function of those features; this policy does the same inside MaskablePPO: the
logit of action a is `score(placements[a] / FEATURE_SCALE)`, the same small network (or linear
map, `hidden=0`) for every row, so what is learnt about one column transfers to all. Hold has
its own learnt logit. The value head pools the row embeddings of the listed placements.

The class must be importable when a saved model is loaded, so it lives in the package, not in an
example script. Models saved before it moved here from `policies/sb3/` name it
`policies.sb3.afterstate.AfterstatePolicy`; `policies/tetris/sb3.py` keeps that name loadable.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch as th
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from arcade_gym.tetris.rules import HOLD_ACTION, N_ACTIONS, PLACEMENT_FEATURE_NAMES

FEATURE_SCALE = np.array([4, 1000, 1, 20, 200, 20, 50, 30, 100, 100, 20, 4], np.float32)
"""Divisors of the placement features (linesCleared, scoreDelta, topOut, maxHeight,
aggregateHeight, holes, bumpiness, wells, rowTransitions, colTransitions, then the extended
landingHeight, erodedCells): typical magnitudes, so every input is O(1). A policy uses the first
as many as its observation has columns."""

N_FEATURES = len(PLACEMENT_FEATURE_NAMES)
"""Columns of the basic `placements` observation (the extended one has 12)."""
STATE_SIZE = 4
VALUE_HIDDEN = 64


def placement_columns(observation_space: spaces.Dict) -> int:
    """Feature columns of the `placements` observation: 10 (basic) or 12 (extended)."""
    shape = observation_space["placements"].shape
    if shape is None or len(shape) != 2 or shape[1] not in (N_FEATURES, len(FEATURE_SCALE)):
        raise ValueError(
            f"AfterstatePolicy needs Tetris-v3's placements of shape ({N_ACTIONS}, "
            f"{N_FEATURES}) or ({N_ACTIONS}, {len(FEATURE_SCALE)}), got {shape}"
        )
    return int(shape[1])


class AfterstateExtractor(BaseFeaturesExtractor):
    """Dict observation -> [45 action logits | pooled row embedding | game state]."""

    def __init__(self, observation_space: spaces.Dict, hidden: int = 32) -> None:
        n_features = placement_columns(observation_space)
        embed = hidden if hidden > 0 else n_features
        super().__init__(observation_space, features_dim=N_ACTIONS + embed + STATE_SIZE)
        self.hidden = int(hidden)
        self.n_features = n_features
        self.scale: th.Tensor
        self.register_buffer("scale", th.as_tensor(FEATURE_SCALE[:n_features]))
        self.embed: nn.Module = (
            nn.Sequential(nn.Linear(n_features, hidden), nn.Tanh()) if hidden > 0 else nn.Identity()
        )
        self.score = nn.Linear(embed, 1)
        self.hold_logit = nn.Parameter(th.zeros(1))

    def forward(self, observations: dict[str, th.Tensor]) -> th.Tensor:
        rows = observations["placements"] / self.scale
        listed = (rows.abs().sum(-1, keepdim=True) > 0).float()
        embedded = self.embed(rows)
        logits = self.score(embedded).squeeze(-1)
        logits = th.cat([logits[:, :HOLD_ACTION], self.hold_logit.expand(len(rows), 1)], dim=1)
        pooled = (embedded * listed).sum(1) / listed.sum(1).clamp(min=1.0)
        state = observations["state"] / th.tensor([10.0, 10.0, 1.0, 1.0], device=rows.device)
        return th.cat([logits, pooled, state], dim=1)


class _Heads(nn.Module):
    """The actor reads the logits as they are; the critic an MLP of the pooled part."""

    def __init__(self, features_dim: int) -> None:
        super().__init__()
        self.latent_dim_pi = N_ACTIONS
        self.latent_dim_vf = VALUE_HIDDEN
        self.value = nn.Sequential(
            nn.Linear(features_dim - N_ACTIONS, VALUE_HIDDEN),
            nn.Tanh(),
            nn.Linear(VALUE_HIDDEN, VALUE_HIDDEN),
            nn.Tanh(),
        )

    def forward(self, features: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        return self.forward_actor(features), self.forward_critic(features)

    def forward_actor(self, features: th.Tensor) -> th.Tensor:
        return features[:, :N_ACTIONS]

    def forward_critic(self, features: th.Tensor) -> th.Tensor:
        return self.value(features[:, N_ACTIONS:])


class AfterstatePolicy(MaskableActorCriticPolicy):
    """MaskablePPO policy over `Tetris-v3` dict observations: shared afterstate scoring.

    `policy_kwargs={"hidden": 0}` makes the score linear in the scaled features (what the
    cross-entropy baseline learns, so its weights load straight into this policy).
    """

    def __init__(self, *args: Any, hidden: int = 32, **kwargs: Any) -> None:
        kwargs.setdefault("features_extractor_class", AfterstateExtractor)
        kwargs.setdefault("features_extractor_kwargs", {"hidden": hidden})
        kwargs.setdefault("ortho_init", False)
        super().__init__(*args, **kwargs)

    def _build_mlp_extractor(self) -> None:
        self.mlp_extractor = _Heads(self.features_dim)  # type: ignore[assignment]

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        self.action_net = nn.Identity()
        self.optimizer = self.optimizer_class(
            self.parameters(),
            lr=lr_schedule(1),  # type: ignore[call-arg]
            **self.optimizer_kwargs,
        )

    def set_linear_weights(self, weights: np.ndarray, hold_logit: float = -1.0e4) -> None:
        """Load raw-feature linear weights (score = weights . features, as the cross-entropy
        baseline plays) into a `hidden=0` policy; hold gets `hold_logit` (never, by default)."""
        extractor = self.features_extractor
        if not isinstance(extractor, AfterstateExtractor) or extractor.hidden != 0:
            raise ValueError("set_linear_weights needs a policy built with hidden=0")
        weights = np.asarray(weights, np.float32)
        if weights.shape != (extractor.n_features,):
            raise ValueError(
                f"this policy scores {extractor.n_features} features, got {weights.shape[0]} "
                "weights"
            )
        scaled = weights * FEATURE_SCALE[: extractor.n_features]
        with th.no_grad():
            extractor.score.weight.copy_(th.as_tensor(scaled[None, :]))
            extractor.score.bias.zero_()
            extractor.hold_logit.fill_(hold_logit)

"""Stable-Baselines3 models as policies: `sb3:PATH.zip` or `sb3:ALGO:PATH.zip` in the grammar.

A model trained on an arcade-gym env answers that env's benchmark: the question is turned into
the observation the env would have shown (the game's adapter, `policies/<game>/sb3.py`), the
model scores every action (policy logits, or Q-values for DQN / QR-DQN), the best unmasked
action is taken (deterministic: the same file and question always give the same answer; for
MaskablePPO exactly
`predict(deterministic=True, action_masks=mask)`), and mapped back to the benchmark's answer.
The mask is applied for every algorithm: a model that would pick an illegal action plays its best
legal one instead. The identity names the file's hash, so a log says which model played.

The games are those whose policies folder names an adapter (`policies.sb3.games.sb3_games()`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces

from policies.base import DecisionContext, PolicyIdentity
from policies.model_files import file_digest
from policies.sb3.games import GameAdapter, adapter_for, sb3_games
from policies.sb3.loading import ModelFileError, load_model, model_slug, parse_body

ADAPTER_VERSION = "1"


class SB3Policy(PolicyIdentity):
    """A loaded SB3 model answering one game's benchmark questions."""

    def __init__(self, model: Any, algorithm: str, adapter: GameAdapter, path: Path) -> None:
        digest = file_digest(path)
        super().__init__(
            slug=model_slug(path, digest),
            name=f"{algorithm} {path.stem}",
            description=f"Stable-Baselines3 {algorithm} model {path.name} (sha256 {digest}...) "
            f"trained on {adapter.env_id}, greedy over legal actions",
            kind="rl",
            adapter_version=ADAPTER_VERSION,
            provider="stable-baselines3",
            model=f"{algorithm}:{path.name}@{digest}",
        )
        self.sb3_model = model
        self.algorithm = algorithm
        self.adapter = adapter.for_model(model.observation_space)
        self.path = path
        self.digest = digest
        self._flatteners: dict[str, Any] = {}

    def observation(self, question: Any) -> tuple[Any, np.ndarray]:
        """(the observation in the form the model was trained on, the int8 action mask)."""
        observation, mask = self.adapter.observe(question)
        expected = self.sb3_model.observation_space
        flat_wanted = (
            isinstance(expected, spaces.Box)
            and len(expected.shape) == 1
            and (isinstance(observation, dict) or np.ndim(observation) != 1)
        )
        if flat_wanted:
            observation = self._flattener(self.adapter.space(question))(observation)
        _check_shape(expected, observation, self.adapter)
        return observation, mask

    def _flattener(self, structured: spaces.Space[Any]) -> Any:
        from arcade_gym.core.observation import Flattener

        key = repr(structured)  # spaces are rebuilt per question: key on what they are
        if key not in self._flatteners:
            self._flatteners[key] = Flattener(structured)
        return self._flatteners[key]

    def scores(self, observation: Any) -> np.ndarray:
        """The model's preference for each action: policy logits, or (mean) Q-values."""
        import torch as th

        policy = self.sb3_model.policy
        tensor, _ = policy.obs_to_tensor(observation)
        with th.no_grad():
            if hasattr(policy, "quantile_net"):
                values = policy.quantile_net(tensor).mean(dim=1)
            elif hasattr(policy, "q_net"):
                values = policy.q_net(tensor)
            else:
                values = policy.get_distribution(tensor).distribution.logits
        return values.cpu().numpy().reshape(-1).astype(np.float64)

    def choose(self, question: Any) -> tuple[int, np.ndarray]:
        """(the best unmasked action, the scores with masked actions at -inf)."""
        observation, mask = self.observation(question)
        scores = self.scores(observation)
        if scores.shape[0] != mask.shape[0]:
            raise ValueError(
                f"{self.path.name} chooses among {scores.shape[0]} actions; {self.adapter.env_id} "
                f"on this board has {mask.shape[0]}"
            )
        masked = np.where(mask > 0, scores, -np.inf) if mask.any() else scores
        return int(np.argmax(masked)), masked

    def act(self, question: Any, ctx: DecisionContext | None = None) -> Any:
        """The benchmark's answer for the model's greedy legal action (for a benchmark that
        asks for a whole episode, the adapter's `episode` result)."""
        if self.adapter.episode is not None:
            return self.adapter.episode(lambda obs, mask: self._step(obs, mask, question), question)
        action, masked = self.choose(question)
        return self.adapter.answer(action, question, masked)

    def _step(self, observation: Any, mask: np.ndarray, question: Any) -> int:
        """The greedy legal action for one observation of an episode the adapter plays."""
        expected = self.sb3_model.observation_space
        if isinstance(expected, spaces.Box) and isinstance(observation, dict):
            observation = self._flattener(self.adapter.space(question))(observation)
        scores = self.scores(observation)
        return int(np.argmax(np.where(mask > 0, scores, -np.inf) if mask.any() else scores))


def _check_shape(expected: spaces.Space[Any], observation: Any, adapter: GameAdapter) -> None:
    if isinstance(expected, spaces.Dict):
        if not isinstance(observation, dict) or set(observation) != set(expected.spaces):
            raise ValueError(f"the model was not trained on {adapter.env_id}'s observation")
        for key, space in expected.spaces.items():
            if space.shape != np.shape(observation[key]):
                raise ValueError(
                    f"the model expects {key} of shape {space.shape}, the question gives "
                    f"{np.shape(observation[key])}: another board size or env?"
                )
    elif expected.shape is not None and np.shape(observation) != expected.shape:
        raise ValueError(
            f"the model expects observations of shape {expected.shape}, {adapter.env_id} on this "
            f"board gives {np.shape(observation)}: another board size or env?"
        )


class SB3ModelError(ValueError):
    """An `sb3:` spec that names no playable model: one line saying why."""


def make_sb3_policy(body: str, game: str, options: Any = None) -> SB3Policy:
    """The policy `sb3:<body>` names for `game` (`body` = `PATH.zip` or `ALGO:PATH.zip`);
    `SB3ModelError` (a ValueError the grammar reports as a SpecError) for a missing or
    unreadable file or a game without an env adapter."""
    adapter = adapter_for(game)
    if adapter is None:
        raise SB3ModelError(f"sb3: models do not play {game}; games: {', '.join(sb3_games())}")
    algorithm, path = parse_body(body)
    try:
        algorithm, model = load_model(algorithm, path)
    except ModelFileError as exc:
        raise SB3ModelError(f"sb3:{body}: {exc}") from None
    if not isinstance(model.action_space, spaces.Discrete):
        raise SB3ModelError(
            f"sb3:{body}: the model's actions are not Discrete; arcade-gym envs are"
        )
    return SB3Policy(model, algorithm, adapter, path)


__all__ = ["SB3ModelError", "SB3Policy", "make_sb3_policy"]

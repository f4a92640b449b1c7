"""A `ppo:` model file as a policy: the benchmark's question -> the env's observation -> the
network's logits -> the best legal action -> the benchmark's answer.

`ppo:PATH?depth=D` (a tic-tac-toe `board` model only) plays a depth-D negamax over the game's
rules whose unfinished leaves the network's value scores (`policies/ppo/search.py`); `&width=K`
expands only the network's K likeliest moves below the root; `&nodes=N` searches only as deep
as a tree of N leaves allows on the position. Depth 0 (the default) is the
network alone.

The question is turned into the observation the training env would have shown through the
game's adapter (`policies/<game>/sb3.py`, the same one `sb3:` models use), in the form the
network reads (flat or structured), with the adapter's action mask. The choice is greedy over the
legal actions, so the same file and question always give the same answer. A game whose benchmark
asks for a whole episode's result (Sudoku's filled grid) names an `episode` in its adapter: the
network plays the episode from the question's position and the adapter answers with the result.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import torch

from policies.base import DecisionContext, PolicyIdentity
from policies.model_files import file_digest, file_slug
from policies.ppo.model_file import ModelFileError, PPOModel, load_model, observation_shapes
from policies.ppo.network import BOARD_LINES, as_tensors, masked_logits
from policies.ppo.search import SearchSettings, best_move
from policies.sb3.adapter import GameAdapter
from policies.spec_query import query_options

ADAPTER_VERSION = "1"


@lru_cache(maxsize=8)
def _training_space(env_id: str, kwargs: tuple[tuple[str, Any], ...]) -> Any:
    """The structured observation space of the env a model was trained on."""
    import gymnasium as gym

    import arcade_gym  # noqa: F401  (registers the envs)

    env = gym.make(env_id, **dict(kwargs))
    try:
        return env.observation_space
    finally:
        env.close()


class _Player:
    """One model file with the adapter that rebuilds its observations."""

    def __init__(self, model: PPOModel, adapter: GameAdapter, path: Path) -> None:
        self.model, self.path, self.network = model, path, model.network
        space = _training_space(model.env_id, tuple(sorted(model.env_kwargs.items())))
        self.adapter = adapter.for_model(space)
        self.flatten: Any = None
        if self.network.input_form == "flat":
            from arcade_gym.core.observation import Flattener

            self.flatten = Flattener(space)

    def fits(self, observation: Any) -> bool:
        """Whether the observation has the shapes the model was trained on (any board size for
        a network that plays every size: `BoardActorCritic.any_board`)."""
        if getattr(self.network, "any_board", False) and not isinstance(observation, dict):
            shape = np.shape(observation)
            return len(shape) == 3 and shape[0] == shape[1] in BOARD_LINES and shape[2] == 2
        parts = observation if isinstance(observation, dict) else {"": observation}
        return {key: list(np.shape(value)) for key, value in parts.items()} == (
            self.model.obs_shapes
        )

    def scores(self, observation: Any) -> np.ndarray:
        """The network's logits for one observation (the env's structured form)."""
        if self.flatten is not None:
            batch: Any = self.flatten(observation)[None]
        elif isinstance(observation, dict):
            batch = {key: np.asarray(value)[None] for key, value in observation.items()}
        else:
            batch = np.asarray(observation)[None]
        with torch.no_grad():
            logits, _ = self.network(as_tensors(batch))
        return logits[0].numpy().astype(np.float64)


class PPOPolicy(PolicyIdentity):
    """Loaded `ppo:` models answering one game's benchmark questions, greedy over legal moves.

    Several files (`ppo:A.pt+B.pt`, e.g. one per tic-tac-toe board size) make one policy: each
    question goes to the first model whose training observations have its shapes."""

    def __init__(
        self,
        models: list[PPOModel],
        adapter: GameAdapter,
        paths: list[Path],
        search: SearchSettings | None = None,
    ) -> None:
        self.search = search or SearchSettings()
        digests = [file_digest(path) for path in paths]
        digest = digests[0] if len(paths) == 1 else _combined(digests)
        names = "+".join(path.name for path in paths)
        trained = ", ".join(sorted({m.env_id for m in models}))
        presets = ", ".join(m.preset or "custom" for m in models)
        stems = Path("+".join(path.stem for path in paths))
        searched = self.search.query()
        how = (
            f"negamax of depth {self.search.depth} over the rules, the network's value at the "
            f"leaves{f', width {self.search.width}' if self.search.width else ''}"
            f"{f', at most {self.search.nodes} leaves' if self.search.nodes else ''}"
            if self.search.depth
            else "greedy over legal actions"
        )
        super().__init__(
            slug=file_slug("ppo", paths[0] if len(paths) == 1 else stems, digest)
            + searched.replace("?", "-").replace("&", "-").replace("=", ""),
            name=f"PPO {stems}{searched}",
            description=f"PPO model {names} (sha256 {', '.join(digests)}) trained on {trained} "
            f"(preset {presets}) by examples/ppo.py, {how}",
            kind="rl",
            adapter_version=ADAPTER_VERSION,
            provider="arcade-gym-ppo",
            model=f"ppo:{names}{searched}@{digest}",
        )
        self.players = [_Player(m, adapter, p) for m, p in zip(models, paths, strict=True)]
        self.adapter = self.players[0].adapter
        self.paths, self.digest = paths, digest

    def _player(self, observation: Any) -> _Player:
        for player in self.players:
            if player.fits(observation):
                return player
        parts = observation if isinstance(observation, dict) else {"": observation}
        shapes = {key: list(np.shape(value)) for key, value in parts.items()}
        trained = "; ".join(f"{p.path.name}: {p.model.obs_shapes}" for p in self.players)
        raise ValueError(
            f"no model here was trained on observations {shapes} ({trained}): another board "
            "size? Name one model per size: ppo:A.pt+B.pt"
        )

    def choose(self, observation: Any, mask: np.ndarray) -> tuple[int, np.ndarray]:
        """(the best legal action, the logits with masked actions at the masked logit)."""
        player = self._player(observation)
        legal = np.asarray(mask).reshape(-1) > 0
        if self.search.depth and getattr(player.network, "any_board", False):
            return best_move(player.network, np.asarray(observation), legal, self.search)
        scores = player.scores(observation)
        if scores.shape != legal.shape:
            raise ValueError(
                f"{player.path.name} chooses among {scores.shape[0]} actions; "
                f"{player.model.env_id} here has {legal.shape[0]}"
            )
        masked = masked_logits(torch.from_numpy(scores), torch.from_numpy(legal)).numpy()
        return int(np.argmax(masked)), masked

    def act(self, question: Any, ctx: DecisionContext | None = None) -> Any:
        """The benchmark's answer: the greedy legal action, or the episode's result."""
        if self.adapter.episode is not None:
            return self.adapter.episode(lambda obs, mask: self.choose(obs, mask)[0], question)
        for player in self.players:
            observation, mask = player.adapter.observe(question)
            if player.fits(observation) or player is self.players[-1]:
                break
        action, masked = self.choose(observation, mask)
        return player.adapter.answer(action, question, masked)


def parse_search(body: str, query: str) -> SearchSettings:
    """`depth=2&width=8` -> SearchSettings; `PPOModelError` for an unknown key or a bad number."""
    try:
        pairs = query_options(query, "?depth=2&width=8")
    except ValueError as error:
        raise PPOModelError(f"ppo:{body}: {error}") from None
    values: dict[str, int] = {}
    for key, value in pairs:
        if key not in ("depth", "width", "nodes"):
            raise PPOModelError(f"ppo:{body}: unknown option {key!r}; options: depth, width, nodes")
        try:
            values[key] = int(value)
        except ValueError:
            why = f"{key} must be a whole number, got {value!r}"
            raise PPOModelError(f"ppo:{body}: {why}") from None
    try:
        return SearchSettings(**values)
    except ValueError as exc:
        raise PPOModelError(f"ppo:{body}: {exc}") from None


def _combined(digests: list[str]) -> str:
    import hashlib

    return hashlib.sha256("+".join(digests).encode()).hexdigest()[: len(digests[0])]


class PPOModelError(ValueError):
    """A `ppo:` spec that names no playable model: one line saying why."""


def make_ppo_policy(body: str, game: str, options: Any = None) -> PPOPolicy:
    """The policy `ppo:<body>` names for `game` (`body` = a model file's path, or several joined
    by `+`); `PPOModelError` (a ValueError the grammar reports as a SpecError) for a missing or
    unreadable file, a game without an env adapter, or a model trained on another game's env;
    `?depth=D&width=K` after the paths asks for a search (`SearchSettings`)."""
    from policies.sb3.games import adapter_for, sb3_games

    body, _, query = body.partition("?")
    search = parse_search(body, query)

    adapter = adapter_for(game)
    if adapter is None:
        raise PPOModelError(f"ppo: models do not play {game}; games: {', '.join(sb3_games())}")
    paths = [Path(part.strip()) for part in body.split("+") if part.strip()]
    models = []
    for path in paths:
        try:
            model = load_model(path)
        except ModelFileError as exc:
            raise PPOModelError(f"ppo:{exc}") from None
        if model.env_id != adapter.env_id:
            raise PPOModelError(
                f"ppo:{path} was trained on {model.env_id}; {game} is played on {adapter.env_id}"
            )
        models.append(model)
    if not models:
        raise PPOModelError(f"ppo:{body}: name a model file")
    if search.depth and not all(getattr(m.network, "any_board", False) for m in models):
        raise PPOModelError(f"ppo:{body}?{query}: a search needs a tic-tac-toe board model")
    try:
        return PPOPolicy(models, adapter, paths, search)
    except (TypeError, ValueError) as exc:  # the env rejects the options a file records
        raise PPOModelError(f"ppo:{body}: {exc}") from None


__all__ = ["PPOModelError", "PPOPolicy", "make_ppo_policy", "observation_shapes"]

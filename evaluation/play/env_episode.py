"""A game no benchmark records, played on its first env directly: each decision is one action
index of a `Discrete` action space, through the one episode loop (`evaluation/core/episode.py`).

The log (`evaluation/core/eventlog.py` format, benchmark `play-env`) records the env id, the seed
and every action with the reward, the end flags and a digest of the observation it led to, so
`arcade-eval verify` re-runs the env from the seed (`replay_env`, registered as a log kind) and
checks each step through the same replay as every benchmark's log: the game replays.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from evaluation.core.episode import Judged, LiveCaller, Rules, play_episode
from evaluation.core.eventlog import GameLog, LogContents, header_event, to_jsonable
from evaluation.core.policy_call import CallOutcome
from evaluation.core.policy_identity import policy_identity
from evaluation.core.registry import Replay
from evaluation.play import ENV_LOG_ID

MAX_STEPS = 10_000
"""Decisions before a game is cut (`decision cap`), so no env plays forever."""
FAILURE_STREAK = 3
"""Refused answers in a row that end the game (a person's keys only give legal ones)."""


@dataclass(frozen=True)
class EnvQuestion:
    """What the player sees: the step, the env's ansi text (or its observation printed), the
    actions `first` to `first + actions - 1` and the legal ones (None: every action is legal)."""

    step: int
    text: str
    actions: int
    legal: tuple[int, ...] | None
    first: int = 0


def make_env(env_id: str) -> tuple[gym.Env, bool]:
    """The registered env `env_id` (Gymnasium id with its namespace), rendering ansi text when it
    can; whether it does."""
    entry_point = gym.spec(env_id).entry_point
    creator: Any = entry_point
    if isinstance(entry_point, str):
        creator = gym.envs.registration.load_env_creator(entry_point)
    ansi = "ansi" in (getattr(creator, "metadata", None) or {}).get("render_modes", ())
    return gym.make(env_id, render_mode="ansi" if ansi else None), ansi


def observation_text(observation: Any) -> str:
    """An observation as text lines (a dict one key a line)."""
    if isinstance(observation, Mapping):
        return "\n".join(f"{key}: {value}" for key, value in observation.items())
    return str(observation)


def digest(space: gym.Space[Any], observation: Any) -> str:
    """16 hex digits over the flattened observation: a replay that diverges shows here."""
    flat = np.ascontiguousarray(gym.spaces.flatten(space, observation))
    return hashlib.sha256(str(flat.dtype).encode() + flat.tobytes()).hexdigest()[:16]


class EnvEpisode:
    """One game of `env_id` from `env.reset(seed=seed)`; an answer is an action index."""

    realtime = False

    def __init__(self, env_id: str, seed: int, limit_ms: float | None, max_steps: int) -> None:
        self.env, self.ansi = make_env(env_id)
        space = self.env.action_space
        if not isinstance(space, gym.spaces.Discrete):
            self.env.close()
            raise ValueError(f"{env_id} has a {space} action space; play types Discrete actions")
        self.actions = int(space.n)
        self.start = int(space.start)
        self.limit_ms = limit_ms
        self.rules = Rules(unusable_limit=FAILURE_STREAK, max_decisions=max_steps)
        self.observation, self.info = self.env.reset(seed=seed)
        self.steps = 0
        self.total = 0.0
        self.end: str | None = None

    @property
    def over(self) -> bool:
        return self.end is not None

    def legal(self) -> tuple[int, ...] | None:
        """The unmasked actions (`info["action_mask"]`, else `action_masks()`), None if no mask."""
        mask = self.info.get("action_mask")
        if mask is None and callable(getattr(self.env.unwrapped, "action_masks", None)):
            mask = self.env.unwrapped.action_masks()  # type: ignore[attr-defined]
        if mask is None:
            return None
        return tuple(self.start + i for i, ok in enumerate(np.asarray(mask).ravel()) if ok)

    def question(self) -> EnvQuestion:
        rendered = self.env.render() if self.ansi else None
        text = rendered if isinstance(rendered, str) else observation_text(self.observation)
        return EnvQuestion(self.steps, text, self.actions, self.legal(), self.start)

    def call_limit_ms(self) -> float | None:
        return self.limit_ms

    def judge(self, call: CallOutcome, question: EnvQuestion) -> Judged[int]:
        if call.status != "ok":
            return Judged(call.status, reason=call.error)
        action = call.answer
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            return Judged("invalid", reason=f"an action is a whole number, got {action!r}")
        action = int(action)
        if not question.first <= action < question.first + question.actions:
            return Judged("invalid", reason=f"action {action} is not one of the env's actions")
        if question.legal is not None and action not in question.legal:
            return Judged("invalid", reason=f"action {action} is masked")
        return Judged("valid", verdict=action)

    def apply(self, judged: Judged[int], elapsed_ms: float | None) -> dict[str, Any]:
        if judged.status != "valid":
            return {"status": judged.status, "reason": judged.reason}
        action = judged.verdict
        observation, reward, terminated, truncated, info = self.env.step(action)
        self.observation, self.info = observation, info
        self.steps += 1
        self.total += float(reward)
        if terminated or truncated:
            self.end = "terminated" if terminated else "truncated"
        return {
            "status": "valid",
            "action": action,
            "reward": to_jsonable(float(reward)),
            "terminated": bool(terminated),
            "truncated": bool(truncated),
            "observation": digest(self.env.observation_space, observation),
        }

    def force_end(self, reason: str) -> None:
        self.end = reason

    def result(self) -> dict[str, Any]:
        return {"endReason": self.end, "steps": self.steps, "totalReward": to_jsonable(self.total)}

    def close(self) -> None:
        self.env.close()


def registered_env_ids() -> list[str]:
    """The Gymnasium ids (with namespace) of every game's envs: the only ones a log may name."""
    from arcade_gym.games import env_entries
    from arcade_gym.registration import NAMESPACE

    return [f"{NAMESPACE}/{entry.id}" for _, entry in env_entries()]


def env_settings(game: str, env_id: str, limit_ms: float | None) -> dict[str, Any]:
    """The header settings a replay rebuilds the game from."""
    return {"game": game, "envId": env_id, "maxSteps": MAX_STEPS, "timeoutMs": limit_ms}


def play_env_game(
    policy: Any, episode: EnvEpisode, settings: Mapping[str, Any], seed: int, log: Path
) -> dict[str, Any]:
    """Play `episode` with `policy`, recording it at `log`; the result line's fields."""
    with GameLog(log) as writer:
        writer.write(
            header_event(
                benchmark=ENV_LOG_ID,
                versions={"game": settings["game"], "env": settings["envId"]},
                seed=seed,
                policy=policy_identity(policy),
                settings=settings,
            )
        )
        played = play_episode(episode, LiveCaller(policy), writer)
    return {k: v for k, v in played.result.items() if k != "type"}


def replay_env(contents: LogContents) -> Replay:
    """The game a `play-env` log records, at its start, for `arcade-eval verify` (the log kind
    `evaluation/play/__init__.py` registers): the env the header names, reset from its seed; a
    ValueError for a header that names no registered game's env or no game's seed."""
    header = contents.header
    settings = header.get("settings")
    settings = settings if isinstance(settings, Mapping) else {}
    env_id, seed, steps = settings.get("envId"), header.get("seed"), settings.get("maxSteps")
    if header.get("benchmark") != ENV_LOG_ID or not isinstance(env_id, str):
        raise ValueError(f"not a {ENV_LOG_ID} log")
    if env_id not in registered_env_ids():
        raise ValueError(f"{env_id!r} is no registered game's env")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError("the header's seed is not an env seed")
    if isinstance(steps, bool) or not isinstance(steps, int) or not 0 < steps <= MAX_STEPS:
        raise ValueError(f"the header's maxSteps is not 1 to {MAX_STEPS}")
    limit = settings.get("timeoutMs")
    if limit is not None and (
        isinstance(limit, bool) or not isinstance(limit, int | float) or not 0 < limit < 1e12
    ):
        raise ValueError("the header's timeoutMs is not a time")
    try:
        episode = EnvEpisode(env_id, seed, limit, steps)
    except gym.error.Error as error:
        raise ValueError(str(error)) from None
    return Replay(episode, contents.events, contents.result)

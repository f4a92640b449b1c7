"""What a game folder tells the rest of the suite about itself: one `GameDescriptor`.

Every registry (Gymnasium ids, vector entry points, warmups, the policy grammar, the LLM lanes, the
SB3 adapters, `arcade-eval bench`) is read off the descriptors, so adding a game is one folder that
exports `GAME` and one name in `arcade_gym/games.py`. Every field is data (strings naming
`module:attribute`), so reading a descriptor imports no kernel and compiles nothing.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class EnvEntry:
    """One registered env of a game.

    `id` is the Gymnasium id without the namespace (`Tetris-v3`); `entry_point` and
    `vector_entry_point` are `module:Class`; `game` names the questions the env asks (the
    policy grammar's game: a policy for `game` plays this env's benchmark questions).
    `game_aliases` are older names of `game`, still read wherever a game name is.
    `max_episode_steps` goes into the Gymnasium spec (`gym.make` then adds its `TimeLimit`): a
    number of steps no episode of the env at its default options outlasts, so the wrapper never
    ends one sooner than the env itself would; each descriptor says why its value.
    """

    id: str
    entry_point: str
    game: str
    vector_entry_point: str | None = None
    game_aliases: tuple[str, ...] = ()
    max_episode_steps: int | None = None


@dataclass(frozen=True)
class AecEntry:
    """A game's two-player PettingZoo (AEC) env: `name` is its public, versioned PettingZoo name
    (`tictactoe_v0`, importable as `arcade_gym.multiagent.<name>`); `module` is the module in
    the game's folder that holds it (`env()`, `raw_env`, as PettingZoo's own env modules do).
    """

    name: str
    module: str


@dataclass(frozen=True)
class GameDescriptor:
    """A game folder: its name, its envs, and where its facets live.

    `warmup` compiles (or loads from numba's cache) the folder's kernels (`module:function`);
    `policies` is the module of its built-in policies (`policies/<game>/`, read by the policy
    layer, never imported here); `aec` names its PettingZoo env when it has one (`AecEntry`).
    `bench` (`module:function(seconds) -> arcade_gym.core.throughput.Figures`) adds the figures
    `arcade-eval bench` cannot measure generically (every env's steps are measured for it).
    `viewer` (`package:file`, e.g. `arcade_gym.tetris:viewer.js`) is the script the results site
    copies to draw the frames of its `frame.py:frame` (`docs/frames.md`); None: no replay viewer.
    `selfplay` (`module:function(aec_env, name, seed) -> move(aec_env) -> action`) resolves the
    built-in opponents a self-play pool names (`arcade_gym/selfplay/`); None: callables only.
    """

    name: str
    title: str
    envs: tuple[EnvEntry, ...]
    warmup: str
    policies: str
    aec: AecEntry | None = None
    bench: str | None = None
    viewer: str | None = None
    selfplay: str | None = None

    @property
    def games(self) -> tuple[str, ...]:
        """The policy-grammar games this folder's envs ask, in env order, without duplicates."""
        return tuple(dict.fromkeys(entry.game for entry in self.envs))

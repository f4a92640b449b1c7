"""Self-play for the two-player games: a single-agent Gymnasium env against an opponent pool.

Single env, over any two-player PettingZoo AEC env of the suite (`tictactoe_v0`, `chess_v0`):

    from arcade_gym.multiagent import tictactoe_v0
    from arcade_gym.selfplay import SelfPlayEnv, Snapshot

    snapshot = Snapshot()                      # the learner's frozen copy, refreshed by the trainer
    env = SelfPlayEnv(tictactoe_v0.env(size=3),
                      opponent={"random": 0.2, "perfect": 0.1, snapshot: 0.7})
    obs, info = env.reset(seed=0)              # info["action_mask"], info["opponent"], ...
    snapshot.update(lambda obs, mask: ...)     # (obs, mask) -> action, the opponent's own view

- `opponent`: a built-in's name (tic-tac-toe: random, greedy, tactician, perfect; chess: random,
  greedy, material-2ply), a callable `(obs, mask) -> action`, a `Snapshot`, or a mix
  `{opponent: weight}` / `[(opponent, weight), ...]`: one member plays each episode, drawn from
  the episode's seed, named in `info["opponent"]`.
- The learner alternates sides every episode (`learner="alternate"`; "first"/"second" fix it);
  its observation is the AEC env's from its side (tic-tac-toe: exactly `TicTacToe-v0`'s, so a
  model trained here plays `TicTacToe-v0` and the arena).
- Reward: +1 win, -1 loss (the opponent's winning reply included), 0 draw, delivered on the
  learner's last step; masks in `action_masks()` and `info["action_mask"]` (MaskablePPO).

Vector form, tic-tac-toe only (one numba call per half-move, the opponent called once per step on
the whole batch):

    from arcade_gym.selfplay import TicTacToeSelfPlayVectorEnv
    venv = TicTacToeSelfPlayVectorEnv(num_envs=256, size=3, opponent={"greedy": 0.5, snapshot: 0.5})

There a callable opponent gets `(N, size, size, 2)` observations and `(N, size * size)` masks of
the games it plays this step and returns `(N,)` actions; the built-ins run per game
(`opening=N`: games start from random openings). `TicTacToeMixedSelfPlayVectorEnv` runs several
board sizes at once on one canvas (`arcade_gym/tictactoe/selfplay_mixed.py`). Both forms
follow the suite's env rules (`arcade_gym/core/env.py`, `arcade_gym/core/vector.py`).
"""

from __future__ import annotations

from typing import Any

from arcade_gym.selfplay.env import LEARNER_SIDES, SelfPlayEnv
from arcade_gym.selfplay.pool import Member, OpponentFn, OpponentPool, OpponentSpec, Snapshot


def __getattr__(name: str) -> Any:
    if name == "TicTacToeSelfPlayVectorEnv":  # compiles kernels: imported on first use only
        from arcade_gym.tictactoe.selfplay_vector import TicTacToeSelfPlayVectorEnv

        return TicTacToeSelfPlayVectorEnv
    if name == "TicTacToeMixedSelfPlayVectorEnv":  # several board sizes on one canvas
        from arcade_gym.tictactoe.selfplay_mixed import TicTacToeMixedSelfPlayVectorEnv

        return TicTacToeMixedSelfPlayVectorEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "LEARNER_SIDES",
    "Member",
    "OpponentFn",
    "OpponentPool",
    "OpponentSpec",
    "SelfPlayEnv",
    "Snapshot",
    "TicTacToeMixedSelfPlayVectorEnv",
    "TicTacToeSelfPlayVectorEnv",
]

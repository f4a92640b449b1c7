"""PPO models trained by `examples/ppo.py`, played through the policy grammar as `ppo:PATH`.

`network.py` holds the actor-critic kinds (shared by the trainer and the player), `model_file.py`
the one-file format (weights, architecture, env, normaliser statistics), `policy.py` the policy
that answers a benchmark's questions with the model's greedy legal action. torch is imported only
when a model is loaded.
"""

from __future__ import annotations

from typing import Any


def make_ppo_policy(body: str, game: str, options: Any = None) -> Any:
    """The policy `ppo:<body>` names for `game` (`policies/ppo/policy.py`)."""
    from policies.ppo.policy import make_ppo_policy as make

    return make(body, game, options)


__all__ = ["make_ppo_policy"]

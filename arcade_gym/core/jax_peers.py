"""The JAX peers' side of `arcade-eval bench --peers`: Jumanji and pgx envs played the way their
authors batch them, with uniform random legal actions (needs the `peers` extra: jax, jumanji, pgx).

An env is two pure functions: `init(key) -> carry` and `step(carry, key) -> carry`, the step
drawing a uniform legal action from the carry's mask and starting a new game when one ends (in
the same call: every call is a counted step, no dead ones). `single` calls one jitted step per
step from Python, as a single env is used; `batched` runs `lax.scan` over `jax.vmap(step)` of N
games, as the JAX libraries recommend. Their first call (JAX's compile) is timed apart by
`arcade_gym.core.peers.timed`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp

from arcade_gym.core.peers import Runner

Init = Callable[[Any], Any]
Step = Callable[[Any, Any], Any]

SCAN_LENGTH = 32
"""Steps of all N games per `lax.scan` call of a batched runner."""


def random_legal(key: Any, mask: Any) -> Any:
    """A uniform legal flat index of `mask` (any shape, true = legal)."""
    flat = jnp.reshape(mask, (-1,))
    return jax.random.categorical(key, jnp.where(flat, 0.0, -jnp.inf))


def single(init: Init, step: Step, seed: int = 0) -> Runner:
    """One game, one jitted call per step (the call also splits the key)."""

    @jax.jit
    def advance(carry: Any, key: Any) -> tuple[Any, Any]:
        key, sub = jax.random.split(key)
        return step(carry, sub), key

    key, sub = jax.random.split(jax.random.PRNGKey(seed))
    carry = jax.jit(init)(sub)

    def run(deadline: float) -> int:
        nonlocal carry, key
        steps = 0
        while True:
            for _ in range(256):
                carry, key = advance(carry, key)
            jax.block_until_ready(carry)
            steps += 256
            if time.perf_counter() >= deadline:
                return steps

    return run


def batched(init: Init, step: Step, games: int, seed: int = 0) -> Runner:
    """`games` games stepped together: `SCAN_LENGTH` steps of `jax.vmap(step)` per call."""

    @jax.jit
    def rollout(carry: Any, key: Any) -> tuple[Any, Any]:
        def body(state: tuple[Any, Any], _: Any) -> tuple[tuple[Any, Any], None]:
            carry, key = state
            key, sub = jax.random.split(key)
            carry = jax.vmap(step)(carry, jax.random.split(sub, games))
            return (carry, key), None

        (carry, key), _ = jax.lax.scan(body, (carry, key), None, length=SCAN_LENGTH)
        return carry, key

    key, sub = jax.random.split(jax.random.PRNGKey(seed))
    carry = jax.jit(jax.vmap(init))(jax.random.split(sub, games))

    def run(deadline: float) -> int:
        nonlocal carry, key
        steps = 0
        while True:
            carry, key = rollout(carry, key)
            jax.block_until_ready(carry)
            steps += games * SCAN_LENGTH
            if time.perf_counter() >= deadline:
                return steps

    return run


def jumanji_env(env: Any) -> tuple[Init, Step]:
    """A Jumanji env (auto-reset inside its step) as `(init, step)`: the carry is its
    `(state, timestep)`; the action is a uniform legal entry of the observation's `action_mask`,
    unravelled to the action spec's shape (a (rotation, column) or (row, col, digit) action)."""
    from jumanji.wrappers import AutoResetWrapper

    wrapped = AutoResetWrapper(env)
    shape = tuple(int(n) for n in jnp.atleast_1d(env.action_spec.num_values))
    scalar = jnp.ndim(env.action_spec.num_values) == 0

    def init(key: Any) -> Any:
        return wrapped.reset(key)

    def step(carry: Any, key: Any) -> Any:
        state, timestep = carry
        index = random_legal(key, timestep.observation.action_mask)
        action = index if scalar else jnp.stack(jnp.unravel_index(index, shape))
        return wrapped.step(state, action.astype(jnp.int32))

    return init, step


def pgx_env(env: Any) -> tuple[Init, Step]:
    """A pgx env as `(init, step)`: one ply of the player to move, uniform among its
    `legal_action_mask`; an ended game restarts within the same call."""

    def init(key: Any) -> Any:
        return env.init(key)

    def step(state: Any, key: Any) -> Any:
        k_action, k_step, k_init = jax.random.split(key, 3)
        action = random_legal(k_action, state.legal_action_mask)
        state = env.step(state, action, k_step)
        ended = state.terminated | state.truncated
        fresh = env.init(k_init)
        return jax.tree_util.tree_map(lambda new, old: jnp.where(ended, new, old), fresh, state)

    return init, step

"""Snake beside its peer (`arcade-eval bench --peers`): Jumanji's Snake-v1 against `Snake-v0`
on the same 12x12 board (our medium difficulty), single and batched."""

from __future__ import annotations

from arcade_gym.core.peers import Built, PeerPair, our_single, our_vector, timed
from arcade_gym.snake.bench import STEP_UNITS

UNIT = "one move of the snake, random legal direction, 12x12 board (ours: medium)"


def _jumanji(games: int) -> Built:
    import jumanji

    from arcade_gym.core import jax_peers

    init, step = jax_peers.jumanji_env(jumanji.make("Snake-v1", num_rows=12, num_cols=12))
    if games == 1:
        return timed(lambda: jax_peers.single(init, step))
    return timed(lambda: jax_peers.batched(init, step, games))


def peer_pairs() -> list[PeerPair]:
    """Snake's pairs."""
    unit = STEP_UNITS["Snake-v0"]
    return [
        PeerPair(
            "Snake-v0 vs jumanji Snake-v1",
            "single",
            UNIT,
            our_single("arcade_gym/Snake-v0", unit, difficulty="medium"),
            _jumanji,
            ("jax", "jumanji"),
        ),
        PeerPair(
            "Snake-v0 vector vs jumanji Snake-v1 vmap+scan",
            "batched",
            UNIT,
            our_vector("arcade_gym/Snake-v0", unit, difficulty="medium"),
            _jumanji,
            ("jax", "jumanji"),
            games=1024,
            sweep=(1024, 4096),
        ),
    ]

"""Minesweeper beside its peer (`arcade-eval bench --peers`): Jumanji's Minesweeper-v0 set to our
easy board (9x9, 10 mines) against `Minesweeper-v0`, single and batched, counting reveals."""

from __future__ import annotations

from arcade_gym.core.peers import Built, PeerPair, our_single, our_vector, timed
from arcade_gym.minesweeper.bench import STEP_UNITS

UNIT = (
    "one reveal of a hidden cell, random legal, 9x9 board with 10 mines; ours flood-fills the "
    "zeros it opens and keeps the first reveal safe, Jumanji opens one cell a step"
)


def _jumanji(games: int) -> Built:
    from jumanji.environments import Minesweeper
    from jumanji.environments.logic.minesweeper.generator import UniformSamplingGenerator

    from arcade_gym.core import jax_peers

    env = Minesweeper(generator=UniformSamplingGenerator(num_rows=9, num_cols=9, num_mines=10))
    init, step = jax_peers.jumanji_env(env)
    if games == 1:
        return timed(lambda: jax_peers.single(init, step))
    return timed(lambda: jax_peers.batched(init, step, games))


def peer_pairs() -> list[PeerPair]:
    """Minesweeper's pairs."""
    unit = STEP_UNITS["Minesweeper-v0"]
    return [
        PeerPair(
            "Minesweeper-v0 vs jumanji Minesweeper-v0",
            "single",
            UNIT,
            our_single("arcade_gym/Minesweeper-v0", unit),
            _jumanji,
            ("jax", "jumanji"),
        ),
        PeerPair(
            "Minesweeper-v0 vector vs jumanji Minesweeper-v0 vmap+scan",
            "batched",
            UNIT,
            our_vector("arcade_gym/Minesweeper-v0", unit),
            _jumanji,
            ("jax", "jumanji"),
            games=1024,
            sweep=(1024, 4096),
        ),
    ]

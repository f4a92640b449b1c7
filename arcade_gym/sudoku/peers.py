"""Sudoku beside its peer (`arcade-eval bench --peers`): Jumanji's Sudoku-v0 (puzzles from its
database) against `Sudoku-v0` on set v1's grids (resets from a fixed set as well), single and
batched."""

from __future__ import annotations

from arcade_gym.core.peers import Built, PeerPair, our_single, our_vector, timed
from arcade_gym.sudoku.bench import STEP_UNITS

UNIT = (
    "one digit placed in an empty cell, random among the placements that break no constraint; "
    "a new grid from a fixed set at each reset (ours: set v1, Jumanji: its puzzle database)"
)


def _jumanji(games: int) -> Built:
    import jumanji

    from arcade_gym.core import jax_peers

    init, step = jax_peers.jumanji_env(jumanji.make("Sudoku-v0"))
    if games == 1:
        return timed(lambda: jax_peers.single(init, step))
    return timed(lambda: jax_peers.batched(init, step, games))


def peer_pairs() -> list[PeerPair]:
    """Sudoku's pairs."""
    unit = STEP_UNITS["Sudoku-v0"]
    return [
        PeerPair(
            "Sudoku-v0 vs jumanji Sudoku-v0",
            "single",
            UNIT,
            our_single("arcade_gym/Sudoku-v0", unit, set="v1"),
            _jumanji,
            ("jax", "jumanji"),
        ),
        PeerPair(
            "Sudoku-v0 vector vs jumanji Sudoku-v0 vmap+scan",
            "batched",
            UNIT,
            our_vector("arcade_gym/Sudoku-v0", unit, set="v1"),
            _jumanji,
            ("jax", "jumanji"),
            games=1024,
            sweep=(1024, 4096),
        ),
    ]

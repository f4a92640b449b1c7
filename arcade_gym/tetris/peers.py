"""Tetris beside its peers (`arcade-eval bench --peers`): Jumanji's Tetris-v0 against
`Tetris-v3` (placements), single and batched, and tetris-gymnasium against `TetrisPrimitive-v3`
(primitive controls). Boards are 20x10 on every side."""

from __future__ import annotations

from arcade_gym.core.peers import Built, PeerPair, any_gym_single, our_single, our_vector, timed
from arcade_gym.tetris.bench import STEP_UNITS

PLACEMENT = (
    "one placement: a piece hard-dropped at a legal (rotation, column), 20x10 board, random "
    "legal choice; ours may also hold (Jumanji has no hold) and hands over every placement's "
    "afterstate features with its observation"
)
PRIMITIVE = (
    "one primitive control, random: ours one of six, then one gravity row; tetris-gymnasium "
    "one of its eight (move, rotate, soft or hard drop, swap, no-op), its gravity one row a step; "
    "20x10 board"
)


def _jumanji(games: int) -> Built:
    import jumanji

    from arcade_gym.core import jax_peers

    init, step = jax_peers.jumanji_env(jumanji.make("Tetris-v0", num_rows=20, num_cols=10))
    if games == 1:
        return timed(lambda: jax_peers.single(init, step))
    return timed(lambda: jax_peers.batched(init, step, games))


def _tetris_gymnasium() -> object:
    import gymnasium as gym
    import tetris_gymnasium.envs  # noqa: F401  (registers tetris_gymnasium/Tetris)

    return gym.make("tetris_gymnasium/Tetris")


def peer_pairs() -> list[PeerPair]:
    """Tetris's pairs."""
    placement = STEP_UNITS["Tetris-v3"]
    return [
        PeerPair(
            "Tetris-v3 vs jumanji Tetris-v0",
            "single",
            PLACEMENT,
            our_single("arcade_gym/Tetris-v3", placement),
            _jumanji,
            ("jax", "jumanji"),
        ),
        PeerPair(
            "Tetris-v3 vector vs jumanji Tetris-v0 vmap+scan",
            "batched",
            PLACEMENT,
            our_vector("arcade_gym/Tetris-v3", placement),
            _jumanji,
            ("jax", "jumanji"),
            games=1024,
            sweep=(256, 1024, 4096),
        ),
        PeerPair(
            "TetrisPrimitive-v3 vs tetris-gymnasium Tetris",
            "single",
            PRIMITIVE,
            our_single("arcade_gym/TetrisPrimitive-v3", STEP_UNITS["TetrisPrimitive-v3"]),
            any_gym_single(_tetris_gymnasium),
            ("tetris_gymnasium",),
        ),
    ]

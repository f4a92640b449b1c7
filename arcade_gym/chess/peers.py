"""Chess beside its peers (`arcade-eval bench --peers`), standard start, in plies: the AEC env
against PettingZoo's chess_v6 with no wrappers on either side and with each side's default
wrappers, and against pgx's chess (one jitted ply a call); the vector env `Chess-v0` (the agent's
move and the random rung's reply, both counted) against pgx batched."""

from __future__ import annotations

from typing import Any

from arcade_gym.chess import aec
from arcade_gym.chess.bench import STEP_UNITS
from arcade_gym.core.peers import Built, PeerPair, any_aec, our_vector, timed

PLY = (
    "one ply of either side, random legal, standard start, observation planes and mask each "
    "ply; a finished agent's dead step not counted"
)


def _pettingzoo(wrapped: bool) -> Any:
    from pettingzoo.classic import chess_v6

    return chess_v6.env() if wrapped else chess_v6.raw_env()


def _pgx(games: int) -> Built:
    import pgx

    from arcade_gym.core import jax_peers

    init, step = jax_peers.pgx_env(pgx.make("chess"))
    if games == 1:
        return timed(lambda: jax_peers.single(init, step))
    return timed(lambda: jax_peers.batched(init, step, games))


def peer_pairs() -> list[PeerPair]:
    """Chess's pairs."""
    pettingzoo = ("pettingzoo", "pygame")
    unit = STEP_UNITS["Chess-v0"]
    return [
        PeerPair(
            "chess_v0 vs PettingZoo chess_v6, no wrappers",
            "single",
            f"{PLY}; no wrappers on either side",
            any_aec(aec.env),
            any_aec(lambda: _pettingzoo(wrapped=False)),
            pettingzoo,
        ),
        PeerPair(
            "chess_v0 vs PettingZoo chess_v6, default wrappers",
            "single",
            f"{PLY}; each side in PettingZoo's default wrappers",
            any_aec(aec.wrapped_env),
            any_aec(lambda: _pettingzoo(wrapped=True)),
            pettingzoo,
        ),
        PeerPair(
            "chess_v0 vs pgx chess",
            "single",
            f"{PLY}; pgx: one jitted call a ply",
            any_aec(aec.env),
            _pgx,
            ("jax", "pgx"),
        ),
        PeerPair(
            "Chess-v0 vector vs pgx chess vmap+scan",
            "batched",
            "one ply of either side, random legal, standard start; ours: the agent's move and "
            "the random rung's reply inside one step, both counted",
            our_vector("arcade_gym/Chess-v0", unit, plies=True),
            _pgx,
            ("jax", "pgx"),
            games=256,
            sweep=(64, 256, 1024),
        ),
    ]
